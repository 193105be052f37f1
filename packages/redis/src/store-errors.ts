/**
 * How a failed Redis command reaches a client: as a refusal it retries, never as a crash. The
 * session host passes store errors through unchanged, and every binding maps `LIMIT_EXCEEDED`
 * with `data.retryAfterMs` to "come back later" (HTTP 503 + `Retry-After`, JSON-RPC `-32005`),
 * which client links retry with backoff — with the same request id, so nothing is applied twice.
 */
import { A2uiError } from '@a2ui-ts/core';
import { STORE_UNAVAILABLE } from '@a2ui-ts/core/link';

/** `data.reason` of the refusals raised while Redis cannot be reached (core's, which clients read). */
export { STORE_UNAVAILABLE };

/**
 * The refusal for a Redis command that failed: `LIMIT_EXCEEDED` (503, retry after
 * `retryAfterMs`) with `data.reason: 'store-unavailable'`; an `A2uiError` passes through.
 */
export function storeUnavailable(error: unknown, retryAfterMs: number): A2uiError {
  if (A2uiError.isInstance(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new A2uiError(
    'LIMIT_EXCEEDED',
    `The shared session store (Redis) is unavailable: ${detail}. Retry later.`,
    { cause: error, data: { retryAfterMs, reason: STORE_UNAVAILABLE } },
  );
}

/**
 * Runs the Redis command(s) of `call`; a failure of them is thrown as {@link storeUnavailable}'s
 * refusal (an `A2uiError` passes through).
 */
export async function unlessUnavailable<T>(
  retryAfterMs: number,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeUnavailable(error, retryAfterMs);
  }
}
