/**
 * How validation issues name values and places: a value's JSON type, a value quoted for a
 * message, JSON Pointers. Small and used on every path (Ajv errors, depth checks, v0.8); the
 * schema diagnosis that words a failure (`diagnose-schema.ts`) loads only when one fails.
 */

/** JSON type of a value, with `integer` for whole numbers (as JSON Schema distinguishes them). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/** `JSON.stringify` capped at 60 characters, for quoting values in messages. */
export function quoteValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Appends one reference token to a JSON Pointer (RFC 6901 escaping). */
export function appendPointer(path: string, segment: string | number): string {
  return `${path}/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * The value at the JSON Pointer `pointer` (RFC 6901, `""` for the root) inside `root`, through own
 * properties only, or `undefined` when there is none.
 */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  let current = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key))
      return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
