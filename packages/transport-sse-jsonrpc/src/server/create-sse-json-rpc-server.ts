/**
 * The server binding (ARCHITECTURE §4 "SSE + JSON-RPC"): a Web-standard Hono app serving
 * `GET {base}/sse` (server→client events, resumable) and `POST {base}/rpc` (JSON-RPC 2.0
 * client→server), built on core's transport-agnostic `ConnectionSession`.
 */
import {
  type A2uiAgent,
  A2uiError,
  type ConnectionRegistry,
  ConnectionSession,
  createConnectionId,
  createMemoryConnectionRegistry,
  createMemoryReplayLog,
  DEFAULT_REPLAY_LOG_LIMITS,
  isConnectionId,
  type OutgoingValidator,
  type ReplayLog,
  type ReplayLogLimits,
} from '@a2ui-ts/core';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { RPC_ERRORS, type RpcErrorName, toRpcError } from '../protocol/json-rpc-errors.js';
import {
  type ConnectedEventData,
  RPC_PATH,
  SSE_EVENTS,
  SSE_PATH,
  SSE_QUERY,
} from '../protocol/wire.js';
import { readBodyText } from './read-body-text.js';
import { errorResponse, handleRpcPayload } from './rpc-handler.js';
import { formatSseEvent, SseLink, type SseLinkEnd } from './sse-link.js';

/** CORS settings: the options of Hono's `cors()` middleware. */
export type SseJsonRpcCorsOptions = NonNullable<Parameters<typeof cors>[0]>;

/** Options of {@link createSseJsonRpcServer}. Durations in milliseconds, sizes in bytes. */
export interface SseJsonRpcServerOptions {
  /** The agent that handles every connection. */
  agent: A2uiAgent;
  /**
   * Authenticates every request (`GET /sse`, `POST /rpc`, preflights excepted) and returns its
   * principal, which a new connection is bound to; later requests on that connection must return
   * the same principal ({@link isSamePrincipal}). Return `undefined`, `null` or `false`, or throw
   * `A2uiError('UNAUTHORIZED')`, to refuse with 401; throw `A2uiError('FORBIDDEN')` for 403.
   * @default none: every request is accepted and connections have no principal
   */
  authenticate?: (request: Request) => unknown | Promise<unknown>;
  /**
   * Whether the principal of a request owns a connection bound to `bound`.
   * @default `Object.is`, or equal `JSON.stringify` output for objects
   */
  isSamePrincipal?: (bound: unknown, current: unknown) => boolean;
  /**
   * Groups connections by principal for {@link maxSessionsPerPrincipal}: two principals with the
   * same key count against one budget. Keep it consistent with {@link isSamePrincipal}.
   * @default equal JSON (the default `isSamePrincipal`); a principal JSON cannot encode is its own key
   */
  principalKey?: (principal: unknown) => unknown;
  /**
   * Most live connections (attached or waiting in their grace period). A new one beyond it first
   * evicts the oldest connection without a link (agent: `onDisconnect('grace-expired')`); when
   * every connection has a link, `GET /sse` is refused with 503 and `Retry-After`. Resumes of live
   * connections are never refused.
   * @default 10000
   */
  maxSessions?: number;
  /**
   * Most live connections of one principal (by {@link principalKey}), with the same eviction as
   * {@link maxSessions}. Only applies with {@link authenticate}: without it there are no
   * principals, and only `maxSessions` bounds the total.
   * @default 100
   */
  maxSessionsPerPrincipal?: number;
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
  /** Replay buffer of each connection, for resume. @default `{ maxEvents: 1000, maxBytes: 4194304 }` */
  replayBuffer?: ReplayLogLimits;
  /** Creates the replay log of a new connection (the scale-out seam). @default a memory log sized by `replayBuffer` */
  createReplayLog?: (connectionId: string) => ReplayLog;
  /** Where live connections are found by id (the scale-out seam). @default a new memory registry */
  registry?: ConnectionRegistry;
  /** How long a dropped link may take to resume before the agent's `onDisconnect` runs. @default 30000 */
  reconnectGraceMs?: number;
  /** Largest `POST /rpc` body; larger ones get HTTP 413. @default 1048576 */
  maxRequestBytes?: number;
  /** Most requests in one JSON-RPC batch. @default 100 */
  maxBatchLength?: number;
  /** Largest outgoing A2UI message (UTF-8); `connection.send` throws `MESSAGE_TOO_LARGE` above it. @default 1048576 */
  maxMessageBytes?: number;
  /**
   * Bytes written to one link that its client has not read yet. Above it the link is dropped (the
   * TCP connection destroyed); the client resumes from the replay buffer, or gets a `reset` when
   * the gap is no longer buffered. Bounds what a client that stops reading costs the server.
   * @default 4194304
   */
  maxBufferedBytes?: number;
  /** Client request ids remembered per connection to drop retried duplicates. @default 1000 */
  maxRememberedRequests?: number;
  /**
   * Cross-origin access. Without it no CORS headers are sent (same-origin clients only).
   * `Authorization`, `Content-Type` and `Last-Event-ID` must be allowed for the fetch client.
   * @default undefined
   */
  cors?: SseJsonRpcCorsOptions;
  /** Extra validation of outgoing messages (e.g. against a catalog validator). @default none */
  validateOutgoing?: OutgoingValidator;
  /** Receives errors thrown by agent hooks. @default console.error */
  onAgentError?: (error: unknown, session: ConnectionSession) => void;
}

