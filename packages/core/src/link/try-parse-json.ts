/**
 * `text` parsed as JSON, or `undefined` when it is not JSON (a proxy's error page, a cut body).
 * The type is the caller's claim: check the shape before use.
 *
 * @example
 * ```ts
 * const data = tryParseJson<{ connectionId?: unknown }>(event.data);
 * if (typeof data?.connectionId !== 'string') return { error: 'no connectionId' };
 * ```
 */
export function tryParseJson<T = unknown>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
