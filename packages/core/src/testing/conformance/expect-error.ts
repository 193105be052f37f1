/**
 * How a case's `expectError` is checked against the errors our engine reports: the category names
 * the kind of failure (mapped from our error codes by {@link ERROR_CATEGORIES}), the message must
 * be contained in ours. The suite's messages were written against Python's `jsonschema`, so, as
 * in the reference harness (`python/a2ui_agent/tests/conformance/test_conformance.py`), a few of
 * its phrasings also match the same finding in Ajv's words ({@link SCHEMA_PHRASINGS}).
 */
import type { ExpectedError } from './conformance-case.js';

/** One error our engine reported, as the runner compares it. */
export interface ReportedError {
  /** Our error code (`VALIDATION_FAILED`, `SURFACE_EXISTS`, …). */
  readonly code: string;
  readonly message: string;
  /** A JSON Pointer into the message, when the error has one. */
  readonly path?: string;
}

/**
 * The suite's error categories (the reference harness's exception classes) for each of our
 * codes. An unlisted code belongs to no category and only matches a bare-message expectation.
 */
export const ERROR_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  VALIDATION_FAILED: ['ValidationError'],
  INVALID_JSON: ['ParseError'],
  SURFACE_EXISTS: ['IntegrityError', 'StateError'],
  SURFACE_NOT_FOUND: ['IntegrityError', 'StateError'],
  CATALOG_NOT_FOUND: ['CatalogError'],
  CATALOG_ERROR: ['CatalogError'],
  CATALOG_VERSION_MISMATCH: ['CatalogError'],
  INVALID_PATH: ['DataError', 'ValidationError'],
  DATA_ERROR: ['DataError'],
  EXPRESSION_ERROR: ['ExpressionError', 'ParseError', 'ValidationError'],
  LIMIT_EXCEEDED: ['RecursionError', 'ValidationError'],
  UNALLOWED_PARENT: ['ValidationError', 'IntegrityError'],
  UNALLOWED_CHILD: ['ValidationError', 'IntegrityError'],
};

/**
 * `jsonschema` phrasings of the suite paired with the words Ajv (through our issue messages) uses
 * for the same finding. A pair applies when the expected message contains its first part and our
 * message matches its second.
 */
export const SCHEMA_PHRASINGS: ReadonlyArray<readonly [string, RegExp]> = [
  ['is not of type', /must be (a|an|of type)|is not of type|\bexpected (a|an)\b/i],
  ['is a required property', /required|missing/i],
  ['Additional properties are not allowed', /not allowed|unexpected|unknown property|additional/i],
  ['is not one of', /\bone of\b|must be equal to|allowed values/i],
  ['was unexpected', /unexpected|unrecognized|not allowed/i],
  ['does not match', /must match|pattern/i],
  ['is too short', /must (have|not have) (fewer|more)|too short|at least/i],
];

/**
 * Whether one of `errors` is the error a case expects.
 *
 * @param errors - what the engine reported, in order
 * @param expected - the case's `expectError`
 * @returns `undefined` on a match, else why not
 */
export function findExpectedError(
  errors: readonly ReportedError[],
  expected: ExpectedError,
): string | undefined {
  const spec = typeof expected === 'string' ? { message: expected } : expected;
  const candidates = errors.filter(
    (error) =>
      (spec.category === undefined ||
        (ERROR_CATEGORIES[error.code] ?? []).includes(spec.category)) &&
      (spec.code === undefined || error.code === spec.code || error.message.includes(spec.code)),
  );
  const matching = candidates.filter(
    (error) =>
      (spec.message === undefined || messageMatches(error.message, spec.message)) &&
      (spec.details ?? []).every((detail) => detailMatches(error, detail)),
  );
  if (matching.length > 0) return undefined;
  const details = spec.details?.length ? ` with details ${JSON.stringify(spec.details)}` : '';
  const want = `${spec.category ?? 'an error'}${spec.code ? ` ${spec.code}` : ''}${spec.message ? ` containing ${JSON.stringify(spec.message)}` : ''}${details}`;
  const got =
    errors.length === 0
      ? 'no error'
      : errors
          .map((error) => `${error.code}${error.path ? ` at ${error.path}` : ''}: ${error.message}`)
          .join(' | ');
  return `expected ${want}; got ${got}`;
}

/** The suite's message rule: contained verbatim, or an equivalent schema phrasing. */
export function messageMatches(actual: string, expected: string): boolean {
  if (actual.includes(expected)) return true;
  if (actual.toLowerCase().includes(expected.toLowerCase())) return true;
  return SCHEMA_PHRASINGS.some(([phrase, ours]) => expected.includes(phrase) && ours.test(actual));
}

/**
 * The suite's detail codes are Pydantic's error kinds. Our errors carry a JSON Pointer and a
 * sentence, not a kind, so a detail is checked on what both make certain: the path (the
 * suite's dotted path, less its `messages.<n>.` prefix, must end our pointer) and whether the
 * value was absent (`missing_field`) or present but wrong (`invalid_value`, `type_mismatch`,
 * which the two validators draw differently for unions) — read from our messages' fixed openings.
 */
export function detailMatches(
  error: ReportedError,
  detail: { path?: string; code?: string; message?: string },
): boolean {
  if (detail.path !== undefined) {
    const pointer = `/${detail.path
      .replace(/^messages\.\d+\./, '')
      .split('.')
      .join('/')}`;
    const ours = error.path ?? '';
    if (ours !== pointer && !ours.endsWith(pointer)) return false;
  }
  if (detail.message !== undefined && !messageMatches(error.message, detail.message)) return false;
  if (detail.code === undefined) return true;
  return (detail.code === 'missing_field') === MISSING.test(error.message);
}

/** How our messages say a value is absent (`diagnose-schema.ts`, the envelope readers). */
const MISSING = /\bMissing\b|\bis missing\b/i;
