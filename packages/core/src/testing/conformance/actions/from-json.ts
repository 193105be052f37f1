/**
 * `from_json`: the case's catalog read by `catalogFromJson` (the case's `catalogId` and
 * `protocolVersion` override the document's), compared with `expect` by the suite's subset rule,
 * or its error with `expectError`.
 */
import { catalogFromJson } from '../../../catalog/catalog-definition.js';
import { toA2uiError } from '../../../errors/a2ui-error.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import type { ConformanceCase } from '../conformance-case.js';
import { findExpectedError } from '../expect-error.js';
import { findSubsetMismatch, show } from '../match-expected.js';

/**
 * Runs `produce`, then checks its result with `compare` (@default the suite's subset rule against
 * `expect`) or its error against `expectError`.
 */
export function checkCatalogResult(
  testCase: ConformanceCase,
  produce: () => unknown,
  compare: (actual: unknown) => string | undefined = (actual) =>
    findSubsetMismatch(actual, testCase.expect),
): string[] {
  let actual: unknown;
  try {
    actual = produce();
  } catch (caught) {
    const error = toA2uiError(caught, 'INTERNAL_ERROR');
    if (testCase.expectError === undefined) return [`unexpected ${error.code}: ${error.message}`];
    const miss = findExpectedError(
      [{ code: error.code, message: error.message }],
      testCase.expectError,
    );
    return miss ? [miss] : [];
  }
  if (testCase.expectError !== undefined) return [`expected an error, got ${show(actual)}`];
  const mismatch = compare(actual);
  return mismatch ? [mismatch] : [];
}

/** The `from_json` handler. */
export const fromJson: ConformanceActionHandler = ({ testCase }) =>
  checkCatalogResult(testCase, () =>
    catalogFromJson(testCase.catalog, {
      ...(testCase.catalogId === undefined ? {} : { catalogId: testCase.catalogId }),
      ...(testCase.protocolVersion === undefined
        ? {}
        : { protocolVersion: testCase.protocolVersion }),
    }),
  );
