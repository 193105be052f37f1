/**
 * Structural equality for resolved property values, so a re-evaluation that produces an equal
 * value keeps the previous snapshot and React skips the component.
 */

/** Deepest nesting compared structurally; deeper values compare by identity. */
const MAX_DEPTH = 32;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * True when `a` and `b` are the same value: `Object.is`, or arrays / plain objects whose entries
 * are the same value. Data-model values are structurally shared, so unchanged subtrees stop the
 * walk at the first identity check.
 *
 * @param a - any value
 * @param b - any value
 * @returns whether a component reading `a` would render the same reading `b`
 */
export function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) {
      if (!sameValue(a[index], b[index], depth + 1)) return false;
    }
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(b, key) || !sameValue(a[key], b[key], depth + 1)) return false;
    }
    return true;
  }
  return false;
}
