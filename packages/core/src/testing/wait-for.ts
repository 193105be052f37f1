/**
 * Event-driven waiting for tests: resolves when a condition holds, re-checked on every event —
 * never a sleep. The test runner's timeout is the only clock.
 */
import type { A2uiClient, ClientEvent } from '../client/a2ui-client.js';

/**
 * Resolves once `condition()` is true, checking now and after every client event.
 * @param describe - what is awaited, for the error if the client closes first
 */
export function waitForClient(
  client: A2uiClient,
  condition: (event?: ClientEvent) => boolean,
  describe = 'condition',
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (condition()) {
      resolve();
      return;
    }
    const unsubscribe = client.subscribe((event) => {
      let done = false;
      try {
        done = condition(event);
      } catch (error) {
        unsubscribe();
        reject(error);
        return;
      }
      if (done) {
        unsubscribe();
        resolve();
      } else if (
        event.type === 'status' &&
        event.status === 'closed' &&
        client.status === 'closed'
      ) {
        // Re-check once more: closing may be what satisfied nothing.
        if (!condition()) {
          unsubscribe();
          reject(new Error(`The client closed while waiting for: ${describe}.`));
        }
      }
    });
  });
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
