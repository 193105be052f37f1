export type { ExampleStream } from './example-streams.js';
export { EXAMPLE_STREAMS } from './example-streams.js';
export type { ConformanceServer, TransportConformanceHarness } from './transport-conformance.js';
export { describeTransportConformance } from './transport-conformance.js';
export type { Deferred } from './wait-for.js';
export { createDeferred, waitForClient } from './wait-for.js';
