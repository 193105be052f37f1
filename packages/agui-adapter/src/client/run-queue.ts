/**
 * The runs of `connectAgUi` go one at a time, as an `HttpAgent` runs one at a time. The queue
 * counts the runs under way and the runs wanted (any but a long poll's waiting run, which gives
 * way to them), and notes when the thread was last busy, for polling.
 */

/** One run at a time. */
export class RunQueue {
  #chain: Promise<unknown> = Promise.resolve();
  /** Runs under way (0 or 1). */
  running = 0;
  /** Runs other than a waiting run, queued or under way: a waiting run gives way to them. */
  wanted = 0;
  /** When the last run ended (or started, while one is under way), for polling. */
  lastActivity = Date.now();
  /** Called when a run other than a waiting run is queued (the waiting run under way must end). */
  readonly #onWanted: () => void;

  constructor(onWanted: () => void) {
    this.#onWanted = onWanted;
  }

  /** Runs `task` after the runs queued before it; `waitingRun`: a long poll's, which gives way. */
  exclusive<T>(task: () => Promise<T>, waitingRun = false): Promise<T> {
    if (!waitingRun) {
      this.wanted++;
      this.#onWanted();
    }
    const tracked = async () => {
      this.running++;
      try {
        return await task();
      } finally {
        this.running--;
        if (!waitingRun) this.wanted--;
        this.lastActivity = Date.now();
      }
    };
    const next = this.#chain.then(tracked, tracked);
    this.#chain = next.catch(() => {});
    return next;
  }

  /** Resolves once no run is queued or under way. */
  async idle(): Promise<void> {
    for (;;) {
      const current = this.#chain;
      await current;
      if (current === this.#chain) return;
    }
  }
}
