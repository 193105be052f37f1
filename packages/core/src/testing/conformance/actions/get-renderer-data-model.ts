/**
 * `get_renderer_data_model`: after the case's messages, the data model the client attaches to its
 * messages (`a2uiClientDataModel`, only surfaces created with `sendDataModel`), compared with
 * `expect` — `null` when no surface sends its data model.
 */
import type { ConformanceActionHandler } from '../conformance-action.js';
import { jsonEquals, show } from '../match-expected.js';
import { runMessageSteps } from '../run-message-steps.js';

/** The `get_renderer_data_model` handler. */
export const getRendererDataModel: ConformanceActionHandler = ({ testCase, version, context }) => {
  const { client, mismatches } = runMessageSteps(
    { ...testCase, expect: undefined },
    version,
    context,
    { strict: false, resolveBindings: false },
  );
  const actual = client.processor.getClientDataModel();
  const expected = testCase.expect;
  if (expected === null || expected === undefined) {
    if (actual !== undefined) mismatches.push(`expected no data model, got ${show(actual)}`);
    return mismatches;
  }
  const want =
    typeof expected === 'object' && 'data' in expected
      ? (expected as { data: unknown }).data
      : expected;
  if (!jsonEquals(actual, want)) mismatches.push(`expected ${show(want)}, got ${show(actual)}`);
  return mismatches;
};
