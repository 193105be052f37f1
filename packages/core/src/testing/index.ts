export type { ConformanceHostOptions, ReturnChannelFaults } from './conformance-harness.js';
export {
  CONFORMANCE_RECONNECT,
  conformanceHostOptions,
  createReturnChannelFaults,
  hijackStepOutcome,
} from './conformance-harness.js';
export type { ExampleStream } from './example-streams.js';
export { EXAMPLE_STREAMS } from './example-streams.js';
export type {
  ChunkedAgent,
  ChurnAgent,
  FloodAgent,
  LinkResetTrialsOptions,
  TrialLink,
  TrialProxy,
} from './fault-scenarios.js';
export {
  CHUNKED_EXCHANGE,
  chunkedSurface,
  chunkedUpdate,
  createChunkedAgent,
  createChurnAgent,
  createFloodAgent,
  runChunkedExchange,
  runInBatches,
  runLinkResetTrials,
} from './fault-scenarios.js';
export {
  createLoadAgent,
  expectLoadDelivered,
  untilLoadDelivered,
} from './load-scenario.js';
export type { MemoryCluster } from './memory-cluster.js';
export { createMemoryCluster } from './memory-cluster.js';
export { seededRandom } from './seeded-random.js';
export type {
  ConformanceServer,
  ConformanceServerOptions,
  HijackOutcome,
  TransportCapabilities,
  TransportConformanceHarness,
} from './transport-conformance.js';
export { describeTransportConformance } from './transport-conformance.js';
export type { TransportRecording } from './transport-recorder.js';
export { recordTransport } from './transport-recorder.js';
export type { ChangeNotifier, Deferred } from './wait-for.js';
export { createChangeNotifier, createDeferred, waitForClient } from './wait-for.js';
