/**
 * The server binding (ARCHITECTURE §4 "REST"): a Web-standard Hono app answering each client
 * request with the agent's turn — `POST {base}/connect`, `/action`, `/error` — plus a long poll
 * (`GET {base}/messages`) for what the agent pushes between turns, and `POST {base}/disconnect`.
 * It holds only the routes and the JSON codec; every session rule — principals, caps, grace,
 * validation, idempotency, turns, reads, acknowledgements, bounds — is core's `SessionHost`.
 */
import {
  A2uiError,
  type DisconnectReason,
  fromClientMessageParts,
  isConnectionId,
} from '@a2ui-ts/core';
import {
  type BindingSessionHostOptions,
  type ClosedConnection,
  checkRequestFingerprint,
  createBindingSessionHost,
  DEFAULT_BODY_TIMEOUT_MS,
  defaultIsSamePrincipal,
  ExpiringMap,
  type HostPollResult,
  HttpRefusal,
  INBOUND_DEFAULTS,
  type OpenResult,
  type ReadResult,
  type ReplayEntry,
  readJsonRequest,
  readOfferedVersions,
  SESSION_HOST_DEFAULTS,
  type SessionHost,
  type SessionHostStats,
  shutdownRefusal,
  type TurnResult,
  toHttpError,
} from '@a2ui-ts/core/host';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { IDEMPOTENCY_KEY_HEADER, REST_PATHS, REST_QUERY } from '../protocol/wire.js';
import { fingerprintOf } from './body-fingerprint.js';

export { defaultIsSamePrincipal, defaultPrincipalKey } from '@a2ui-ts/core/host';

/** The routes that carry one client message, by the message key their body holds. */
type ClientMessageRoute = 'action' | 'error' | 'callAgentFunction' | 'rendererFunctionResponse';

/** CORS settings: the options of Hono's `cors()` middleware. */
export type RestCorsOptions = NonNullable<Parameters<typeof cors>[0]>;

/**
 * Options of {@link createRestServer}: the session host's (agent, `authenticate`, caps, grace,
 * stores, bounds — see `SessionHostOptions` in `@a2ui-ts/core`) and the binding's own.
 * Durations in milliseconds, sizes in bytes.
 */
export interface RestServerOptions extends BindingSessionHostOptions {
  /**
   * Prefix of every route when the app is served on its own. To mount under a path of another
   * app, leave it empty and use `parent.route('/a2ui', app)`.
   * @default ''
   */
  basePath?: string;
  /**
   * Longest wait for the agent's turn before `connect`, `action` or `error` is answered with what
   * it sent so far and `"more": true` (the rest arrives by long poll). The turn goes on.
   * @default 25000
   */
  turnTimeoutMs?: number;
  /** Longest `waitMs` of a long poll; a larger one is lowered to it. @default 30000 */
  maxPollWaitMs?: number;
  /** Most messages in one poll answer; beyond it the answer says `"more": true`. @default 1000 */
  maxPollMessages?: number;
  /** Largest request body; larger ones get HTTP 413 `MESSAGE_TOO_LARGE`. @default 1048576 */
  maxRequestBytes?: number;
  /** Deadline for reading one request body; a slower one gets HTTP 408 `TIMEOUT`. @default 10000 */
  bodyTimeoutMs?: number;
  /**
   * How long a connection the agent closed (`server-closed`) is remembered with the messages its
   * client has not acknowledged, so that its next answer still carries them and says `closed`
   * (the host's closed-connection memory; `maxClosedConnections` bounds it, default 1000).
   * @default 30000
   */
  closedConnectionTtlMs?: number;
  /**
   * The retry hint of a shutdown: answers that say `closed` because `close()` was called carry
   * `retryAfterMs`, and clients come back after it (to the restarted server) instead of stopping.
   * @default 1000
   */
  restartRetryAfterMs?: number;
  /**
   * Most `Idempotency-Key`s of `POST {base}/connect` remembered on this node (each for
   * `reconnectGraceMs`), so that a retried connect returns the connection it opened.
   * @default 10000
   */
  maxRememberedConnects?: number;
  /**
   * Cross-origin access. Without it no CORS headers are sent (same-origin clients only). The
   * client sends `Content-Type`, `Idempotency-Key` (and your `Authorization`); `Retry-After` is
   * exposed unless `exposeHeaders` says otherwise.
   * @default undefined
   */
  cors?: RestCorsOptions;
}