/** Counters for monitoring and leak tests. */
export interface SseJsonRpcServerStats {
  /** Connections in the registry. */
  sessions: number;
  /** Open event streams. */
  links: number;
  /** Unsent bytes over all links. */
  bufferedBytes: number;
  /** Connections whose link dropped and whose grace timer runs. */
  graceTimers: number;
  /** Whether the shared keep-alive timer runs (only while links are open). */
  keepAliveTimer: boolean;
  /** Links dropped because their client read too slowly. */
  droppedSlowLinks: number;
  /** Most unsent bytes one link held since the server started. */
  peakLinkBufferedBytes: number;
  /** Connections without a link closed early to make room for a new one (`maxSessions`, `maxSessionsPerPrincipal`). */
  evictedSessions: number;
  /** `GET /sse` refused with 503 because a session cap was reached and nothing could be evicted. */
  refusedSessions: number;
}

/** The Hono app returned by {@link createSseJsonRpcServer}, with its registry and lifecycle. */
export type SseJsonRpcServer = Hono & {
  /** Live connections. */
  readonly registry: ConnectionRegistry;
  stats(): SseJsonRpcServerStats;
  /**
   * Closes every connection (clients get a `close` event; agents see `server-closed`), stops the
   * timers, and answers later `GET /sse` with 503.
   */
  close(): Promise<void>;
};

/** Defaults of {@link SseJsonRpcServerOptions}, in one place. */
export const SSE_JSON_RPC_SERVER_DEFAULTS = {
  basePath: '',
  keepAliveIntervalMs: 15_000,
  retryMs: 1_000,
  replayBuffer: DEFAULT_REPLAY_LOG_LIMITS,
  reconnectGraceMs: 30_000,
  maxRequestBytes: 1_048_576,
  maxBatchLength: 100,
  maxMessageBytes: 1_048_576,
  maxBufferedBytes: 4_194_304,
  maxRememberedRequests: 1_000,
  maxSessions: 10_000,
  maxSessionsPerPrincipal: 100,
} as const;

/** `Retry-After` (seconds) of the 503 sent when a session cap is reached. */
export const SESSION_LIMIT_RETRY_AFTER_SECONDS = 5;

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

/** Outcome of `authenticate`. */
type AuthResult =
  | { ok: true; principal: unknown }
  | { ok: false; status: 401 | 403 | 500; message: string };

/**
 * The default {@link SseJsonRpcServerOptions.isSamePrincipal}: `Object.is`, or, for two objects,
 * equal `JSON.stringify` output (so `{ user: 'ada' }` from two requests matches).
 *
 * @param bound - the principal the connection was created with
 * @param current - the principal of the request at hand
 * @returns whether `current` owns the connection
 *
 * @example
 * ```ts
 * defaultIsSamePrincipal({ user: 'ada' }, { user: 'ada' }); // true
 * defaultIsSamePrincipal('ada', 'bob'); // false
 * ```
 */
