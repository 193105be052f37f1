/**
 * The `fetch` a run goes through (`connectAgUi` uses it for every run): it makes a cut or stalled
 * response an ordinary end of the run, which the caller catches up, instead of a process-ending
 * error.
 *
 * - `@ag-ui/client` cancels the response body when a run ends and re-throws any rejection of
 *   that cancel other than an `AbortError` from inside a `.catch` — an unhandled rejection
 *   (`TypeError: terminated` when the connection was cut), which exits a Node process. The body
 *   handed to it here never rejects a cancel, and fails a read only with a {@link RunCutError}
 *   (named `AbortError`, which that code lets through).
 * - A response that sends no byte for `idleTimeoutMs` (no event, no keep-alive comment) is
 *   stalled: the request is aborted and the body fails with a {@link RunCutError}, so the run
 *   ends and is caught up over a fresh connection.
 */

/** Options of {@link guardRunFetch}. */
export interface GuardRunFetchOptions {
  /**
   * Longest silence (no byte, before or after the response headers) before the request is
   * aborted as stalled, in milliseconds. Keep it above the server's keep-alive interval. 0 never
   * aborts.
   */
  readonly idleTimeoutMs: number;
}

/**
 * The response of a run was cut (the connection broke, or it stalled): what the run received
 * stands, what it did not is caught up. Named `AbortError` because that is the one failure
 * `@ag-ui/client` neither logs nor re-throws from its teardown.
 */
export class RunCutError extends Error {
  override readonly name = 'AbortError';
  /** Marks a guard's error across duplicate installs (`@ag-ui/client` passes it as `rawEvent`). */
  readonly runCut = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  static isInstance(value: unknown): value is RunCutError {
    return (
      typeof value === 'object' && value !== null && (value as { runCut?: unknown }).runCut === true
    );
  }
}

/**
 * Wraps `base` for runs: see the module comment.
 *
 * @param base - the `fetch` to call
 * @param options - {@link GuardRunFetchOptions}
 * @returns a `fetch` whose response bodies never reject a cancel and fail only with
 *   {@link RunCutError}
 *
 * @example
 * ```ts
 * const agent = new HttpAgent({ url, fetch: guardRunFetch(fetch, { idleTimeoutMs: 45_000 }) });
 * ```
 */
export function guardRunFetch(base: typeof fetch, options: GuardRunFetchOptions): typeof fetch {
  const { idleTimeoutMs } = options;
  return async (input, init) => {
    const controller = new AbortController();
    const signal = init?.signal
      ? AbortSignal.any([init.signal, controller.signal])
      : controller.signal;
    const stall = () =>
      controller.abort(new RunCutError(`The run sent nothing for ${idleTimeoutMs} ms.`));
    let timer = idleTimeoutMs > 0 ? setTimeout(stall, idleTimeoutMs) : undefined;
    let response: Response;
    try {
      response = await base(input, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
    const body = response.body;
    if (!body) return response;
    const reader = body.getReader();
    const guarded = new ReadableStream<Uint8Array>({
      async pull(stream) {
        if (idleTimeoutMs > 0) timer = setTimeout(stall, idleTimeoutMs);
        try {
          const { done, value } = await reader.read();
          if (controller.signal.aborted) throw controller.signal.reason;
          if (done) stream.close();
          else stream.enqueue(value);
        } catch (error) {
          stream.error(
            RunCutError.isInstance(error)
              ? error
              : new RunCutError('The run’s response was cut.', { cause: error }),
          );
          reader.cancel().catch(() => {});
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason).catch(() => {});
      },
    });
    return new Response(guarded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
