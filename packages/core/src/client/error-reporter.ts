/**
 * Rate-limits the errors a client reports to its agent, so a flood cannot saturate the link.
 * Each distinct error reaches it once: the processor de-duplicates every error, whoever raised it
 * (a message, a binding, the renderer), before anyone hears of it.
 */

/** Options of {@link ErrorReporter} (and the `errorReporting` option of `A2uiClient`). */
export interface ErrorReportingOptions {
  /** Send errors to the agent at all. @default true */
  enabled?: boolean;
  /** Most errors sent per window. @default 20 */
  maxErrors?: number;
  /** Window length in milliseconds. @default 60000 */
  intervalMs?: number;
  /**
   * Distinct errors remembered for de-duplication (oldest forgotten first): the processor's
   * `maxRememberedErrors`, which `A2uiClient` sets from it. @default 1000
   */
  maxRemembered?: number;
}

export const DEFAULT_ERROR_REPORTING: Required<ErrorReportingOptions> = {
  enabled: true,
  maxErrors: 20,
  intervalMs: 60_000,
  maxRemembered: 1000,
};

/** Decides whether an error may be sent now. */
export class ErrorReporter {
  readonly #options: Required<ErrorReportingOptions>;
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

  /** True when an error should be sent now (enabled, and under `maxErrors` per `intervalMs`). */
  admit(): boolean {
    if (!this.#options.enabled) return false;
    const now = this.#now();
    this.#sentTimes = this.#sentTimes.filter((time) => now - time < this.#options.intervalMs);
    if (this.#sentTimes.length >= this.#options.maxErrors) {
      this.#dropped++;
      return false;
    }
    this.#sentTimes.push(now);
    return true;
  }
}
