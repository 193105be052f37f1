/**
 * Event-driven waiting for tests: resolves when a condition holds, re-checked on every event —
 * never a sleep. The test runner's timeout is the only clock.
 */
import type { A2uiClient } from '../client/a2ui-client.js';

/**
 * Resolves once `condition()` is true, checking now and after every client event
 * ({@link A2uiClient.until}); if the link ends first, the error names what was awaited.
 * @param describe - what is awaited, for the error if the client closes first
 */
export async function waitForClient(
  client: A2uiClient,
  condition: () => boolean,
  describe = 'condition',
): Promise<void> {
  try {
    await client.until(condition);
  } catch (error) {
    throw new Error(`Stopped waiting for ${describe}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** A promise with its resolve function exposed: signal from agent hooks, await in the test. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function createDeferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A condition to wait for, re-checked whenever the owner says something changed. */
export interface ChangeNotifier {
  /** Something changed: re-check every waiting condition. */
  notify(): void;
  /** Resolves once `condition()` holds (checked now and after every `notify`). */
  until(condition: () => boolean): Promise<void>;
}

/**
 * Creates a {@link ChangeNotifier}: record events in a test double, call `notify()`, and await
 * `until(() => events.length === 3)` — event-driven, never a sleep.
 */
export function createChangeNotifier(): ChangeNotifier {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of [...listeners]) listener();
    },
    until(condition) {
      return new Promise<void>((resolve) => {
        const check = () => {
          if (condition()) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}
