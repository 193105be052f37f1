/**
 * The runner of the official A2UI conformance suite (runtime-neutral part; the Node part that
 * reads the YAML files is `loadConformanceSuite` in `@a2ui-ts/core/testing/node`).
 *
 * @module
 */

export { CONFORMANCE_ACTION_HANDLERS } from './action-handlers.js';
export type { ConformanceContext } from './case-catalogs.js';
export { BASIC_CATALOG_ALIASES, caseCatalogs, SPEC_CATALOGS } from './case-catalogs.js';
export type { ConformanceActionHandler, ConformanceRun } from './conformance-action.js';
export { notImplemented } from './conformance-action.js';
export type {
  ConformanceAction,
  ConformanceCase,
  ConformanceCatalog,
  ConformanceProtocolVersion,
  ConformanceStep,
  ExpectedError,
  LocatedConformanceCase,
} from './conformance-case.js';
export { CONFORMANCE_ACTION_NAMES, resolveCaseVersion } from './conformance-case.js';
export type { ReportedError } from './expect-error.js';
export { ERROR_CATEGORIES, findExpectedError, messageMatches } from './expect-error.js';
export { findSubsetMismatch, jsonEquals } from './match-expected.js';
export type { NotApplicableCase } from './not-applicable.js';
export { NOT_APPLICABLE_CASES } from './not-applicable.js';
export type { ConformanceOutcome } from './run-conformance-case.js';
export { runConformanceCase, SUPPORTED_PROTOCOL_VERSIONS } from './run-conformance-case.js';
