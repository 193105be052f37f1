/**
 * A waiting run's hold (AG-UI has no push between runs): a run that asked to wait
 * (`forwardedProps.a2uiWait`) stays open after its turns, so what the agent sends meanwhile streams
 * out as it is sent instead of waiting for the client's next run. The hold ends when the client
 * wants the thread for another run (any request of the thread, `a2uiRelease` among them), after
 * `maxMs`, or when the run stops (the client went away, the thread closed).
 */

/** One run's hold; `release()` may come before `wait()` (a release that overtook the turns). */
export class RunHold {
  readonly #maxMs: number;
  #released = false;
  #wake: (() => void) | undefined;

  constructor(maxMs: number) {
    this.#maxMs = maxMs;
  }

  get released(): boolean {
    return this.#released;
  }

  /** Ends the hold now, or before it starts. */
  release(): void {
    this.#released = true;
    this.#wake?.();
  }

  /** Resolves when the hold ends: released, `maxMs` elapsed or `signal` aborted. */
  async wait(signal: AbortSignal): Promise<void> {
    if (this.#released || signal.aborted || this.#maxMs <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => this.release();
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
      timer = setTimeout(() => this.release(), this.#maxMs);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    this.#wake = undefined;
  }
}

/** The holds of a node's threads: a new request of a thread releases the hold of its waiting run. */
export class RunHolds {
  readonly #holds = new Map<string, RunHold>();

  /** Registers `hold` as `threadId`'s; returns the function that forgets it. */
  add(threadId: string, hold: RunHold): () => void {
    this.#holds.get(threadId)?.release();
    this.#holds.set(threadId, hold);
    return () => {
      if (this.#holds.get(threadId) === hold) this.#holds.delete(threadId);
    };
  }

  /** Releases `threadId`'s waiting run, if one holds. */
  release(threadId: string): void {
    this.#holds.get(threadId)?.release();
  }
}
