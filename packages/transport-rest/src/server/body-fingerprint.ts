/**
 * The fingerprint of a request body that an `Idempotency-Key` names
 * (draft-ietf-httpapi-idempotency-key-header §2.2): a key seen again with another fingerprint is
 * a different request under a reused key, answered 422, not the first request's answer.
 */

/**
 * SHA-256 (hex) of the route and the JSON body without its `requestId` member — the key may
 * travel in the body or in the header, and the two forms are the same request.
 *
 * @param route - the route the body was posted to (`connect`, `action`, `error`): one key names
 *   one request, whichever route it was sent to first
 * @param body - the parsed JSON object body
 *
 * @example
 * ```ts
 * await fingerprintOf('action', { connectionId, action }); // '9f86d08…' (64 hex digits)
 * ```
 */
export async function fingerprintOf(route: string, body: Record<string, unknown>): Promise<string> {
  const { requestId: _key, ...rest } = body;
  const bytes = new TextEncoder().encode(`${route}\n${JSON.stringify(rest)}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
