/**
 * The request ids a connection remembers so that a retried request reaches the agent once
 * (idempotent receive), bounded by count and by bytes: an id costs what its text costs, so a
 * client cannot make the server hold more than `maxBytes` of ids however long it makes them.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import type { TurnResult } from './turn.js';

/** Limits of {@link RequestIdMemory}. */
export interface RequestIdLimits {
  /** Most ids kept; the oldest is forgotten first. */
  readonly maxCount: number;
  /** Most UTF-16 code units of id text kept. */
  readonly maxBytes: number;
}

/** Fixed cost of one remembered id besides its text, counted against `maxBytes`. */
export const REQUEST_ID_OVERHEAD_BYTES = 64;

/** A remembered request: the turn it started, and the fingerprint of its body, if given. */
export interface RememberedRequest {
  readonly turn: Promise<TurnResult>;
  readonly fingerprint: string | undefined;
}

/** Remembered ids of one connection, oldest first, each with the turn it started. */
export class RequestIdMemory {
  readonly #limits: RequestIdLimits;
  readonly #ids = new Map<string, RememberedRequest>();
  #bytes = 0;

  constructor(limits: RequestIdLimits) {
    this.#limits = limits;
  }

  /** Ids and bytes kept. */
  get size(): { count: number; bytes: number } {
    return { count: this.#ids.size, bytes: this.#bytes };
  }

  /** A request seen before, or `undefined`. Ids are compared by their exact text. */
  get(id: string): RememberedRequest | undefined {
    return this.#ids.get(id);
  }

  /** Remembers `id` (with its body's `fingerprint`), forgetting the oldest beyond the limits. */
  remember(id: string, turn: Promise<TurnResult>, fingerprint?: string): void {
    this.#ids.set(id, { turn, fingerprint });
    this.#bytes += costOf(id, fingerprint);
    while (
      this.#ids.size > 1 &&
      (this.#ids.size > this.#limits.maxCount || this.#bytes > this.#limits.maxBytes)
    ) {
      const [oldest, request] = this.#ids.entries().next().value!;
      this.#ids.delete(oldest);
      this.#bytes -= costOf(oldest, request.fingerprint);
    }
  }

  clear(): void {
    this.#ids.clear();
    this.#bytes = 0;
  }
}

/** What one remembered id counts against `maxBytes`. */
const costOf = (id: string, fingerprint: string | undefined) =>
  id.length + (fingerprint?.length ?? 0) + REQUEST_ID_OVERHEAD_BYTES;

/**
 * Refuses a request whose id was seen with another body (both fingerprints known): an idempotency
 * key names one request, and answering the first request's result to a different one would hide
 * that the second was never carried out (draft-ietf-httpapi-idempotency-key-header §2.2: 422).
 *
 * @throws A2uiError `VALIDATION_FAILED` (`path` `/requestId`, `data.httpStatus` 422,
 *   `data.reason` `'idempotency-key-reused'`)
 */
export function checkRequestFingerprint(
  remembered: string | undefined,
  given: string | undefined,
): void {
  if (remembered === undefined || given === undefined || remembered === given) return;
  throw new A2uiError(
    'VALIDATION_FAILED',
    'This idempotency key was used before with a different body; use a new key for a new request.',
    {
      path: '/requestId',
      data: { httpStatus: 422, field: 'requestId', reason: 'idempotency-key-reused' },
    },
  );
}