/** Counters for monitoring and leak tests: the session host's, and the binding's. */
export interface RestServerStats extends SessionHostStats {
  /** Long polls in progress on this node. */
  polls: number;
  /** Requests being answered (turns awaited, bodies read, polls). */
  requests: number;
  /** Closed connections remembered for their clients' last answer. */
  closedConnections: number;
  /** `Idempotency-Key`s of connects remembered. */
  rememberedConnects: number;
}

/** The Hono app returned by {@link createRestServer}, with its host and lifecycle. */
export type RestServer = Hono & {
  /** The session host behind the routes. */
  readonly host: SessionHost;
  /** Records of live connections (the host's registry). */
  readonly registry: SessionHost['registry'];
  stats(): RestServerStats;
  /**
   * Closes every connection (agents see `server-closed`; waiting polls answer `closed` with
   * `retryAfterMs`, so their clients come back to the restarted server and start over) and waits
   * for the requests in progress. From its call on, a poll of a connection it no longer knows is
   * answered `closed` with `retryAfterMs` too; a `connect`, or an `action`/`error` not handed to
   * the agent, gets 503 `CONNECTION_CLOSED` with `Retry-After`, `reason: "server-closed"` and
   * `retryAfterMs`; a `disconnect`, `{"closed": true}`.
   */
  close(): Promise<void>;
};

/** Defaults of {@link RestServerOptions}, in one place. */
export const REST_SERVER_DEFAULTS = {
  ...SESSION_HOST_DEFAULTS,
  basePath: '',
  turnTimeoutMs: 25_000,
  maxPollWaitMs: 30_000,
  maxPollMessages: 1_000,
  maxRequestBytes: 1_048_576,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  closedConnectionTtlMs: 30_000,
  restartRetryAfterMs: 1_000,
  maxClosedConnections: 1_000,
  maxRememberedConnects: 10_000,
} as const;

/** Headers of every answer: JSON that no cache may keep (a poll's answer changes). */
const ANSWER_HEADERS: Record<string, string> = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
};

/** What one answer carries, before it is encoded. */
interface Batch {
  entries: readonly ReplayEntry[];
  seq: number;
  more: boolean;
  closed?: DisconnectReason;
  retryAfterMs?: number;
  reset?: 'replay-gap';
  superseded?: true;
}

/** A connect remembered by its idempotency key. */
interface RememberedConnect {
  principal: unknown;
  opening: Promise<OpenResult>;
  /** Of its body (see `fingerprintOf`). */
  fingerprint: string;
}

const invalid = (message: string, path: string) =>
  new A2uiError('VALIDATION_FAILED', message, { path });

/**
 * Creates the REST server: a Hono app with `POST /connect`, `POST /action`, `POST /error`,
 * `GET /messages` and `POST /disconnect` (under `basePath`), mountable in any Hono app and
 * servable by any Web-standard runtime (`app.fetch(request)`); on Node serve it with
 * `@hono/node-server`.
 *
 * @param options - the agent, limits and hooks; see {@link RestServerOptions}
 * @returns the app, with `host`, `registry`, `stats()` and `close()`
 *
 * @example
 * ```ts
 * const a2ui = createRestServer({
 *   agent: { onConnect: (connection) => connection.send(messages) },
 *   authenticate: (request) => request.headers.get('authorization') ?? undefined,
 * });
 * const app = new Hono().route('/a2ui', a2ui); // POST /a2ui/connect, GET /a2ui/messages, …
 * ```
 */
