/**
 * One line about a failure, for a status reason or an error message: an `Error`'s message and,
 * when it has one, its cause's in parentheses (Node's `fetch` says "fetch failed" and puts the
 * reason in the cause); anything else as a string.
 *
 * @example
 * ```ts
 * describeError(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }));
 * // 'fetch failed (connect ECONNREFUSED)'
 * ```
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
