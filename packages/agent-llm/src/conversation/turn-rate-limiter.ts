/**
 * A per-connection limit on model turns: at most `maxTurns` in any `windowMs` (a sliding window),
 * so one client cannot run up a provider bill or starve the others.
 */

/** A turn budget. */
export interface RateLimit {
  /** Most turns (each costs one or more model calls) per window. @default 20 */
  maxTurns?: number;
  /** Window length in milliseconds. @default 60000 */
  windowMs?: number;
}

export const DEFAULT_RATE_LIMIT: Required<RateLimit> = { maxTurns: 20, windowMs: 60_000 };

/**
 * Sliding-window counter of turns.
 *
 * @example
 * ```ts
 * const limiter = new TurnRateLimiter({ maxTurns: 5, windowMs: 60_000 });
 * const waitMs = limiter.take();
 * if (waitMs > 0) tellUser(`Try again in ${Math.ceil(waitMs / 1000)} s.`);
 * ```
 */
export class TurnRateLimiter {
  readonly #maxTurns: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  #times: number[] = [];

  constructor(limit: RateLimit = {}, now: () => number = Date.now) {
    this.#maxTurns = limit.maxTurns ?? DEFAULT_RATE_LIMIT.maxTurns;
    this.#windowMs = limit.windowMs ?? DEFAULT_RATE_LIMIT.windowMs;
    this.#now = now;
  }

  /**
   * Takes one turn from the budget.
   * @returns 0 when the turn may run, else the milliseconds until one may
   */
  take(): number {
    const now = this.#now();
    this.#times = this.#times.filter((time) => now - time < this.#windowMs);
    if (this.#times.length >= this.#maxTurns) return this.#times[0]! + this.#windowMs - now;
    this.#times.push(now);
    return 0;
  }
}
