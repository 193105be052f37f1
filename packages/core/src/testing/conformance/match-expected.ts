/**
 * The suite's comparison rule for `expect`: "a contains / subset match rather than an exact
 * match" (`conformance_schema.json`). Objects match when every expected key matches; arrays
 * element by element with the same length; scalars by equality.
 */

/** Deep equality of JSON values (key order ignored). */
export function jsonEquals(actual: unknown, expected: unknown): boolean {
  if (Object.is(actual, expected)) return true;
  if (typeof actual !== 'object' || typeof expected !== 'object') return false;
  if (actual === null || expected === null) return false;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  if (Array.isArray(actual)) {
    const list = expected as unknown[];
    return actual.length === list.length && actual.every((item, i) => jsonEquals(item, list[i]));
  }
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const keys = Object.keys(e);
  if (keys.length !== Object.keys(a).filter((key) => a[key] !== undefined).length) return false;
  return keys.every((key) => Object.hasOwn(a, key) && jsonEquals(a[key], e[key]));
}

/**
 * Where `actual` fails to contain `expected` (the suite's subset rule), as a JSON Pointer and a
 * reason; `undefined` when it contains it.
 *
 * @param actual - what the engine produced
 * @param expected - the case's `expect`
 * @param path - the pointer of `actual` so far @default ''
 */
export function findSubsetMismatch(
  actual: unknown,
  expected: unknown,
  path = '',
): string | undefined {
  if (expected === null || typeof expected !== 'object') {
    return Object.is(actual, expected) || jsonEquals(actual, expected)
      ? undefined
      : `${path || '/'}: expected ${JSON.stringify(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || '/'}: expected an array, got ${show(actual)}`;
    if (actual.length !== expected.length)
      return `${path || '/'}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`;
    for (let index = 0; index < expected.length; index++) {
      const mismatch = findSubsetMismatch(actual[index], expected[index], `${path}/${index}`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
    return `${path || '/'}: expected an object, got ${show(actual)}`;
  for (const [key, value] of Object.entries(expected)) {
    const child = `${path}/${key}`;
    if (!Object.hasOwn(actual, key)) return `${child}: missing (expected ${JSON.stringify(value)})`;
    const mismatch = findSubsetMismatch((actual as Record<string, unknown>)[key], value, child);
    if (mismatch) return mismatch;
  }
  return undefined;
}

/** A short JSON rendering of a value for a mismatch message. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
