/**
 * Time, made injectable so agents that push live updates stay deterministic under test.
 */

/** Runs callbacks later. Every method returns a function that cancels what it scheduled. */
export interface Scheduler {
  /** Calls `callback` every `intervalMs` milliseconds until cancelled. */
  every(intervalMs: number, callback: () => void): () => void;
  /** Resolves after `delayMs` milliseconds; rejects with the signal's reason when it aborts. */
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>;
}

/** The real-time scheduler (`setInterval` / `setTimeout`). */
export function createTimerScheduler(): Scheduler {
  return {
    every(intervalMs, callback) {
      const timer = setInterval(callback, intervalMs);
      // A demo timer must never keep the process alive on its own.
      timer.unref?.();
      return () => clearInterval(timer);
    },
    sleep(delayMs, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, delayMs);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

/** A scheduler whose clock only moves when a test calls {@link ManualScheduler.tick}. */
export interface ManualScheduler extends Scheduler {
  /** Fires every periodic callback once (one interval elapsed for all of them). */
  tick(): void;
  /** Number of periodic callbacks currently scheduled. */
  readonly activeIntervals: number;
}

/**
 * Creates a {@link ManualScheduler}: intervals fire on `tick()`, sleeps resolve at once, so tests
 * never wait on wall-clock time.
 */
export function createManualScheduler(): ManualScheduler {
  const intervals = new Set<() => void>();
  return {
    every(_intervalMs, callback) {
      const entry = () => callback();
      intervals.add(entry);
      return () => {
        intervals.delete(entry);
      };
    },
    async sleep(_delayMs, signal) {
      if (signal?.aborted) throw signal.reason;
    },
    tick() {
      for (const callback of [...intervals]) callback();
    },
    get activeIntervals() {
      return intervals.size;
    },
  };
}