export function createRestServer(options: RestServerOptions): RestServer {
  const defaults = REST_SERVER_DEFAULTS;
  const turnTimeoutMs = options.turnTimeoutMs ?? defaults.turnTimeoutMs;
  const maxPollWaitMs = options.maxPollWaitMs ?? defaults.maxPollWaitMs;
  const maxPollMessages = Math.max(1, options.maxPollMessages ?? defaults.maxPollMessages);
  const maxRequestBytes = options.maxRequestBytes ?? defaults.maxRequestBytes;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? defaults.bodyTimeoutMs;
  const isSamePrincipal = options.isSamePrincipal ?? defaultIsSamePrincipal;
  const connects = new ExpiringMap<string, RememberedConnect>({
    ttlMs: options.reconnectGraceMs ?? defaults.reconnectGraceMs,
    maxSize: options.maxRememberedConnects ?? defaults.maxRememberedConnects,
  });
  const host: SessionHost = createBindingSessionHost({
    ...options,
    closedConnectionTtlMs: options.closedConnectionTtlMs ?? defaults.closedConnectionTtlMs,
  });
  const inFlight = new Set<Promise<unknown>>();
  const restartRetryAfterMs = options.restartRetryAfterMs ?? defaults.restartRetryAfterMs;

  // ---- Reading requests -------------------------------------------------------------------------

  const bodyLimits = { maxBytes: maxRequestBytes, timeoutMs: bodyTimeoutMs, host };
  /** Authenticates and reads the JSON object body of a POST. */
  const readPost = async (
    c: Context,
  ): Promise<{ principal: unknown; body: Record<string, unknown>; bytes: number }> => {
    // No `signal`: a client that leaves ends the body anyway, and a signal costs every request.
    const read = await readJsonRequest(c.req.raw, bodyLimits);
    if (!read.ok) throw read.refusal;
    const { principal, payload: body } = read;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw invalid('The body must be a JSON object.', '');
    return { principal, body: body as Record<string, unknown>, bytes: read.bytes };
  };

  const authenticate = async (c: Context): Promise<unknown> => {
    const auth = await host.authenticate(c.req.raw);
    if (!auth.ok) throw auth.error;
    return auth.principal;
  };

  const connectionIdOf = (value: unknown, path: string): string => {
    if (value === undefined) throw invalid(`${path.slice(1)} is required.`, path);
    if (!isConnectionId(value))
      throw invalid(`${path.slice(1)} must be a connection id (22 base64url characters).`, path);
    return value;
  };

  const maxRequestIdLength = options.maxRequestIdLength ?? INBOUND_DEFAULTS.maxRequestIdLength;
  /** The idempotency key: the header, or `requestId` in the body (both must then agree). */
  const requestIdOf = (c: Context, body: Record<string, unknown>): string | undefined => {
    const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
    // A structured-field string (`"…"`) and the bare token are the same key.
    const fromHeader = header === undefined ? undefined : header.replace(/^"(.*)"$/, '$1');
    const fromBody = body.requestId;
    if (fromBody !== undefined && typeof fromBody !== 'string')
      throw invalid('requestId must be a string.', '/requestId');
    if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody)
      throw invalid(`requestId differs from the ${IDEMPOTENCY_KEY_HEADER} header.`, '/requestId');
    const key = fromHeader ?? fromBody;
    if (key === '') throw invalid('An idempotency key must not be empty.', '/requestId');
    // The host checks this for client messages; a connect's key is remembered here, not there.
    if (key !== undefined && key.length > maxRequestIdLength)
      throw invalid(
        `A request id has at most ${maxRequestIdLength} characters (this one has ${key.length}).`,
        '/requestId',
      );
    return key;
  };

  // ---- Building answers ------------------------------------------------------------------------

  /** The entries of a closed connection after `afterSeq`, through `throughSeq`. */
  const closedBatch = (closed: ClosedConnection, afterSeq: number, throughSeq = Infinity) => {
    const entries = closed.entries.filter(
      (entry) => entry.seq > afterSeq && entry.seq <= throughSeq,
    );
    return {
      entries,
      seq: entries.at(-1)?.seq ?? Math.min(closed.lastSeq, throughSeq),
      more: false,
      closed: closed.reason,
      // Closed by the shutdown, not by the agent: the client comes back, to the next server.
      ...(closed.shutdown ? { retryAfterMs: restartRetryAfterMs } : {}),
    } satisfies Batch;
  };

  /**
   * What a request about `connectionId` gets once the connection is gone: the closed connection's
   * last messages after `afterSeq` (through `throughSeq`); while the server shuts down, an unknown
   * one is answered `closed` with the retry hint too, as the waiting polls were (the client comes
   * back to the restarted server, which resets it). `undefined`: unknown, and no shutdown.
   */
  const goneBatch = async (
    connectionId: string,
    principal: unknown,
    afterSeq: number,
    throughSeq?: number,
  ): Promise<Batch | undefined> => {
    const closed = await host.closedConnection(connectionId, { principal });
    if (closed) return closedBatch(closed, afterSeq, throughSeq);
    if (!host.closing) return undefined;
    return {
      entries: [],
      seq: afterSeq,
      more: false,
      closed: 'server-closed',
      retryAfterMs: restartRetryAfterMs,
    };
  };

  /**
   * The answer to a turn: its messages `(startSeq, endSeq]`. Without a turn (the wait timed out),
   * what was sent after `lowerBound` so far, with `more`. When some of them were acknowledged
   * meanwhile (a concurrent poll trimmed them), only `seq` is sent: the client has them, or its
   * poll brings the rest. `undefined` when the connection is gone.
   */
  const turnBatch = async (
    connectionId: string,
    principal: unknown,
    turn: TurnResult | undefined,
    lowerBound: number,
  ): Promise<Batch | undefined> => {
    const afterSeq = turn ? turn.startSeq : lowerBound;
    let read: ReadResult;
    try {
      read = await host.read(connectionId, {
        principal,
        afterSeq,
        limit: turn ? turn.endSeq - turn.startSeq : maxPollMessages,
      });
    } catch (error) {
      if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
      return goneBatch(connectionId, principal, afterSeq, turn?.endSeq);
    }
    if (turn) {
      const entries = read.ok ? read.entries.filter((entry) => entry.seq <= turn.endSeq) : [];
      return { entries, seq: turn.endSeq, more: false };
    }
    const entries = read.ok ? read.entries : [];
    return { entries, seq: entries.at(-1)?.seq ?? lowerBound, more: true };
  };

  /** Encodes an answer; messages are the log's JSON text, never serialised twice. */
  const encode = (batch: Batch, connectionId?: string, a2uiVersion?: string): string => {
    let text =
      connectionId === undefined ? '{' : `{"connectionId":${JSON.stringify(connectionId)},`;
    if (a2uiVersion !== undefined) text += `"a2uiVersion":${JSON.stringify(a2uiVersion)},`;
    text += `"messages":[${batch.entries.map((entry) => entry.data).join(',')}],"seq":${batch.seq},"more":${batch.more}`;
    if (batch.closed !== undefined) text += `,"closed":${JSON.stringify(batch.closed)}`;
    if (batch.retryAfterMs !== undefined) text += `,"retryAfterMs":${batch.retryAfterMs}`;
    if (batch.reset !== undefined) text += `,"reset":${JSON.stringify(batch.reset)}`;
    if (batch.superseded) text += ',"superseded":true';
    return `${text}}`;
  };

  /**
   * `waiting`'s value, or `undefined` once `turnTimeoutMs` passed (the turn goes on). A timer and
   * a race: cheaper per request than an `AbortSignal`.
   */
  const withinTurnTimeout = async <T>(waiting: Promise<T>): Promise<T | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), turnTimeoutMs);
    });
    try {
      return await Promise.race([waiting, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };

  /** Runs `work` with an abort signal that fires after `turnTimeoutMs`. */
  const withTurnTimeout = async <T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), turnTimeoutMs);
    try {
      return await work(timeout.signal);
    } finally {
      clearTimeout(timer);
    }
  };

  /** `seq` of the connection before a request: no message of the request's turn is at or below it. */
  const currentSeq = async (connectionId: string): Promise<number> => {
    const local = host.session(connectionId);
    if (local) return local.lastSeq;
    return (await host.registry.get(connectionId))?.lastSeq ?? 0;
  };

  // ---- Routes ----------------------------------------------------------------------------------

  const connect = async (c: Context): Promise<Response> => {
    const { principal, body } = await readPost(c);
    if (host.closing) throw shutdownRefusal(restartRetryAfterMs);
    const requestId = requestIdOf(c, body);
    // The offer (`?a2uiVersions=` or `A2UI-Versions`); sharing none is a 406 before any connection.
    const negotiated = host.negotiate(readOfferedVersions(c.req.raw));
    const fingerprint = await fingerprintOf('connect', body);
    const remembered = requestId === undefined ? undefined : connects.get(requestId);
    if (remembered && isSamePrincipal(remembered.principal, principal)) {
      checkRequestFingerprint(remembered.fingerprint, fingerprint);
      // A retried connect: the connection it opened, with its first turn, if it still lives.
      const opened = await remembered.opening.catch(() => undefined);
      if (opened) {
        const batch = await turnBatch(opened.connectionId, principal, opened.turn, 0);
        if (batch) return answer(c, encode(batch, opened.connectionId, negotiated?.version));
      }
      connects.delete(requestId!);
    }
    if (body.replaces !== undefined)
      await endReplaced(connectionIdOf(body.replaces, '/replaces'), principal);
    return withTurnTimeout(async (signal) => {
      const opening = host.open({
        principal,
        awaitTurn: true,
        signal,
        protocolVersions: negotiated?.versions,
      });
      if (requestId !== undefined && !remembered)
        connects.set(requestId, { principal, opening, fingerprint });
      let opened: OpenResult;
      try {
        opened = await opening;
      } catch (error) {
        if (requestId !== undefined) connects.delete(requestId);
        throw error;
      }
      // Its key is forgotten with the connection: a retry after that is a new connect.
      if (requestId !== undefined && !remembered)
        host.session(opened.connectionId)?.signal.addEventListener(
          'abort',
          () => {
            if (connects.get(requestId)?.opening === opening) connects.delete(requestId);
          },
          { once: true },
        );
      const batch = await turnBatch(opened.connectionId, principal, opened.turn, 0);
      if (!batch)
        throw new A2uiError('CONNECTION_CLOSED', 'The connection ended as it opened.', {
          data: { httpStatus: 503, retryAfterMs: 1_000 },
        });
      return answer(c, encode(batch, opened.connectionId, negotiated?.version));
    });
  };

  /** A connection replaced after a reset: its agent sees `reset` (another node's: `client-closed`). */
  const endReplaced = async (connectionId: string, principal: unknown): Promise<void> => {
    const local = host.session(connectionId);
    if (local) {
      if (!isSamePrincipal(local.principal, principal))
        throw new A2uiError('FORBIDDEN', 'The connection belongs to another principal.');
      local.close('reset');
      return;
    }
    try {
      await host.disconnect(connectionId, { principal });
    } catch (error) {
      // Already gone: nothing to replace.
      if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
    }
  };

  const clientMessage = async (c: Context, kind: ClientMessageRoute): Promise<Response> => {
    const { principal, body, bytes } = await readPost(c);
    const connectionId = connectionIdOf(body.connectionId, '/connectionId');
    const requestId = requestIdOf(c, body);
    if (body[kind] === undefined) throw invalid(`${kind} is required.`, `/${kind}`);
    const lowerBound = await currentSeq(connectionId);
    const receiving = host.receive(connectionId, {
      principal,
      // The body's `version` (a v1.0 action or error), else the route's default (core's rule).
      message: fromClientMessageParts(kind, body[kind], body.version),
      metadata: body.metadata,
      requestId,
      ...(requestId === undefined ? {} : { fingerprint: await fingerprintOf(kind, body) }),
      bytes,
      awaitTurn: true,
    });
    const received = await withinTurnTimeout(receiving).catch((error: unknown) => {
      // Not handed to the agent: it is sent again (and then reset) rather than answered `closed`.
      if (host.closing && A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')
        throw shutdownRefusal(restartRetryAfterMs);
      throw error;
    });
    const batch = await turnBatch(connectionId, principal, received?.turn, lowerBound);
    if (!batch)
      throw new A2uiError('CONNECTION_CLOSED', `Unknown or expired connection ${connectionId}.`);
    return answer(c, encode(batch));
  };

  const poll = async (c: Context): Promise<Response> => {
    const principal = await authenticate(c);
    const connectionId = connectionIdOf(c.req.query(REST_QUERY.connectionId), '/connectionId');
    const after = integerParameter(c.req.query(REST_QUERY.after), REST_QUERY.after);
    const waitMs = Math.min(
      integerParameter(c.req.query(REST_QUERY.waitMs), REST_QUERY.waitMs),
      maxPollWaitMs,
    );
    let read: HostPollResult;
    try {
      read = await host.poll(connectionId, {
        principal,
        afterSeq: after,
        waitMs,
        limit: maxPollMessages,
        signal: c.req.raw.signal,
      });
    } catch (error) {
      if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
      const gone = await goneBatch(connectionId, principal, after);
      if (!gone) throw error;
      return answer(c, encode(gone));
    }
    if ('superseded' in read)
      return answer(c, encode({ entries: [], seq: after, more: false, superseded: true }));
    if (!read.ok) {
      // A cursor beyond what was sent is not echoed: the answer names the last message sent.
      const seq = Math.min(after, read.lastSeq);
      return answer(c, encode({ entries: [], seq, more: false, reset: 'replay-gap' }));
    }
    const seq = read.entries.at(-1)?.seq ?? after;
    return answer(c, encode({ entries: read.entries, seq, more: read.lastSeq > seq }));
  };

  const disconnect = async (c: Context): Promise<Response> => {
    const { principal, body } = await readPost(c);
    const connectionId = connectionIdOf(body.connectionId, '/connectionId');
    // The shutdown closes every connection: a goodbye during it has nothing left to end.
    if (!host.closing) await host.disconnect(connectionId, { principal });
    return answer(c, '{"closed":true}');
  };

  const answer = (c: Context, text: string): Response => c.body(text, 200, ANSWER_HEADERS);

  /** Runs a route, turning every refusal into its status and JSON body; counts it in flight. */
  const route =
    (handler: (c: Context) => Promise<Response>) =>
    async (c: Context): Promise<Response> => {
      const handling = handler(c).catch((error: unknown) => refuse(c, error));
      inFlight.add(handling);
      try {
        return await handling;
      } finally {
        inFlight.delete(handling);
      }
    };

  const app =
    (options.basePath ?? defaults.basePath) ? new Hono().basePath(options.basePath!) : new Hono();
  if (options.cors) app.use('*', cors({ exposeHeaders: ['Retry-After'], ...options.cors }));
  app.post(REST_PATHS.connect, route(connect));
  app.post(
    REST_PATHS.action,
    route((c) => clientMessage(c, 'action')),
  );
  app.post(
    REST_PATHS.error,
    route((c) => clientMessage(c, 'error')),
  );
  app.post(
    REST_PATHS.callAgentFunction,
    route((c) => clientMessage(c, 'callAgentFunction')),
  );
  app.post(
    REST_PATHS.rendererFunctionResponse,
    route((c) => clientMessage(c, 'rendererFunctionResponse')),
  );
  app.get(REST_PATHS.messages, route(poll));
  app.post(REST_PATHS.disconnect, route(disconnect));
  for (const path of [
    REST_PATHS.connect,
    REST_PATHS.action,
    REST_PATHS.error,
    REST_PATHS.callAgentFunction,
    REST_PATHS.rendererFunctionResponse,
    REST_PATHS.disconnect,
  ])
    app.all(path, (c) => refuse(c, methodNotAllowed('POST')));
  app.all(REST_PATHS.messages, (c) => refuse(c, methodNotAllowed('GET')));

  return Object.assign(app, {
    host,
    registry: host.registry,
    stats(): RestServerStats {
      return {
        ...host.stats(),
        polls: host.polls,
        requests: inFlight.size,
        closedConnections: host.closedConnections,
        rememberedConnects: connects.size,
      };
    },
    async close(): Promise<void> {
      await host.close();
      // Waiting polls and turns end with the connections; let them answer `closed` first.
      await Promise.allSettled([...inFlight]);
      host.forgetClosedConnections();
      connects.clear();
    },
  });
}

const methodNotAllowed = (allow: string) =>
  new HttpRefusal(405, 'METHOD_NOT_ALLOWED', `Use ${allow}.`, { Allow: allow });

/** A refusal as its HTTP status and `{"error": {"code", "message", …}}` body. */
function refuse(c: Context, error: unknown): Response {
  const refusal = toHttpError(error);
  return c.json(refusal.body, refusal.status as 400, {
    ...refusal.headers,
    'Cache-Control': 'no-store',
  });
}

/** A non-negative integer query parameter (absent: 0). */
function integerParameter(value: string | undefined, name: string): number {
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,15}$/.test(value))
    throw invalid(`${name} must be a non-negative integer.`, `/${name}`);
  return Number(value);
}
