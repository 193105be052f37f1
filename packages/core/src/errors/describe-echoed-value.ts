/**
 * How an error message shows a value the peer sent: never all of it. A peer may send a 1 MB
 * string or a value nested 100,000 levels deep; echoing it whole sends its bytes back as often as
 * it asks, and `JSON.stringify` of a deep value throws.
 */

/** Characters of a peer's string an error message shows by default. */
export const MAX_ECHOED_LENGTH = 64;

/** Options of {@link describeEchoedValue}. */
export interface DescribeEchoedValueOptions {
  /**
   * Most characters of a string shown; a longer string is cut and marked with `…`.
   * @default 64 ({@link MAX_ECHOED_LENGTH})
   */
  maxLength?: number;
  /**
   * How a string is quoted: `'single'` (`'v99.0'`, the A2UI conformance wording) or `'json'`
   * (`"v99.0"`, escaped).
   * @default 'single'
   */
  quote?: 'single' | 'json';
}

/**
 * The first `maxLength` characters of `text` (the whole text when it is short enough), never
 * ending inside a surrogate pair.
 *
 * @example
 * ```ts
 * boundedPrefix('x'.repeat(1_000_000), 256).length; // 256
 * ```
 */
export function boundedPrefix(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const last = text.charCodeAt(maxLength - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? maxLength - 1 : maxLength;
  return text.slice(0, Math.max(0, end));
}

/**
 * A peer-sent value for an error message: a string quoted and cut to `maxLength` characters
 * (`'aaaa…'`), a number, boolean or `null` as written, an array or object by its JSON type only
 * (`(a JSON array)`).
 *
 * @example
 * ```ts
 * describeEchoedValue('v99.0'); // "'v99.0'"
 * describeEchoedValue('x'.repeat(1e6)).length; // 67
 * describeEchoedValue([[1]]); // "(a JSON array)"
 * ```
 */
export function describeEchoedValue(
  value: unknown,
  options: DescribeEchoedValueOptions = {},
): string {
  if (typeof value === 'string') {
    const shown = boundedPrefix(value, options.maxLength ?? MAX_ECHOED_LENGTH);
    const quoted = options.quote === 'json' ? JSON.stringify(shown) : `'${shown}'`;
    return shown.length < value.length ? `${quoted}…` : quoted;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return `(a JSON ${Array.isArray(value) ? 'array' : typeof value})`;
}
