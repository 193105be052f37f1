/**
 * Reconnect delays: exponential growth with "equal jitter" (half fixed, half random), so that many
 * clients dropped at once do not all come back at the same instant.
 */

/** Reconnect policy of the client. Durations in milliseconds. */
export interface ReconnectOptions {
  /** Delay before the first retry, unless the server sent a `retry:` hint, which wins (even above `maxDelayMs`). @default 1000 */
  initialDelayMs?: number;
  /** Longest delay between two attempts. @default 30000 */
  maxDelayMs?: number;
  /** Growth factor per failed attempt. @default 2 */
  multiplier?: number;
  /** Failed attempts in a row before the transport gives up and closes. @default Infinity */
  maxAttempts?: number;
  /**
   * Smallest server `retry:` hint honoured: a lower one (even `retry: 0`) is raised to it, so a
   * server cannot switch the backoff off. Does not apply to `initialDelayMs`. @default 250
   */
  minRetryMs?: number;
  /**
   * How long a link must stay open, without delivering an A2UI message, before the backoff starts
   * again from its first delay. A link that delivers a new A2UI message resets it at once; one that
   * ends sooner without one (e.g. right after `connected`) counts as a failed attempt.
   * @default 5000
   */
  stableAfterMs?: number;
}

/** Defaults of {@link ReconnectOptions}. */
export const RECONNECT_DEFAULTS: Required<ReconnectOptions> = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  multiplier: 2,
  maxAttempts: Number.POSITIVE_INFINITY,
  minRetryMs: 250,
  stableAfterMs: 5_000,
};

/** Options of {@link computeBackoffDelay}: the growth parameters and the random source. */
export interface BackoffDelayOptions
  extends Omit<ReconnectOptions, 'maxAttempts' | 'minRetryMs' | 'stableAfterMs'> {
  /** Uniform in [0, 1); pass a seeded generator for reproducible tests. @default Math.random */
  random?: () => number;
}

/**
 * The delay before reconnect attempt `attempt` (1-based): `base = min(maxDelayMs, initialDelayMs ×
 * multiplier^(attempt−1))`, then a uniformly random value in `[base/2, base]`.
 *
 * @param attempt - 1 for the first retry after a drop
 * @param options - growth and jitter; defaults as in {@link RECONNECT_DEFAULTS}
 * @returns milliseconds
 *
 * @example
 * ```ts
 * computeBackoffDelay(3, { initialDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 }); // 300
 * ```
 */
export function computeBackoffDelay(attempt: number, options: BackoffDelayOptions = {}): number {
  const initialDelayMs = options.initialDelayMs ?? RECONNECT_DEFAULTS.initialDelayMs;
  const maxDelayMs = options.maxDelayMs ?? RECONNECT_DEFAULTS.maxDelayMs;
  const multiplier = options.multiplier ?? RECONNECT_DEFAULTS.multiplier;
  const random = options.random ?? Math.random;
  const base = Math.min(maxDelayMs, initialDelayMs * multiplier ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (random() * base) / 2);
}
