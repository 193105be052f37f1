export type {
  ConformanceAction,
  ConformanceActionHandler,
  ConformanceCase,
  ConformanceCatalog,
  ConformanceContext,
  ConformanceOutcome,
  ConformanceProtocolVersion,
  ConformanceRun,
  ConformanceStep,
  ExpectedError,
  LocatedConformanceCase,
  NotApplicableCase,
  ReportedError,
} from './conformance/index.js';
export {
  BASIC_CATALOG_ALIASES,
  CONFORMANCE_ACTION_HANDLERS,
  CONFORMANCE_ACTION_NAMES,
  caseCatalogs,
  ERROR_CATEGORIES,
  findExpectedError,
  findSubsetMismatch,
  jsonEquals,
  messageMatches,
  NOT_APPLICABLE_CASES,
  notImplemented,
  resolveCaseVersion,
  runConformanceCase,
  SPEC_CATALOGS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './conformance/index.js';
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
  GracefulRestartOptions,
  LinkResetTrialsOptions,
  RestartableServer,
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
  runGracefulRestart,
  runInBatches,
  runLinkResetTrials,
} from './fault-scenarios.js';
export type { FollowConformanceHarness, FollowConformanceHosts } from './follow-conformance.js';
export { describeFollowConformance } from './follow-conformance.js';
export { describeFunctionCallConformance } from './function-call-conformance.js';
export {
  createLoadAgent,
  expectLoadDelivered,
  untilLoadDelivered,
} from './load-scenario.js';
export type { MemoryCluster } from './memory-cluster.js';
export { createMemoryCluster } from './memory-cluster.js';
export type { Greeting, NegotiationAgent } from './negotiation-agent.js';
export {
  createNegotiationAgent,
  greetingInVersion,
  greetOver,
  NEGOTIATION_SURFACE_ID,
} from './negotiation-agent.js';
export type { RawJsonAnswer } from './post-raw-json.js';
export { INTERNAL_ERROR_TEXT, postRawJson } from './post-raw-json.js';
export { seededRandom } from './seeded-random.js';
export type { StoreOutageOutcome, StoreOutageServer } from './store-outage-scenario.js';
export { runStoreOutageScenario } from './store-outage-scenario.js';
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
export {
  BOOK_ACTION,
  createV10ActionAgent,
  createV10ActionSurface,
  V10_BASIC_CATALOG_ID,
} from './v1-action-surface.js';
export type { ChangeNotifier, Deferred } from './wait-for.js';
export { createChangeNotifier, createDeferred, waitForClient } from './wait-for.js';
export type { WireFunctionAgent } from './wire-function-agent.js';
export { createWireFunctionAgent } from './wire-function-agent.js';
