/**
 * De-duplicates and rate-limits the errors a client reports to its agent, so a broken binding
 * re-evaluated on every keystroke is reported once, and a flood cannot saturate the link.
 */
import type { ClientError } from '../protocol/messages.js';

/** Options of {@link ErrorReporter}. */
export interface ErrorReportingOptions {
  /** Send errors to the agent at all. @default true */
  enabled?: boolean;
  /** Most errors sent per window. @default 20 */
  maxErrors?: number;
  /** Window length in milliseconds. @default 60000 */
  intervalMs?: number;
  /** Distinct errors remembered for de-duplication (oldest forgotten first). @default 1000 */
  maxRemembered?: number;
}

export const DEFAULT_ERROR_REPORTING: Required<ErrorReportingOptions> = {
  enabled: true,
  maxErrors: 20,
  intervalMs: 60_000,
  maxRemembered: 1000,
};

/** Decides which errors are worth sending. */
export class ErrorReporter {
  readonly #options: Required<ErrorReportingOptions>;
  readonly #seen = new Set<string>();
  #sentTimes: number[] = [];
  #dropped = 0;
  readonly #now: () => number;

  constructor(options: ErrorReportingOptions = {}, now: () => number = Date.now) {
    this.#options = { ...DEFAULT_ERROR_REPORTING, ...options };
    this.#now = now;
  }

  /** Errors suppressed by the rate limit so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** True when `error` should be sent now; records it either way. */
  admit(error: ClientError): boolean {
    if (!this.#options.enabled) return false;
    const key = `${error.code}\u0000${error.surfaceId ?? ''}\u0000${String(error.path ?? '')}\u0000${error.message}`;
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    if (this.#seen.size > this.#options.maxRemembered) {
      this.#seen.delete(this.#seen.values().next().value!);
    }
    const now = this.#now();
    this.#sentTimes = this.#sentTimes.filter((time) => now - time < this.#options.intervalMs);
    if (this.#sentTimes.length >= this.#options.maxErrors) {
      this.#dropped++;
      return false;
    }
    this.#sentTimes.push(now);
    return true;
  }

  /** Forgets what was seen (after a reset, the same errors are news again). */
  clear(): void {
    this.#seen.clear();
  }
}
