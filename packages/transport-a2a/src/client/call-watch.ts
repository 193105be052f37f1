/**
 * What `connectA2a` learns of each HTTP call the A2A SDK makes, and the deadlines it puts on
 * them. The SDK's client takes a `fetch` and a signal per call but reports neither the HTTP
 * status of a refusal nor `Retry-After`, and cannot tell a dead stream from a quiet one: the
 * `fetch` given to it here adds the headers and credentials of every request and records, for
 * the call whose signal it carries, its status, its retry hint and each chunk of its body, which
 * the call's deadlines watch.
 */
import { parseRetryAfter, resolveHeaders } from '@a2ui-ts/core/link';
import type { A2aClientOptions } from './a2a-client-options.js';

/** What the wrapped `fetch` saw of one call (its HTTP status, the server's retry hint). */
export interface CallRecord {
  status?: number;
  retryAfterMs?: number;
  /** Called for every chunk of the response body (the heartbeat watches streams with it). */
  onActivity?: () => void;
  /** Set when the heartbeat or the response deadline aborted the call: the link is dead, not closed. */
  expired?: string;
  /**
   * Called for the first chunk of the response body: the answer has begun (headers alone, from a
   * server that then says nothing, do not count).
   */
  onBody?: () => void;
}

/** One watched call: pass its `signal` to the SDK, read its `record`, `end()` it when done. */
export interface WatchedCall {
  readonly signal: AbortSignal;
  readonly record: CallRecord;
  /** Clears its timers and listeners. */
  end(): void;
}

/** The deadlines of one call, in milliseconds; each is off when undefined. */
export interface CallDeadlines {
  /** The whole call. */
  readonly timeoutMs?: number;
  /** Its response body begun (its first chunk). */
  readonly responseTimeoutMs?: number;
  /** Longest silence of its body (a byte, an event or a `: ping`, at least this often); 0 is off. */
  readonly heartbeatMs?: number;
}

/** The `fetch` of one transport and the calls it watches. */
export class CallWatch {
  readonly #records = new WeakMap<AbortSignal, CallRecord>();
  readonly #fetch: typeof fetch;
  readonly #options: Pick<A2aClientOptions, 'headers' | 'credentials'>;
  /** Aborts every call (the transport ended). */
  readonly #lifetime: () => AbortSignal;

  /**
   * @param options - `fetch`, `headers` and `credentials` of {@link A2aClientOptions}
   * @param lifetime - the signal that aborts every call (read when a call starts)
   */
  constructor(
    options: Pick<A2aClientOptions, 'fetch' | 'headers' | 'credentials'>,
    lifetime: () => AbortSignal,
  ) {
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#options = options;
    this.#lifetime = lifetime;
  }

  /** The `fetch` the SDK calls: headers, credentials, and the record of a watched call. */
  readonly fetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    (await resolveHeaders(this.#options.headers)).forEach((value, name) => {
      headers.set(name, value);
    });
    const response = await this.#fetch(input, {
      ...init,
      headers,
      credentials: this.#options.credentials,
    });
    const record = init?.signal ? this.#records.get(init.signal) : undefined;
    if (!record) return response;
    record.status = response.status;
    record.retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return watchBody(response, record);
  };

  /**
   * A call's signal (aborted by `parent`, the transport's end and the deadlines) and its record.
   */
  start(parent: AbortSignal | undefined, deadlines: CallDeadlines = {}): WatchedCall {
    const controller = new AbortController();
    const abort = () => controller.abort();
    const lifetime = this.#lifetime();
    const timer =
      deadlines.timeoutMs === undefined ? undefined : setTimeout(abort, deadlines.timeoutMs);
    parent?.addEventListener('abort', abort, { once: true });
    lifetime.addEventListener('abort', abort, { once: true });
    if (parent?.aborted || lifetime.aborted) abort();
    const record: CallRecord = {};
    this.#records.set(controller.signal, record);
    const unanswered = watchResponse(record, deadlines.responseTimeoutMs, abort);
    const watchdog = watchHeartbeat(record, deadlines.heartbeatMs, abort);
    return {
      signal: controller.signal,
      record,
      end() {
        clearTimeout(timer);
        unanswered?.clear();
        watchdog?.clear();
        parent?.removeEventListener('abort', abort);
        lifetime.removeEventListener('abort', abort);
      },
    };
  }
}

/** The response, its body passed through the record's watchers (when it has any). */
function watchBody(response: Response, record: CallRecord): Response {
  const { onActivity, onBody } = record;
  if ((!onActivity && !onBody) || !response.body) {
    onBody?.();
    return response;
  }
  onActivity?.();
  const watched = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onActivity?.();
        onBody?.();
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(watched, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** Aborts the call when its body has not begun within `timeoutMs`. */
function watchResponse(
  record: CallRecord,
  timeoutMs: number | undefined,
  abort: () => void,
): { clear(): void } | undefined {
  if (timeoutMs === undefined) return undefined;
  const timer = setTimeout(() => {
    record.expired = `No answer in ${timeoutMs} ms.`;
    abort();
  }, timeoutMs);
  record.onBody = () => clearTimeout(timer);
  return { clear: () => clearTimeout(timer) };
}

/** A stream that delivers no byte (no event, no `: ping`) for `heartbeatMs` is a dead link. */
function watchHeartbeat(
  record: CallRecord,
  heartbeatMs: number | undefined,
  abort: () => void,
): { clear(): void } | undefined {
  if (heartbeatMs === undefined || heartbeatMs <= 0) return undefined;
  let lastActivity = Date.now();
  record.onActivity = () => {
    lastActivity = Date.now();
  };
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const idle = Date.now() - lastActivity;
    if (idle < heartbeatMs) {
      watchdog = setTimeout(check, heartbeatMs - idle);
      return;
    }
    record.expired = `No data for ${heartbeatMs} ms (heartbeat timeout).`;
    abort();
  };
  watchdog = setTimeout(check, heartbeatMs);
  return { clear: () => clearTimeout(watchdog) };
}
