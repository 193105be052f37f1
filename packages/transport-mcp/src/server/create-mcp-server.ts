/**
 * The server binding: any `A2uiAgent` as an MCP server over Streamable HTTP, on the official
 * SDK's Web-standard transport, in a Hono app. Each MCP session is one connection of core's
 * session host, opened at `initialize` and bound to the principal that opened it; this file
 * holds only the routing, the principal check and the bounds of a request — every session rule
 * is the host's, every tool is `a2ui-mcp-session.ts`.
 */
import { A2uiError, createConnectionId } from '@a2ui-ts/core';
import {
  type BindingSessionHostOptions,
  checkRequestDepth,
  createBindingSessionHost,
  DEFAULT_BODY_TIMEOUT_MS,
  defaultIsSamePrincipal,
  HttpRefusal,
  readJsonRequest,
  SESSION_HOST_DEFAULTS,
  type SessionHost,
  type SessionHostStats,
} from '@a2ui-ts/core/host';
import {
  type EventStore,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { offeredVersionsOf, readA2uiDeclaration } from '../protocol/mcp-a2ui.js';
import { toMcpErrorResponse } from '../protocol/mcp-errors.js';
import { type A2uiMcpSession, createA2uiMcpSession } from './a2ui-mcp-session.js';
import { DeliveryLedger } from './delivery-ledger.js';
import { createReplayEventStore } from './replay-event-store.js';
import { SurfaceResources } from './surface-resources.js';

/**
 * Options of {@link createMcpServer}: the session host's (agent, `authenticate`, caps, grace,
 * stores, bounds — see `SessionHostOptions` in `@a2ui-ts/core`) and the binding's own.
 * Durations in milliseconds, sizes in bytes.
 */
export interface McpServerOptions extends BindingSessionHostOptions {
  /** The path of the MCP endpoint (POST, GET, DELETE). @default '/mcp' */
  path?: string;
  /** `serverInfo` of `initialize`. @default { name: 'a2ui-agent', version: '0.1.0' } */
  serverInfo?: { name: string; version: string };
  /** `instructions` of `initialize`, for the model. @default undefined */
  instructions?: string;
  /** Largest request body; larger ones get HTTP 413 `MESSAGE_TOO_LARGE`. @default 1048576 */
  maxRequestBytes?: number;
  /** Deadline for reading one request body; a slower one gets HTTP 408 `TIMEOUT`. @default 10000 */
  bodyTimeoutMs?: number;
  /** Most messages one tool result carries; the rest comes with the next call. @default 1000 */
  maxResultMessages?: number;
  /**
   * What a client that declared no A2UI (neither in `initialize` nor in a call's `_meta.a2ui`)
   * gets: `'text'`, the text fallback alone; `'a2ui'`, the A2UI resource beside it, as the
   * guide's samples answer every client (a generic host such as the MCP Inspector shows it as
   * JSON). Such a client is served v0.9, as one that declared no versions.
   * @default 'text'
   */
  undeclaredClients?: 'text' | 'a2ui';
  /**
   * How long a connection the agent closed is remembered with the messages its client has not
   * received, so that the next tool call still carries them with `_meta.a2ui.closed`; its MCP
   * session ends after it (HTTP 404 from then on).
   * @default 30000
   */
  closedConnectionTtlMs?: number;
  /**
   * How long an MCP session lives without a request (MCP hosts call tools minutes apart, while
   * the model thinks): the session host's grace period. @default 600000
   */
  reconnectGraceMs?: number;
  /**
   * Most SSE events an MCP session remembers for a client that resumes a dropped stream with
   * `Last-Event-ID` (the SDK's resumability). An event is a few numbers: the A2UI it carried is
   * read again from the session's replay log (see `replayLog` for its bounds). @default 1000
   */
  maxStoredEvents?: number;
  /**
   * The SSE `retry` (milliseconds) sent with each stream's first event: how soon a client whose
   * stream dropped comes back. @default undefined (the client's own backoff; the SDK's waits 1 s)
   */
  retryIntervalMs?: number;
}

/** Counters for monitoring and leak tests. */
export interface McpServerStats extends SessionHostStats {
  /** MCP sessions with a live SDK transport on this node. */
  mcpSessions: number;
}

/** The Hono app returned by {@link createMcpServer}, with its host and lifecycle. */
export type McpServerApp = Hono & {
  /** The session host behind the endpoint. */
  readonly host: SessionHost;
  stats(): McpServerStats;
  /** Ends every MCP session (agents see `server-closed`) and the host. */
  close(): Promise<void>;
};

/** Defaults of {@link McpServerOptions}, in one place. */
export const MCP_SERVER_DEFAULTS = {
  ...SESSION_HOST_DEFAULTS,
  path: '/mcp',
  serverInfo: { name: 'a2ui-agent', version: '0.1.0' },
  maxRequestBytes: 1_048_576,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  maxResultMessages: 1_000,
  undeclaredClients: 'text',
  reconnectGraceMs: 600_000,
  closedConnectionTtlMs: 30_000,
  maxStoredEvents: 1_000,
} as const;

/**
 * The first MCP protocol version whose clients get event ids (the SDK's priming event) and so
 * can resume a dropped stream.
 */
const RESUMABLE_PROTOCOL_VERSION = '2025-11-25';

/** The header that names an MCP session (Streamable HTTP). */
const SESSION_HEADER = 'mcp-session-id';

interface LiveSession {
  readonly principal: unknown;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly session: A2uiMcpSession;
  readonly eventStore: EventStore;
}

type InitializeRequest = { params?: { capabilities?: unknown; protocolVersion?: unknown } };

const isInitialize = (payload: unknown): payload is InitializeRequest =>
  typeof payload === 'object' &&
  payload !== null &&
  !Array.isArray(payload) &&
  (payload as { method?: unknown }).method === 'initialize';

/**
 * The id the SDK gives the standalone stream (Streamable HTTP `GET`) in its event store; its
 * events, and a resumed `GET`, must carry it for the SDK to send later notifications there.
 */
const STANDALONE_STREAM_ID = '_GET_stream';

/**
 * `response` with its body, calling `onEnd` once when the body ends or is cancelled, and
 * `prefix` (an SSE event) sent first when given.
 */
function withEnd(response: Response, onEnd: () => void, prefix?: string): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (prefix !== undefined) controller.enqueue(new TextEncoder().encode(prefix));
    },
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        onEnd();
        controller.close();
      } catch (error) {
        onEnd();
        controller.error(error);
      }
    },
    cancel(reason) {
      onEnd();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * The current surfaces of a connection this node runs, followed from its replay log;
 * `undefined` for one another node runs.
 */
export async function followSurfaces(
  host: SessionHost,
  connectionId: string,
): Promise<SurfaceResources | undefined> {
  const log = host.session(connectionId)?.replayLog;
  if (!log) return undefined;
  const surfaces = new SurfaceResources(log);
  await surfaces.start();
  return surfaces;
}

/**
 * Creates the MCP server of an A2UI agent: a Hono app serving MCP Streamable HTTP at `path`
 * (`POST` JSON-RPC, `GET` the server's stream, `DELETE` the session), mountable in any Hono app
 * and servable by any Web-standard runtime (`app.fetch(request)`); on Node serve it with
 * `@hono/node-server`. Its tools are the A2UI guide's: `a2ui_open` (the agent's UI),
 * `a2ui_action`, `a2ui_error`; results carry A2UI as an `application/a2ui+json` embedded
 * resource with a text fallback, or text alone for a client that declared no A2UI.
 *
 * @param options - the agent, limits and hooks; see {@link McpServerOptions}
 * @returns the app, with `host`, `stats()` and `close()`
 * @throws nothing: refusals are answered (HTTP status and a JSON-RPC error whose `data.code` is
 *   the `A2uiError` code — `UNAUTHORIZED`, `FORBIDDEN` for another principal's session,
 *   `MESSAGE_TOO_LARGE`, `CONNECTION_CLOSED` (404) for an unknown or expired session…)
 *
 * @example
 * ```ts
 * const app = createMcpServer({
 *   agent: { onConnect: (connection) => connection.send(messages) },
 *   authenticate: (request) => request.headers.get('authorization') ?? undefined,
 * });
 * serve({ fetch: app.fetch, port: 8787 }); // http://localhost:8787/mcp
 * ```
 */
export function createMcpServer(options: McpServerOptions): McpServerApp {
  const defaults = MCP_SERVER_DEFAULTS;
  const path = options.path ?? defaults.path;
  const isSamePrincipal = options.isSamePrincipal ?? defaultIsSamePrincipal;
  const host = createBindingSessionHost({
    ...options,
    reconnectGraceMs: options.reconnectGraceMs ?? defaults.reconnectGraceMs,
    closedConnectionTtlMs: options.closedConnectionTtlMs ?? defaults.closedConnectionTtlMs,
  });
  const closedConnectionTtlMs = options.closedConnectionTtlMs ?? defaults.closedConnectionTtlMs;
  const limits = {
    maxBytes: options.maxRequestBytes ?? defaults.maxRequestBytes,
    timeoutMs: options.bodyTimeoutMs ?? defaults.bodyTimeoutMs,
    host,
  };
  const sessions = new Map<string, LiveSession>();

  /** Opens a host connection and its SDK server for an `initialize` request. */
  const openSession = async (
    request: Request,
    principal: unknown,
    payload: InitializeRequest,
  ): Promise<Response> => {
    const declaration = readA2uiDeclaration(payload.params?.capabilities);
    // The offer is the keys of `capabilities.a2ui.clientCapabilities`; sharing none is a 406
    // before any connection (core's one rule, as every binding).
    const negotiated = host.negotiate(offeredVersionsOf(declaration));
    const connectionId = createConnectionId();
    const opened = await host.open({
      principal,
      id: connectionId,
      protocolVersions: negotiated?.versions,
    });
    const version = payload.params?.protocolVersion;
    const ledger = new DeliveryLedger({
      acknowledge: (seq) => host.acknowledge(connectionId, { principal, seq }),
      // The SDK gives event ids only to these clients: the others cannot come back for anything.
      deferred: typeof version === 'string' && version >= RESUMABLE_PROTOCOL_VERSION,
    });
    const surfaces = await followSurfaces(host, connectionId);
    // Bound below: a resume happens only once the session and its transport exist.
    let session!: A2uiMcpSession;
    let transport!: WebStandardStreamableHTTPServerTransport;
    // The client missed what the log no longer holds and no snapshot replaces it: the agent
    // starts over (`onDisconnect('reset')`), and the client's next request gets 404 and opens a
    // new session, as after any session it lost.
    const resetAfterGap = () => {
      host.session(connectionId)?.close('reset');
      void transport.close();
    };
    const eventStore = createReplayEventStore({
      host,
      connectionId,
      principal,
      ledger,
      maxEvents: options.maxStoredEvents ?? defaults.maxStoredEvents,
      onSnapshot: (throughSeq) => session.snapshotDelivered(throughSeq),
      onReplayGap: resetAfterGap,
    });
    session = createA2uiMcpSession({
      host,
      connectionId,
      principal,
      connectTurn: opened.connectTurn,
      declaration,
      negotiated,
      serverInfo: options.serverInfo ?? defaults.serverInfo,
      instructions: options.instructions,
      maxResultMessages: options.maxResultMessages ?? defaults.maxResultMessages,
      undeclaredClients: options.undeclaredClients ?? defaults.undeclaredClients,
      ledger,
      events: eventStore,
      surfaces,
      onReplayGap: resetAfterGap,
    });
    surfaces?.onChange((change) => session.surfacesChanged(change));
    transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => connectionId,
      eventStore,
      ...(options.retryIntervalMs === undefined ? {} : { retryInterval: options.retryIntervalMs }),
      // DELETE from the client: the agent sees `client-closed`.
      onsessionclosed: () => host.disconnect(connectionId, { principal }).catch(() => undefined),
    });
    transport.onclose = () => {
      sessions.delete(connectionId);
      surfaces?.close();
    };
    sessions.set(connectionId, { principal, transport, session, eventStore });
    // The host ends the connection (grace, eviction, the agent's close): the MCP session goes
    // too — after the closed-connection memory when the agent closed it, so that the client's
    // next call still gets its last messages.
    host.session(connectionId)?.signal.addEventListener(
      'abort',
      () => {
        void host.closedConnection(connectionId, { principal }).then(
          (closed) => {
            if (!closed) return void transport.close();
            setTimeout(() => void transport.close(), closedConnectionTtlMs).unref?.();
          },
          () => void transport.close(),
        );
      },
      { once: true },
    );
    await session.server.connect(transport);
    return transport.handleRequest(request, { parsedBody: payload });
  };

  const handle = async (request: Request): Promise<Response> => {
    let principal: unknown;
    let payload: unknown;
    if (request.method === 'POST') {
      const read = await readJsonRequest(request, limits);
      if (!read.ok) throw read.refusal;
      ({ principal, payload } = read);
      const tooDeep = checkRequestDepth(payload, options);
      if (tooDeep)
        throw new A2uiError('VALIDATION_FAILED', tooDeep.message, { path: tooDeep.path });
    } else if (request.method === 'GET' || request.method === 'DELETE') {
      const auth = await host.authenticate(request);
      if (!auth.ok) throw auth.error;
      principal = auth.principal;
    } else {
      throw new HttpRefusal(405, 'METHOD_NOT_ALLOWED', 'Use POST, GET or DELETE.', {
        Allow: 'POST, GET, DELETE',
      });
    }
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId === null) {
      if (request.method === 'POST' && isInitialize(payload))
        return openSession(request, principal, payload);
      throw new HttpRefusal(
        400,
        'VALIDATION_FAILED',
        'Send initialize first; every later request names its session in Mcp-Session-Id.',
      );
    }
    const live = sessions.get(sessionId);
    if (!live) throw new HttpRefusal(404, 'CONNECTION_CLOSED', 'Unknown or expired MCP session.');
    if (!isSamePrincipal(live.principal, principal))
      throw new A2uiError('FORBIDDEN', 'The MCP session belongs to another principal.');
    const response = await live.transport.handleRequest(request, { parsedBody: payload });
    if (request.method !== 'GET' || !response.ok || !response.body) return response;
    // The standalone stream is open: live updates go there while it lasts.
    const ended = live.session.openPushStream();
    if (request.headers.has('last-event-id')) return withEnd(response, ended);
    // The SDK primes only POST streams: without an event id of its own, a client whose `GET`
    // drops before a push reaches it could not name what it missed (pushes written into the dead
    // stream would be lost). Primed, it resumes with `Last-Event-ID` as after any event.
    const primingId = await live.eventStore.storeEvent(STANDALONE_STREAM_ID, {} as never);
    return withEnd(response, ended, `id: ${primingId}\ndata: \n\n`);
  };

  const app = new Hono();
  app.all(path, async (c) => {
    try {
      return await handle(c.req.raw);
    } catch (error) {
      return toMcpErrorResponse(error);
    }
  });

  return Object.assign(app, {
    host,
    stats: (): McpServerStats => ({ ...host.stats(), mcpSessions: sessions.size }),
    async close(): Promise<void> {
      await host.close();
      await Promise.allSettled([...sessions.values()].map((live) => live.transport.close()));
      sessions.clear();
    },
  });
}
