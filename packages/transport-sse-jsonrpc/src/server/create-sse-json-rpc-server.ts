/**
 * The server binding (ARCHITECTURE §4 "SSE + JSON-RPC"): a Web-standard Hono app serving
 * `GET {base}/sse` (server→client events, resumable) and `POST {base}/rpc` (JSON-RPC 2.0
 * client→server). It holds only the routes, the SSE link and the JSON-RPC codec; every session
 * rule — principals, caps, grace, validation, idempotency, bounds — is core's `SessionHost`.
 */
import { A2uiError, isConnectionId, isRecord, type WireNegotiation } from '@a2ui-ts/core';
import {
  type BindingSessionHostOptions,
  createBindingSessionHost,
  DEFAULT_BODY_TIMEOUT_MS,
  type JsonRequestRefusal,
  LinkSet,
  readJsonRequest,
  readOfferedVersions,
  SESSION_HOST_DEFAULTS,
  type SessionHost,
  type SessionHostStats,
  toHttpError,
} from '@a2ui-ts/core/host';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import {
  isLosslessNumber,
  parse as parseLossless,
  stringify as stringifyLossless,
} from 'lossless-json';
import { rpcErrorNameOfRefusal, toRpcError } from '../protocol/json-rpc-errors.js';
import { RPC_PATH, SSE_PATH, SSE_QUERY } from '../protocol/wire.js';
import { handleRpcPayload } from './rpc-handler.js';
import { SseLink, type SseLinkEnd } from './sse-link.js';

export { defaultIsSamePrincipal, defaultPrincipalKey } from '@a2ui-ts/core/host';

/** CORS settings: the options of Hono's `cors()` middleware. */
export type SseJsonRpcCorsOptions = NonNullable<Parameters<typeof cors>[0]>;

/**
 * Options of {@link createSseJsonRpcServer}: the session host's (agent, `authenticate`, caps,
 * grace, stores, bounds — see `SessionHostOptions` in `@a2ui-ts/core`) and the binding's own.
 * Durations in milliseconds, sizes in bytes.
 */
export interface SseJsonRpcServerOptions extends BindingSessionHostOptions {
  /**
   * Prefix of both routes when the app is served on its own. To mount under a path of another
   * app, leave it empty and use `parent.route('/a2ui', app)`.
   * @default ''
   */
  basePath?: string;
  /** Interval of the `: ping` comment sent on a link that was otherwise idle. @default 15000 */
  keepAliveIntervalMs?: number;
  /** The `retry:` hint: how long a client waits before reconnecting. @default 1000 */
  retryMs?: number;
  /** Largest `POST /rpc` body; larger ones get HTTP 413. @default 1048576 */
  maxRequestBytes?: number;
  /** Deadline for reading one `POST /rpc` body; a slower one gets HTTP 408. @default 10000 */
  bodyTimeoutMs?: number;
  /** Most requests in one JSON-RPC batch. @default 100 */
  maxBatchLength?: number;
  /**
   * How long `POST /rpc` may wait for the agent's turn on its last message, so that the answer
   * names the turn (`result.turn`) and the client settles `send` once the turn's messages are
   * applied. A longer turn is answered at this deadline without it; 0 answers at once.
   * @default 5000
   */
  turnWaitMs?: number;
  /**
   * Bytes written to one link that its client has not read yet. Above it the link is dropped (the
   * TCP connection destroyed); the client resumes from the replay buffer, or gets a `reset` when
   * the gap is no longer buffered. Bounds what a client that stops reading costs the server.
   * @default 4194304
   */
  maxBufferedBytes?: number;
  /**
   * Cross-origin access. Without it no CORS headers are sent (same-origin clients only).
   * `Authorization`, `Content-Type` and `Last-Event-ID` must be allowed for the fetch client.
   * @default undefined
   */
  cors?: SseJsonRpcCorsOptions;
}

