/**
 * Batches change notifications so a batch of messages reaches subscribers once (spec §1: "renderer
 * SHOULD NOT repaint until the whole batch is processed").
 */
export type Listener = () => void;

/** Collects listeners while a batch is open and calls each one once when the outermost batch ends. */
export class Notifier {
  #depth = 0;
  #epoch = 0;
  #pending = new Set<Listener>();

  /** True while a batch is open: nobody is notified, so nobody has seen its intermediate states. */
  get batching(): boolean {
    return this.#depth > 0;
  }

  /** Identifies the open batch (changes with every outermost batch). */
  get epoch(): number {
    return this.#epoch;
  }

  /** Runs `fn` with notifications deferred; nested batches flush with the outermost one. */
  batch<T>(fn: () => T): T {
    if (this.#depth === 0) this.#epoch++;
    this.#depth++;
    try {
      return fn();
    } finally {
      this.#depth--;
      if (this.#depth === 0) this.#flush();
    }
  }

  /** Queues `listener` (called once per batch however often it is queued). */
  notify(listener: Listener): void {
    if (this.#depth > 0) this.#pending.add(listener);
    else listener();
  }

  /** Queues every listener of `listeners`. */
  notifyAll(listeners: Iterable<Listener>): void {
    if (this.#depth > 0) for (const listener of listeners) this.#pending.add(listener);
    else for (const listener of [...listeners]) listener();
  }

  #flush(): void {
    // Listeners may open batches of their own; drain until quiet.
    while (this.#pending.size > 0) {
      const listeners = [...this.#pending];
      this.#pending.clear();
      for (const listener of listeners) {
        try {
          listener();
        } catch (error) {
          // One broken subscriber must not stop the others; surface it asynchronously.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    }
  }
}
