/**
 * `@a2ui-ts/core/testing/node`: test utilities that need Node (`node:net`, `node:fs`): the TCP
 * fault proxy and one per client of a conformance harness, `eventually`, a client that stops
 * reading, slowloris clients, the `wire-test` blocks of a document, README blocks that run as printed; the official
 * conformance suite's loader; and, for scripts that must not load vitest (benchmarks), the
 * Markdown section helpers and the benchmarks' statistics, report and child
 * server. Nothing here imports vitest. Runtime-neutral utilities are in `@a2ui-ts/core/testing`.
 *
 * @module
 */
export {
  markdownSection,
  markedCodeBlocks,
  replaceMarkdownSection,
} from '../markdown-sections.js';
export type { BenchReport, BenchReportOptions } from './bench-report.js';
export {
  formatNumber,
  loadAverage,
  measuredBy,
  median,
  percentile,
  startBenchReport,
  writeBenchmarkSection,
} from './bench-report.js';
export type { BenchServer } from './bench-server.js';
export { startBenchServer } from './bench-server.js';
export type { LoadConformanceSuiteOptions } from './conformance-suite.js';
export {
  CONFORMANCE_SUITE_ROOT,
  createConformanceContext,
  loadConformanceSuite,
} from './conformance-suite.js';
export { eventually } from './eventually.js';
export { expectKillTrialHeld } from './expect-kill-trial-held.js';
export type {
  FaultServer,
  FaultServerEnv,
  KillTrialFigures,
  KillTrialOptions,
  KillTrialTotals,
} from './kill-trial.js';
export {
  createApplyingAgent,
  FAULT_SERVER_ENV,
  readFaultServerEnv,
  runKillTrial,
  runKillTrials,
  startFaultServer,
} from './kill-trial.js';
export type { ProxiedLinks } from './proxied-links.js';
export { createProxiedLinks } from './proxied-links.js';
export type {
  ReadmeBlockOptions,
  ReadmeBlockResult,
  ReadmeBlocks,
  ReadmeServerAndClientOptions,
  ReadmeServerAndClientRun,
  StartedReadmeBlock,
} from './readme-blocks.js';
export {
  README_NODE_ARGUMENTS,
  readReadmeBlocks,
  runReadmeBlock,
  runReadmeServerAndClient,
  startReadmeBlock,
  typecheckReadmeBlocks,
} from './readme-blocks.js';
export type {
  SlowHeaderClients,
  SlowHeaderClientsOptions,
  SlowHeaderTrial,
} from './slow-header-clients.js';
export { openSlowHeaderClients, runSlowHeaderTrial } from './slow-header-clients.js';
export type { StalledReader } from './stalled-reader.js';
export { countActiveTimers, openStalledReader } from './stalled-reader.js';
export type { TcpProxy } from './tcp-proxy.js';
export { createTcpProxy } from './tcp-proxy.js';
export type { WireTestBlocks } from './wire-test-blocks.js';
export { readWireTestBlocks } from './wire-test-blocks.js';