/** Counters for monitoring and leak tests: the session host's, and the links'. */
export interface SseJsonRpcServerStats extends SessionHostStats {
  /** Open event streams (of this node's connections and of followed ones). */
  links: number;
  /** Unsent bytes over all links. */
  bufferedBytes: number;
  /** Whether the shared keep-alive timer runs (only while links are open). */
  keepAliveTimer: boolean;
  /** Links dropped because their client read too slowly. */
  droppedSlowLinks: number;
  /** Most unsent bytes one link held since the server started. */
  peakLinkBufferedBytes: number;
}

/** The Hono app returned by {@link createSseJsonRpcServer}, with its host and lifecycle. */
export type SseJsonRpcServer = Hono & {
  /** The session host behind the routes. */
  readonly host: SessionHost;
  /** Records of live connections (the host's registry). */
  readonly registry: SessionHost['registry'];
  stats(): SseJsonRpcServerStats;
  /**
   * Closes every connection (clients get a `close` event with `retryAfterMs`; agents see
   * `server-closed`) and stops the timers. From its call on, a `GET /sse` is answered with that
   * same end (`retry:`, `event: close` with `retryAfterMs`), and a `POST /rpc` request for a
   * connection the server no longer has with `CONNECTION_NOT_FOUND` carrying
   * `{connectionId, reason: "server-closed", retryAfterMs}` (HTTP 503 with `Retry-After` when every
   * request of the call is refused so); `a2ui.disconnect` with `{closed: true}`.
   */
  close(): Promise<void>;
};

/** Defaults of {@link SseJsonRpcServerOptions}, in one place. */
export const SSE_JSON_RPC_SERVER_DEFAULTS = {
  ...SESSION_HOST_DEFAULTS,
  basePath: '',
  keepAliveIntervalMs: 15_000,
  retryMs: 1_000,
  maxRequestBytes: 1_048_576,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  maxBatchLength: 100,
  turnWaitMs: 5_000,
  maxBufferedBytes: 4_194_304,
} as const;

/** `Retry-After` (seconds) of the 503 sent when a session cap is reached. */
export const SESSION_LIMIT_RETRY_AFTER_SECONDS =
  SESSION_HOST_DEFAULTS.sessionLimitRetryAfterMs / 1000;

/** Response headers of the event stream. */
const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  // Reverse proxies (nginx) must not buffer the stream.
  'X-Accel-Buffering': 'no',
  // Streams at once on Node (the adapter otherwise probes the body for a Content-Length first).
  'Transfer-Encoding': 'chunked',
};

/** The Node adapter's bindings, when the app runs under `@hono/node-server`. */
interface NodeBindings {
  incoming?: { socket?: { destroy(): void } };
}

/**
 * Creates the SSE + JSON-RPC server: a Hono app with `GET /sse` and `POST /rpc` (under
 * `basePath`), mountable in any Hono app and servable by any Web-standard runtime
 * (`app.fetch(request)`); on Node use `serveSseJsonRpc` from `@a2ui-ts/transport-sse-jsonrpc/node`.
 *
 * @param options - the agent, limits and hooks; see {@link SseJsonRpcServerOptions}
 * @returns the app, with `host`, `registry`, `stats()` and `close()`
 *
 * @example
 * ```ts
 * const a2ui = createSseJsonRpcServer({
 *   agent: { onConnect: (connection) => connection.send(messages) },
 *   authenticate: (request) => request.headers.get('authorization') ?? undefined,
 * });
 * const app = new Hono().route('/a2ui', a2ui); // GET /a2ui/sse, POST /a2ui/rpc
 * ```
 */
