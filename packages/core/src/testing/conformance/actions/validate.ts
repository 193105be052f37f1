/**
 * `validate`: the case's steps applied with strict validation and every component resolved after
 * each step, so that schema errors and errors raised while binding (`@index` outside a template)
 * both count, as in the reference harness's `validate_pure_validation_case`.
 */
import type { ConformanceActionHandler } from '../conformance-action.js';
import { runMessageSteps } from '../run-message-steps.js';

/** The `validate` handler. */
export const validate: ConformanceActionHandler = ({ testCase, version, context }) =>
  runMessageSteps(testCase, version, context, { strict: true, resolveBindings: true }).mismatches;
