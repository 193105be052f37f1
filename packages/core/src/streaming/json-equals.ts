/** Structural equality of JSON values (object key order ignored), and a key-sorted serialisation. */
import { isRecord } from '../protocol/guards.js';

/** Whether two JSON values are equal; objects compare by keys and values, in any key order. */
export function jsonEquals(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    return (
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => jsonEquals(item, right[index]))
    );
  }
  if (!isRecord(left) || !isRecord(right) || Array.isArray(right)) return false;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => key in right && jsonEquals(left[key], right[key]));
}

/** JSON text with object keys sorted, so equal values serialise identically. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (!isRecord(item) || Array.isArray(item)) return item;
    return Object.fromEntries(
      Object.keys(item)
        .sort()
        .map((key) => [key, item[key]]),
    );
  });
}
