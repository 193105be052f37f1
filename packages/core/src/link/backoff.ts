/**
 * Reconnect delays: exponential growth with "equal jitter" (half fixed, half random), so that many
 * clients dropped at once do not all come back at the same instant.
 */

/** Reconnect (and redelivery) policy of a client transport. Durations in milliseconds. */
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

/** Options of {@link createBackoff}. */
export interface BackoffOptions extends ReconnectOptions {
  /** Uniform random numbers in [0, 1) for the jitter; seed it in tests. @default Math.random */
  random?: () => number;
}

/**
 * A backoff schedule with state: the failed attempts so far, and the server's retry hint.
 * `delay()` grows with every {@link Backoff.fail}; {@link Backoff.succeed} starts it over.
 */
export interface Backoff {
  /** Failed attempts in a row. */
  readonly attempt: number;
  /** True once `attempt` exceeds `maxAttempts`: give up. */
  readonly exhausted: boolean;
  /** Records a failed attempt and returns the delay before the next one (a `retryAfterMs` floor applies, capped at `maxDelayMs`). */
  fail(retryAfterMs?: number): number;
  /** Records a success: the next failure waits the first delay again. */
  succeed(): void;
  /** The server's hint (SSE `retry:`): the base delay, raised to `minRetryMs`, honoured even above `maxDelayMs`. */
  setRetryHint(ms: number | undefined): void;
}

/**
 * Creates a {@link Backoff} over {@link computeBackoffDelay}.
 *
 * @param options - the policy (defaults: {@link RECONNECT_DEFAULTS}) and the jitter source
 *
 * @example
 * ```ts
 * const backoff = createBackoff({ initialDelayMs: 100, maxDelayMs: 5_000 });
 * await sleep(backoff.fail()); // 50–100 ms
 * await sleep(backoff.fail()); // 100–200 ms
 * backoff.succeed();
 * ```
 */
export function createBackoff(options: BackoffOptions = {}): Backoff {
  const policy = { ...RECONNECT_DEFAULTS, ...options };
  const random = options.random ?? Math.random;
  let attempt = 0;
  let hint: number | undefined;
  return {
    get attempt() {
      return attempt;
    },
    get exhausted() {
      return attempt > policy.maxAttempts;
    },
    fail(retryAfterMs) {
      attempt++;
      const base = hint === undefined ? undefined : Math.max(hint, policy.minRetryMs);
      let delay = computeBackoffDelay(attempt, {
        initialDelayMs: base ?? policy.initialDelayMs,
        maxDelayMs: Math.max(policy.maxDelayMs, base ?? 0),
        multiplier: policy.multiplier,
        random,
      });
      // A refusing server's `Retry-After` is a floor, within the delay cap.
      if (retryAfterMs !== undefined)
        delay = Math.max(delay, Math.min(retryAfterMs, policy.maxDelayMs));
      return delay;
    },
    succeed() {
      attempt = 0;
    },
    setRetryHint(ms) {
      hint = ms;
    },
  };
}

/** `Retry-After` in delta-seconds (the form servers send with 503 / 429), in milliseconds. */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed || !/^\d{1,9}$/.test(trimmed)) return undefined;
  return Number(trimmed) * 1000;
}