export function createSseJsonRpcServer(options: SseJsonRpcServerOptions): SseJsonRpcServer {
  const defaults = SSE_JSON_RPC_SERVER_DEFAULTS;
  const keepAliveIntervalMs = options.keepAliveIntervalMs ?? defaults.keepAliveIntervalMs;
  const retryMs = options.retryMs ?? defaults.retryMs;
  const maxRequestBytes = options.maxRequestBytes ?? defaults.maxRequestBytes;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? defaults.bodyTimeoutMs;
  const maxBatchLength = options.maxBatchLength ?? defaults.maxBatchLength;
  const turnWaitMs = options.turnWaitMs ?? defaults.turnWaitMs;
  const maxBufferedBytes = options.maxBufferedBytes ?? defaults.maxBufferedBytes;
  const host = createBindingSessionHost(options);
  const bodyLimits = { maxBytes: maxRequestBytes, timeoutMs: bodyTimeoutMs, host };
  const reportError = (error: unknown): void => {
    if (options.onAgentError) options.onAgentError(error, undefined);
    else console.error('[a2ui] SSE + JSON-RPC server error:', error);
  };

  // One keep-alive timer for all links, so an idle server holds no timer at all.
  const links = new LinkSet<SseLink>(keepAliveIntervalMs);
  let droppedSlowLinks = 0;
  let closing = false;

  const onLinkEnd = (link: SseLink, end: SseLinkEnd): void => {
    links.delete(link);
    if (end === 'overflow') droppedSlowLinks++;
    // The connection outlives its link: it logs and waits out its grace period for a resume.
    if (end !== 'closed') link.hostLink?.detach();
  };

  const app =
    (options.basePath ?? defaults.basePath) ? new Hono().basePath(options.basePath!) : new Hono();
  if (options.cors) app.use('*', cors(options.cors));

  app.get(SSE_PATH, async (c) => {
    // Hono routes HEAD here too: answer it without opening a connection nobody will read.
    if (c.req.method === 'HEAD') return c.body(null, 200, { 'Content-Type': 'text/event-stream' });
    const auth = await host.authenticate(c.req.raw);
    if (!auth.ok) return httpError(c, auth.error);
    const connectionId = c.req.query(SSE_QUERY.connectionId);
    const lastEventId = c.req.header('last-event-id') ?? c.req.query(SSE_QUERY.lastEventId);
    if (connectionId !== undefined && !isConnectionId(connectionId))
      return httpError(c, badRequest(`${SSE_QUERY.connectionId} is not a connection id.`));
    if (lastEventId !== undefined && lastEventId !== '' && !/^\d{1,15}$/.test(lastEventId))
      return httpError(c, badRequest('Last-Event-ID must be a non-negative integer.'));
    // The offer (`?a2uiVersions=` or `A2UI-Versions`); sharing none is a 406 before any connection.
    let negotiated: WireNegotiation | undefined;
    try {
      negotiated = host.negotiate(readOfferedVersions(c.req.raw));
    } catch (error) {
      return httpError(c, error);
    }
    const socket = (c.env as NodeBindings | undefined)?.incoming?.socket;
    const link = new SseLink({
      maxBufferedBytes,
      retryMs,
      shuttingDown: () => closing,
      destroyConnection: socket ? () => socket.destroy() : undefined,
      onEnd: onLinkEnd,
      a2uiVersion: negotiated?.version,
    });
    // During the shutdown the stream is its graceful end: `retry:`, and `close` with the hint.
    const shutdownAnswer = () => {
      link.close('server-closed');
      return c.body(link.stream, 200, SSE_HEADERS);
    };
    if (closing) return shutdownAnswer();
    try {
      link.hostLink = await host.connect({
        principal: auth.principal,
        connectionId,
        lastSeq: lastEventId ? Number(lastEventId) : 0,
        sink: link,
        protocolVersions: negotiated?.versions,
      });
    } catch (error) {
      if (closing && A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')
        return shutdownAnswer();
      return httpError(c, error);
    }
    link.uncork();
    if (link.ended) {
      // The client left while the connection was being opened.
      link.hostLink.detach();
    } else {
      links.add(link);
      c.req.raw.signal.addEventListener('abort', () => link.abort(), { once: true });
    }
    return c.body(link.stream, 200, SSE_HEADERS);
  });

  app.post(RPC_PATH, async (c) => {
    const read = await readJsonRequest(c.req.raw, { ...bodyLimits, signal: c.req.raw.signal });
    if (!read.ok) return rpcRefusal(c, read.refusal);
    const { payload, principal } = read;
    // Ids are compared (and echoed) by their exact text; a number id may not survive a double.
    const lossless = hasNumericId(payload) ? keepNumericIdsExact(payload, read.text) : false;
    const result = await handleRpcPayload(payload, principal, {
      host,
      maxBatchLength,
      bodyBytes: read.bytes,
      idText: (request) => idText(request.id),
      turnWaitMs,
      limits: options,
      onError: reportError,
      shutdownRetryAfterMs: () => (closing ? retryMs : undefined),
    });
    if (result.body === undefined) return c.body(null, 204);
    const retryAfterMs = result.busyRetryAfterMs ?? result.shutdownRetryAfterMs;
    const status = retryAfterMs === undefined ? 200 : 503;
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (retryAfterMs !== undefined)
      headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    const text = lossless ? stringifyLossless(result.body)! : JSON.stringify(result.body);
    return c.body(text, status, headers);
  });

  app.all(SSE_PATH, (c) => methodNotAllowed(c, 'GET'));
  app.all(RPC_PATH, (c) => methodNotAllowed(c, 'POST'));

  return Object.assign(app, {
    host,
    registry: host.registry,
    stats(): SseJsonRpcServerStats {
      const { bufferedBytes, peakLinkBufferedBytes } = links.bufferStats();
      return {
        ...host.stats(),
        links: links.size,
        bufferedBytes,
        keepAliveTimer: links.ticking,
        droppedSlowLinks,
        peakLinkBufferedBytes,
      };
    },
    async close(): Promise<void> {
      closing = true;
      await host.close();
      for (const link of links) link.close('server-closed');
    },
  });
}

const badRequest = (message: string) => ({ code: 'VALIDATION_FAILED', message, status: 400 });

/** A plain JSON error for the event stream route, whose clients are not JSON-RPC clients. */
function httpError(
  c: Context,
  error: unknown | { code: string; message: string; status: number },
): Response {
  if (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    !(error instanceof Error)
  ) {
    const plain = error as { code: string; message: string; status: number };
    return c.json({ error: { code: plain.code, message: plain.message } }, plain.status as 400);
  }
  const refusal = toHttpError(error);
  return c.json(refusal.body, refusal.status as 400, refusal.headers);
}

/** A request core's `readJsonRequest` refused, as a JSON-RPC error with the table's status. */
function rpcRefusal(c: Context, refusal: JsonRequestRefusal): Response {
  const data = Object.keys(refusal.details).length > 0 ? refusal.details : undefined;
  const error = toRpcError(rpcErrorNameOfRefusal(refusal.code), { detail: refusal.message, data });
  return c.json({ jsonrpc: '2.0', id: null, error }, refusal.status as 200, refusal.headers);
}

function methodNotAllowed(c: Context, allow: string): Response {
  return c.json({ error: { code: 'METHOD_NOT_ALLOWED', message: `Use ${allow}.` } }, 405, {
    Allow: allow,
  });
}

function hasNumericId(payload: unknown): boolean {
  const requests = Array.isArray(payload) ? payload : [payload];
  return requests.some((request) => isRecord(request) && typeof request.id === 'number');
}

/**
 * Replaces each numeric request id by its exact text (a lossless number), read from a second,
 * lossless parse of the body. Only calls with a numeric id pay for it. A body too deep for that
 * parser keeps the ids as numbers (its requests are refused for their depth anyway).
 */
function keepNumericIdsExact(payload: unknown, text: string): boolean {
  let exact: unknown;
  try {
    exact = parseLossless(text);
  } catch {
    return false;
  }
  const requests = Array.isArray(payload) ? payload : [payload];
  const exactRequests = Array.isArray(exact) ? exact : [exact];
  requests.forEach((request, index) => {
    const twin = exactRequests[index];
    if (isRecord(request) && typeof request.id === 'number' && isRecord(twin)) request.id = twin.id;
  });
  return true;
}

/** The exact JSON text of a request id (the idempotency key), or `undefined` without one. */
function idText(id: unknown): string | undefined {
  if (id === undefined) return undefined;
  if (isLosslessNumber(id)) return id.value;
  return JSON.stringify(id);
}
