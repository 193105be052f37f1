/**
 * One execution at a time per task. The SDK gives a task one event bus, shared by every request
 * on it: a second message on a task whose first is still executing would publish its `task`
 * event into the first one's stream (which the SDK then fails: "Received task after …"), and
 * take the first one's updates for its own. The session host runs their turns one after the
 * other anyway, so a message on a task waits, before anything is published, for the execution
 * before it to have published its last update.
 */
import { A2uiError } from '@a2ui-ts/core';

/** Executions by task, each after the one before it (see the module comment). */
export class TaskQueue {
  /** Per task, when the last execution that entered is over. */
  readonly #tails = new Map<string, Promise<void>>();
  #waiting = 0;

  /** Messages waiting for an earlier one on their task. */
  get waiting(): number {
    return this.#waiting;
  }

  /**
   * Waits for the executions that entered `taskId` before; returns `leave`, to call once this
   * one published its last update (or will publish none). Idempotent.
   *
   * @throws A2uiError `CONNECTION_CLOSED` when `signal` aborts first (the queue goes on)
   */
  async enter(taskId: string, signal: AbortSignal | undefined): Promise<() => void> {
    const before = this.#tails.get(taskId);
    let leave!: () => void;
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    // Who comes next waits for this one and every one before it, even if this one gives up.
    const tail = before ? Promise.all([before, left]).then(() => undefined) : left;
    this.#tails.set(taskId, tail);
    void tail.then(() => {
      if (this.#tails.get(taskId) === tail) this.#tails.delete(taskId);
    });
    if (!before) return leave;
    this.#waiting++;
    try {
      await new Promise<void>((resolve, reject) => {
        const abort = () =>
          reject(
            new A2uiError(
              'CONNECTION_CLOSED',
              'The client left while its message waited for the task.',
            ),
          );
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort, { once: true });
        void before.then(() => {
          signal?.removeEventListener('abort', abort);
          resolve();
        });
      });
    } catch (error) {
      leave();
      throw error;
    } finally {
      this.#waiting--;
    }
    return leave;
  }
}
