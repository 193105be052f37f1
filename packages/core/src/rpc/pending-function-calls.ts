/**
 * The caller's side of v1.0 function calls: calls waiting for their response, keyed by
 * `functionCallId`, each with a deadline and an `AbortSignal`. Used by the renderer
 * (`callAgentFunction`) and the agent (`callRendererFunction`) alike.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { type FunctionResponse, functionCallFailure } from './function-call-messages.js';

/** Options of one call. */
export interface FunctionCallOptions {
  /** Longest wait for the response, in milliseconds. @default 30000 */
  timeoutMs?: number;
  /** Stops waiting (the peer may still run the function; its late answer is dropped). */
  signal?: AbortSignal;
  /**
   * The `functionCallId` to send (replays, tests that script the peer's answer); must not be
   * waiting already. @default a fresh id, unique among this side's calls
   */
  functionCallId?: string;
}

/** Default of {@link FunctionCallOptions.timeoutMs}. */
export const DEFAULT_FUNCTION_CALL_TIMEOUT_MS = 30_000;

interface Pending {
  readonly name: string;
  settle(response: FunctionResponse): void;
  fail(error: A2uiError): void;
}

/**
 * Calls waiting for their response.
 *
 * @example
 * ```ts
 * const calls = new PendingFunctionCalls();
 * const result = calls.start('c1', 'verifyProvider', { timeoutMs: 5000 });
 * calls.settle({ functionCallId: 'c1', value: { valid: true } }); // result resolves
 * ```
 */
export class PendingFunctionCalls {
  readonly #pending = new Map<string, Pending>();
  #counter = 0;

  /** A fresh `functionCallId`, unique among this object's calls: `<prefix>-<n>`. */
  nextId(prefix: string): string {
    return `${prefix}-${++this.#counter}`;
  }

  /** How many calls are waiting. */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Registers call `functionCallId` and waits for its response.
   *
   * @returns The response's `value`.
   * @throws A2uiError `FUNCTION_CALL_FAILED` (an error response), `TIMEOUT` (no response within
   *   `timeoutMs`), `ABORTED` (`signal`), `INTERNAL_ERROR` (the id is already waiting), or the
   *   error given to {@link failAll}
   */
  start(functionCallId: string, name: string, options: FunctionCallOptions = {}): Promise<unknown> {
    if (this.#pending.has(functionCallId))
      return Promise.reject(
        new A2uiError('INTERNAL_ERROR', `Function call "${functionCallId}" is already waiting.`),
      );
    const { signal } = options;
    if (signal?.aborted)
      return Promise.reject(new A2uiError('ABORTED', `The call of "${name}" was aborted.`));
    const timeoutMs = options.timeoutMs ?? DEFAULT_FUNCTION_CALL_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#pending.delete(functionCallId);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(new A2uiError('ABORTED', `The call of "${name}" was aborted.`));
      };
      const timer = setTimeout(
        () => {
          done();
          reject(
            new A2uiError(
              'TIMEOUT',
              `Function "${name}" did not answer within ${timeoutMs} ms (timeoutMs).`,
              { data: { functionCallId } },
            ),
          );
        },
        Math.max(0, timeoutMs),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(functionCallId, {
        name,
        settle: (response) => {
          done();
          if ('error' in response)
            reject(functionCallFailure(functionCallId, name, response.error));
          else resolve(response.value);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
    });
  }

  /**
   * Delivers a response to the call it names.
   * @returns `false` when no call with that id is waiting (late, duplicate or unknown answers are dropped)
   */
  settle(response: FunctionResponse): boolean {
    const pending = this.#pending.get(response.functionCallId);
    if (!pending) return false;
    pending.settle(response);
    return true;
  }

  /**
   * Rejects call `functionCallId` with `error` (its request could not be sent).
   * @returns `false` when no such call is waiting
   */
  fail(functionCallId: string, error: A2uiError): boolean {
    const pending = this.#pending.get(functionCallId);
    if (!pending) return false;
    pending.fail(error);
    return true;
  }

  /** Rejects every waiting call with `error` (the connection closed or was reset). */
  failAll(error: A2uiError): void {
    for (const pending of [...this.#pending.values()]) pending.fail(error);
  }
}