export function defaultIsSamePrincipal(bound: unknown, current: unknown): boolean {
  if (Object.is(bound, current)) return true;
  if (
    typeof bound !== 'object' ||
    typeof current !== 'object' ||
    bound === null ||
    current === null
  )
    return false;
  try {
    return JSON.stringify(bound) === JSON.stringify(current);
  } catch {
    return false;
  }
}

/**
 * The default {@link SseJsonRpcServerOptions.principalKey}, consistent with
 * {@link defaultIsSamePrincipal}: the principal itself for primitives, its JSON for objects (the
 * object itself when JSON cannot encode it).
 *
 * @param principal - what `authenticate` returned
 * @returns the key sessions are counted under for `maxSessionsPerPrincipal`
 *
 * @example
 * ```ts
 * defaultPrincipalKey({ user: 'ada' }) === defaultPrincipalKey({ user: 'ada' }); // true
 * ```
 */
export function defaultPrincipalKey(principal: unknown): unknown {
  if (typeof principal !== 'object' || principal === null) return principal;
  try {
    return `json:${JSON.stringify(principal)}`;
  } catch {
    return principal;
  }
}

/**
 * Creates the SSE + JSON-RPC server: a Hono app with `GET /sse` and `POST /rpc` (under
 * `basePath`), mountable in any Hono app and servable by any Web-standard runtime
 * (`app.fetch(request)`); on Node use `serveSseJsonRpc` from `@a2ui-ts/transport-sse-jsonrpc/node`.
 *
 * @param options - the agent, limits and hooks; see {@link SseJsonRpcServerOptions}
 * @returns the app, with `registry`, `stats()` and `close()`
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
  const agent = options.agent;
  const registry = options.registry ?? createMemoryConnectionRegistry();
  const isSamePrincipal = options.isSamePrincipal ?? defaultIsSamePrincipal;
  const keepAliveIntervalMs = options.keepAliveIntervalMs ?? defaults.keepAliveIntervalMs;
  const retryMs = options.retryMs ?? defaults.retryMs;
  const replayBuffer = options.replayBuffer ?? defaults.replayBuffer;
  const createReplayLog = options.createReplayLog ?? (() => createMemoryReplayLog(replayBuffer));
  const reconnectGraceMs = options.reconnectGraceMs ?? defaults.reconnectGraceMs;
  const maxRequestBytes = options.maxRequestBytes ?? defaults.maxRequestBytes;
  const maxBatchLength = options.maxBatchLength ?? defaults.maxBatchLength;
  const maxMessageBytes = options.maxMessageBytes ?? defaults.maxMessageBytes;
  const maxBufferedBytes = options.maxBufferedBytes ?? defaults.maxBufferedBytes;
  const maxRememberedRequests = options.maxRememberedRequests ?? defaults.maxRememberedRequests;
  const maxSessions = Math.max(1, options.maxSessions ?? defaults.maxSessions);
  const maxSessionsPerPrincipal = Math.max(
    1,
    options.maxSessionsPerPrincipal ?? defaults.maxSessionsPerPrincipal,
  );
  const principalKey = options.principalKey ?? defaultPrincipalKey;
  const perPrincipal = options.authenticate !== undefined;

  const links = new Set<SseLink>();
  let keepAliveTimer: ReturnType<typeof setInterval> | undefined;
  let droppedSlowLinks = 0;
  let peakLinkBufferedBytes = 0;
  let shuttingDown = false;
  let evictedSessions = 0;
  let refusedSessions = 0;

  // Live sessions of this server, oldest first (Sets keep insertion order), in total and by
  // principal key: what `maxSessions` and `maxSessionsPerPrincipal` count. A session leaves them
  // the moment it closes (its signal aborts), before the agent's `onDisconnect` has run.
  const liveSessions = new Set<ConnectionSession>();
  const sessionsByPrincipal = new Map<unknown, Set<ConnectionSession>>();

  const track = (session: ConnectionSession, key: unknown): void => {
    liveSessions.add(session);
    const group = sessionsByPrincipal.get(key) ?? new Set<ConnectionSession>();
    sessionsByPrincipal.set(key, group);
    group.add(session);
    session.signal.addEventListener(
      'abort',
      () => {
        liveSessions.delete(session);
        group.delete(session);
        if (group.size === 0 && sessionsByPrincipal.get(key) === group)
          sessionsByPrincipal.delete(key);
      },
      { once: true },
    );
  };

  /** The oldest session of `sessions` without a link (waiting in its grace period), if any. */
  const oldestDetached = (
    sessions: Iterable<ConnectionSession>,
    except?: ConnectionSession,
  ): ConnectionSession | undefined => {
    for (const session of sessions)
      if (session !== except && !session.attached && !session.closed) return session;
    return undefined;
  };

  /**
   * Makes room for one more session of `principal` under both caps, evicting the oldest sessions
   * without a link if needed. Returns false, having evicted nothing, when that is not enough.
   */
  const admitSession = (principal: unknown): { ok: true; key: unknown } | { ok: false } => {
    const key = perPrincipal ? principalKey(principal) : undefined;
    const victims: ConnectionSession[] = [];
    if (perPrincipal && (sessionsByPrincipal.get(key)?.size ?? 0) >= maxSessionsPerPrincipal) {
      const victim = oldestDetached(sessionsByPrincipal.get(key)!);
      if (!victim) return { ok: false };
      victims.push(victim);
    }
    if (liveSessions.size - victims.length >= maxSessions) {
      const victim = oldestDetached(liveSessions, victims[0]);
      if (!victim) return { ok: false };
      victims.push(victim);
    }
    for (const victim of victims) {
      evictedSessions++;
      // Forgotten at once, so the registry stays within the cap while `onDisconnect` runs.
      if (registry.get(victim.id) === victim) registry.delete(victim.id);
      victim.close('grace-expired');
    }
    return { ok: true, key };
  };

  const updateKeepAlive = (): void => {
    if (links.size > 0 && keepAliveTimer === undefined) {
      // One timer for all links, so an idle server holds no timer at all.
      keepAliveTimer = setInterval(() => {
        for (const link of links) link.tick();
      }, keepAliveIntervalMs);
    } else if (links.size === 0 && keepAliveTimer !== undefined) {
      clearInterval(keepAliveTimer);
      keepAliveTimer = undefined;
    }
  };

  const onLinkEnd = (link: SseLink, end: SseLinkEnd): void => {
    links.delete(link);
    if (link.peakBufferedBytes > peakLinkBufferedBytes)
      peakLinkBufferedBytes = link.peakBufferedBytes;
    if (end === 'overflow') droppedSlowLinks++;
    // The session outlives its link: it buffers and waits `reconnectGraceMs` for a resume.
    if (end !== 'closed') link.session?.detach(link);
    updateKeepAlive();
  };

  const startSession = (link: SseLink, principal: unknown, key: unknown): ConnectionSession => {
    const id = createConnectionId();
    const session = new ConnectionSession({
      agent,
      id,
      principal,
      replayLog: createReplayLog(id),
      reconnectGraceMs,
      maxMessageBytes,
      maxRememberedRequests,
      validateOutgoing: options.validateOutgoing,
      onAgentError: options.onAgentError,
      onClosed: (closed) => {
        if (registry.get(closed.id) === closed) registry.delete(closed.id);
      },
    });
    registry.set(session);
    track(session, key);
    link.session = session;
    link.write(connectedEvent({ connectionId: id, resumed: false, replayed: 0 }, retryMs));
    session.attach(link);
    void session.start();
    return session;
  };

  const authenticate = async (request: Request): Promise<AuthResult> => {
    if (!options.authenticate) return { ok: true, principal: undefined };
    try {
      const principal = await options.authenticate(request);
      if (principal === undefined || principal === null || principal === false) {
        return { ok: false, status: 401, message: 'Authentication is required.' };
      }
      return { ok: true, principal };
    } catch (error) {
      if (
        A2uiError.isInstance(error) &&
        (error.code === 'UNAUTHORIZED' || error.code === 'FORBIDDEN')
      ) {
        return {
          ok: false,
          status: error.code === 'FORBIDDEN' ? 403 : 401,
          message: error.message,
        };
      }
      console.error('[a2ui] authenticate() failed:', error);
      return { ok: false, status: 500, message: 'Authentication failed with an internal error.' };
    }
  };

  const app =
    (options.basePath ?? defaults.basePath) ? new Hono().basePath(options.basePath!) : new Hono();
  if (options.cors) app.use('*', cors(options.cors));

  app.get(SSE_PATH, async (c) => {
    // Hono routes HEAD here too: answer it without opening a connection nobody will read.
    if (c.req.method === 'HEAD') return c.body(null, 200, { 'Content-Type': 'text/event-stream' });
    // After close(), clients are told to come back later (a 5xx is retried) instead of getting a
    // session that dies with the process.
    if (shuttingDown) return httpError(c, 503, 'CONNECTION_CLOSED', 'The server is shutting down.');
    const auth = await authenticate(c.req.raw);
    if (!auth.ok)
      return httpError(
        c,
        auth.status,
        auth.status === 403 ? 'FORBIDDEN' : auth.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL_ERROR',
        auth.message,
      );
    const connectionId = c.req.query(SSE_QUERY.connectionId);
    const lastEventId = c.req.header('last-event-id') ?? c.req.query(SSE_QUERY.lastEventId);
    if (connectionId !== undefined && !isConnectionId(connectionId)) {
      return httpError(
        c,
        400,
        'VALIDATION_FAILED',
        `${SSE_QUERY.connectionId} is not a connection id.`,
      );
    }
    if (lastEventId !== undefined && lastEventId !== '' && !/^\d{1,15}$/.test(lastEventId)) {
      return httpError(
        c,
        400,
        'VALIDATION_FAILED',
        'Last-Event-ID must be a non-negative integer.',
      );
    }
    const existing = connectionId === undefined ? undefined : registry.get(connectionId);
    if (existing && !existing.closed && !isSamePrincipal(existing.principal, auth.principal)) {
      return httpError(c, 403, 'FORBIDDEN', 'The connection belongs to another principal.');
    }

    // A new session (no connection id, or one the server no longer knows) must fit under the
    // caps; this is decided before anything is created. Resuming a live one is never refused.
    let admittedKey: unknown;
    if (!existing || existing.closed) {
      const admitted = admitSession(auth.principal);
      if (!admitted.ok) {
        refusedSessions++;
        return httpError(c, 503, 'LIMIT_EXCEEDED', 'Too many open connections; retry later.', {
          'Retry-After': String(SESSION_LIMIT_RETRY_AFTER_SECONDS),
        });
      }
      admittedKey = admitted.key;
    }

    const socket = (c.env as NodeBindings | undefined)?.incoming?.socket;
    const link = new SseLink({
      maxBufferedBytes,
      destroyConnection: socket ? () => socket.destroy() : undefined,
      onEnd: onLinkEnd,
    });
    links.add(link);
    updateKeepAlive();
    c.req.raw.signal.addEventListener('abort', () => link.abort(), { once: true });

    if (connectionId === undefined) {
      startSession(link, auth.principal, admittedKey);
    } else if (existing && !existing.closed) {
      const lastSeq = lastEventId ? Number(lastEventId) : 0;
      link.cork();
      // A client claiming events that were never sent cannot be resumed.
      const attached =
        lastSeq <= existing.lastSeq ? existing.attach(link, { lastSeq }) : { ok: false as const };
      if (attached.ok) {
        link.session = existing;
        link.prepend(
          connectedEvent(
            { connectionId: existing.id, resumed: true, replayed: attached.replayed },
            retryMs,
          ),
        );
        link.uncork();
      } else {
        link.uncork();
        // The replacement takes the place of the session it closes: no cap is crossed.
        existing.close('reset');
        link.write(formatSseEvent(SSE_EVENTS.reset, JSON.stringify({ reason: 'replay-gap' })));
        startSession(link, auth.principal, perPrincipal ? principalKey(auth.principal) : undefined);
      }
    } else {
      link.write(
        formatSseEvent(SSE_EVENTS.reset, JSON.stringify({ reason: 'unknown-connection' })),
      );
      startSession(link, auth.principal, admittedKey);
    }
    return c.body(link.stream, 200, SSE_HEADERS);
  });

  app.post(RPC_PATH, async (c) => {
    const contentType = c.req.header('content-type') ?? '';
    // Requiring JSON also forces a CORS preflight, so cross-site forms cannot post actions.
    if (!/^application\/json\s*(;|$)/i.test(contentType)) {
      return rpcHttpError(c, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    }
    const auth = await authenticate(c.req.raw);
    if (!auth.ok) {
      if (auth.status === 500) return rpcHttpError(c, 'INTERNAL_ERROR', auth.message, 500);
      return rpcHttpError(
        c,
        auth.status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED',
        auth.message,
        auth.status,
      );
    }
    const body = await readBodyText(c.req.raw, maxRequestBytes);
    if (!body.ok) {
      if (body.reason === 'too-large') {
        return rpcHttpError(
          c,
          'REQUEST_TOO_LARGE',
          `the body is larger than ${maxRequestBytes} bytes`,
          undefined,
          { maxRequestBytes },
        );
      }
      return c.json(errorResponse(null, 'PARSE_ERROR', 'the body is not valid UTF-8'));
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.text);
    } catch (error) {
      return c.json(
        errorResponse(null, 'PARSE_ERROR', error instanceof Error ? error.message : undefined),
      );
    }
    const response = handleRpcPayload(payload, auth.principal, {
      registry,
      isSamePrincipal,
      maxBatchLength,
    });
    if (response === undefined) return c.body(null, 204);
    return c.json(response);
  });

  app.all(SSE_PATH, (c) => methodNotAllowed(c, 'GET'));
  app.all(RPC_PATH, (c) => methodNotAllowed(c, 'POST'));

  return Object.assign(app, {
    registry,
    stats(): SseJsonRpcServerStats {
      let bufferedBytes = 0;
      let peak = peakLinkBufferedBytes;
      for (const link of links) {
        bufferedBytes += link.bufferedBytes;
        if (link.peakBufferedBytes > peak) peak = link.peakBufferedBytes;
      }
      let graceTimers = 0;
      for (const session of registry.values()) if (session.pendingGrace) graceTimers++;
      return {
        sessions: registry.size,
        links: links.size,
        bufferedBytes,
        graceTimers,
        keepAliveTimer: keepAliveTimer !== undefined,
        droppedSlowLinks,
        peakLinkBufferedBytes: peak,
        evictedSessions,
        refusedSessions,
      };
    },
    async close(): Promise<void> {
      shuttingDown = true;
      for (const session of [...registry.values()]) session.close('server-closed');
      for (const link of [...links]) link.close('server-closed');
      updateKeepAlive();
    },
  });
}

function connectedEvent(data: ConnectedEventData, retryMs: number): string {
  return `retry: ${retryMs}\n${formatSseEvent(SSE_EVENTS.connected, JSON.stringify(data))}`;
}

/** A plain JSON error for the event stream route, whose clients are not JSON-RPC clients. */
function httpError(
  c: Context,
  status: 400 | 401 | 403 | 500 | 503,
  code: string,
  message: string,
  headers?: Record<string, string>,
): Response {
  return c.json({ error: { code, message } }, status, headers);
}

function rpcHttpError(
  c: Context,
  name: RpcErrorName,
  detail: string,
  status?: number,
  data?: unknown,
): Response {
  const httpStatus = (status ?? RPC_ERRORS[name].httpStatus) as 200 | 401 | 403 | 413 | 415 | 500;
  return c.json(
    { jsonrpc: '2.0', id: null, error: toRpcError(name, { detail, data }) },
    httpStatus,
  );
}

function methodNotAllowed(c: Context, allow: string): Response {
  return c.json({ error: { code: 'METHOD_NOT_ALLOWED', message: `Use ${allow}.` } }, 405, {
    Allow: allow,
  });
}
