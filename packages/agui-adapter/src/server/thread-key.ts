/**
 * The connection id of an AG-UI thread: the principal's key and the `threadId` scoped by core's
 * `scopedClientKey`, so that each principal has threads of its own — a `threadId` another
 * principal uses names a different connection, never theirs — and the id has the fixed length
 * the session host accepts, whatever the client sent.
 */
import { scopedClientKey } from '@a2ui-ts/core/host';

/**
 * `agui-` + base64url(SHA-256(typed principal key, typed threadId)), 48 characters.
 *
 * @param principalKey - the host's `principalKey(principal)` (`undefined` without authentication)
 * @param threadId - `RunAgentInput.threadId`
 *
 * @example
 * ```ts
 * const id = await threadConnectionId('user:ada', input.threadId);
 * ```
 */
export function threadConnectionId(principalKey: unknown, threadId: string): Promise<string> {
  return scopedClientKey(principalKey, threadId, 'agui-');
}
