/**
 * `resolve_path`: a data path resolved against a context path (`args.path`, `args.contextPath`,
 * default `/`), compared with `expect` (a pointer, or `{result}`).
 */
import { resolvePointer } from '../../../state/json-pointer.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import { show } from '../match-expected.js';

/** The `resolve_path` handler. */
export const resolvePath: ConformanceActionHandler = ({ testCase }) => {
  const args = testCase.args ?? {};
  const path = String(args.path ?? '');
  const scope = String(args.contextPath ?? args.context_path ?? '/');
  const expected =
    typeof testCase.expect === 'object' && testCase.expect !== null && 'result' in testCase.expect
      ? (testCase.expect as { result: unknown }).result
      : testCase.expect;
  const actual = resolvePointer(path, scope);
  return actual === expected ? [] : [`expected ${show(expected)}, got ${show(actual)}`];
};
