/**
 * `process_messages`: the case's messages applied by a client in order (lenient, as a renderer
 * runs, unless the case sets `strictMode`), then its `expectError` or `expect.surfaces` checked.
 */
import type { ConformanceActionHandler } from '../conformance-action.js';
import { runMessageSteps } from '../run-message-steps.js';

/** The `process_messages` handler. */
export const processMessages: ConformanceActionHandler = ({ testCase, version, context }) =>
  runMessageSteps(testCase, version, context, {
    strict: testCase.strictMode === true,
    resolveBindings: false,
  }).mismatches;
