import type { HeadersOption } from './link-options.js';

/**
 * The headers of one request from a transport's `headers` option: the value, or what the function
 * returns now (so a refreshed token is picked up), as a fresh `Headers` the caller may add to.
 *
 * @example
 * ```ts
 * const headers = await resolveHeaders(options.headers);
 * headers.set('Content-Type', 'application/json');
 * ```
 */
export async function resolveHeaders(option: HeadersOption | undefined): Promise<Headers> {
  return new Headers(typeof option === 'function' ? await option() : option);
}
