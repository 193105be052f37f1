/**
 * The connection id of an AG-UI thread: a digest of the principal's key and the `threadId`, so
 * that each principal has threads of its own — a `threadId` another principal uses names a
 * different connection, never theirs — and the id has the fixed length the session host accepts,
 * whatever the client sent.
 */

const encoder = new TextEncoder();

/**
 * `agui-` + base64url(SHA-256(principal key, threadId)), 48 characters.
 *
 * @param principalKey - the host's `principalKey(principal)` (`undefined` without authentication)
 * @param threadId - `RunAgentInput.threadId`
 *
 * @example
 * ```ts
 * const id = await threadConnectionId('user:ada', input.threadId);
 * ```
 */
export async function threadConnectionId(principalKey: unknown, threadId: string): Promise<string> {
  const key =
    principalKey === undefined
      ? ''
      : typeof principalKey === 'string'
        ? `s:${principalKey}`
        : `j:${JSON.stringify(principalKey) ?? String(principalKey)}`;
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${key}\u0000${threadId}`));
  let binary = '';
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `agui-${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}
