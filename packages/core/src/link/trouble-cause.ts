/**
 * Why a server refused client messages for now, named once for every binding: the refusal's
 * `data.reason` on the wire (a busy agent says nothing; a server whose shared session store is
 * down says `store-unavailable`), read into the {@link TroubleCause} a status bar words.
 */
import type { TroubleCause } from '../transport/client-transport.js';

/** `data.reason` of the refusals a server sends while its shared session store (Redis) is down. */
export const STORE_UNAVAILABLE = 'store-unavailable';

/**
 * The cause of a "come back later" refusal from its `data` (`{ reason?: string }`).
 *
 * @example
 * ```ts
 * troubleCauseOf({ retryAfterMs: 1000, reason: 'store-unavailable' }); // 'store-unavailable'
 * troubleCauseOf({ retryAfterMs: 1000 }); // 'busy'
 * ```
 */
export function troubleCauseOf(data: unknown): TroubleCause {
  const reason = (data as { reason?: unknown } | null | undefined)?.reason;
  return reason === STORE_UNAVAILABLE ? 'store-unavailable' : 'busy';
}

/** What a status line says for `cause`. */
export function describeTroubleCause(cause: TroubleCause): string {
  return cause === 'store-unavailable' ? 'Server storage unavailable' : 'The agent is busy';
}
