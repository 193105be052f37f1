/**
 * Type coercion between data-model values and the types a property or function expects
 * (digest §7.5, the renderer guide's coercion table). Every function here is total: it never
 * throws, whatever it is given, because bound data may be missing or of any JSON type while a
 * surface streams in (§7.7).
 */

/**
 * A decimal number as text: optional sign, digits with an optional fraction (or a bare fraction),
 * optional exponent. Deliberately narrower than `Number()`, which also accepts `0x1f`, `0b1`,
 * `Infinity` and whitespace-only strings (as `0`).
 */
const DECIMAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Converts a value to a boolean per the coercion table of digest §7.5.
 *
 * | Input | Result |
 * |---|---|
 * | boolean | itself |
 * | `"true"` / `"false"` (any case) | `true` / `false` |
 * | any other string | `false` |
 * | number | `true` unless `0` or `NaN` |
 * | `null` / `undefined` | `false` |
 * | anything else (object, array, bigint) | JavaScript truthiness (`0n` is false, objects are true) |
 *
 * @param value - any value, typically a resolved `DynamicBoolean`
 * @returns the boolean; never throws
 * @example
 * ```ts
 * toBoolean('TRUE'); // true
 * toBoolean('yes');  // false
 * ```
 */
export function toBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  // Only the literal words count: "yes", "1" or "on" are false so that a check cannot pass by
  // accident on free text typed into a field.
  if (typeof value === 'string') return value.toLowerCase() === 'true';
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (value === null || value === undefined) return false;
  return Boolean(value);
}

/**
 * Parses a value as a number without the table's fallback to `0`: numbers pass through (`NaN`
 * included), decimal strings (surrounding whitespace ignored, `1e3`, `.5`, `-2`) are parsed, and
 * everything else — `null`, `undefined`, `""`, booleans, `"abc"`, `"0x10"`, objects — is `NaN`.
 *
 * Validation (`numeric`) and formatting (`formatNumber`, `pluralize`) use this instead of
 * {@link toNumber}, so that a missing or non-numeric value fails the check or formats as `""`
 * instead of passing as `0`.
 *
 * @param value - any value, typically a resolved `DynamicNumber`
 * @returns the number, or `NaN`; never throws
 */
export function toNumberOrNaN(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const text = value.trim();
    return DECIMAL_NUMBER.test(text) ? Number(text) : Number.NaN;
  }
  return Number.NaN;
}

/**
 * Converts a value to a number per the coercion table of digest §7.5.
 *
 * | Input | Result |
 * |---|---|
 * | number | itself (`NaN` stays `NaN`) |
 * | decimal string (see {@link toNumberOrNaN}) | the parsed value |
 * | any other string | `0` |
 * | `null` / `undefined` | `0` |
 * | boolean | `1` / `0` |
 * | anything else | `0` |
 *
 * @param value - any value
 * @returns the number; never throws
 * @example
 * ```ts
 * toNumber(' 42.5 '); // 42.5
 * toNumber('abc');    // 0
 * toNumber(null);     // 0
 * ```
 */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const parsed = toNumberOrNaN(value);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/**
 * Converts a value to the string shown to the user (digest §7.5; `formatString` parts):
 * strings unchanged; numbers, booleans and bigints in their locale-neutral JavaScript form
 * (`1234.5`, `-0` → `"0"`, `true`); `null`/`undefined` → `""`; a valid `Date` → its ISO string;
 * other objects and arrays → `JSON.stringify`; functions → `""`. Values JSON cannot represent
 * (symbols, cyclic objects) fall back to `String(value)` and finally to `""`.
 *
 * @param value - any value
 * @returns the display string; never throws
 * @example
 * ```ts
 * toDisplayString({ a: 1 }); // '{"a":1}'
 * toDisplayString(undefined); // ''
 * ```
 */
export function toDisplayString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  // A function's source text is never something to show; JSON has no functions anyway.
  if (typeof value === 'function') return '';
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  }
  if (typeof value === 'object') {
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) return json;
    } catch {
      // Cycles and nested bigints: fall through to String().
    }
  }
  try {
    return String(value);
  } catch {
    // `Object.create(null)` and objects with a throwing `toString` end here.
    return '';
  }
}
