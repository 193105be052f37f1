/**
 * The server binding (ARCHITECTURE §4 "A2A"): an A2A agent that hosts an `A2uiAgent`, as a
 * Web-standard Hono app — the agent card at the well-known path and the JSON-RPC endpoint, A2A
 * v1.0 and, through the SDK's compat layer, v0.3. It holds only the routes, the A2A codec
 * (`@a2a-js/sdk`'s request handler, executor and task store) and the link (a follower of the
 * session's replay log); every session rule is core's `SessionHost`.
 */

import type { AgentCard } from '@a2a-js/sdk';
import { A2A_VERSION_HEADER, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
import type { TaskStore } from '@a2a-js/sdk/server';
import type { A2uiAgent, Connection, DisconnectReason } from '@a2ui-ts/core';
import {
  createSessionHost,
  DEFAULT_BODY_TIMEOUT_MS,
  defaultPrincipalKey,
  SESSION_HOST_DEFAULTS,
  type SessionHost,
  type SessionHostOptions,
  type SessionHostStats,
  typedKeyText,
} from '@a2ui-ts/core/host';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { LAST_EVENT_ID_HEADER } from '../protocol/a2ui-extension.js';
import { type A2aBinding, contextIdOf } from './a2a-binding.js';
import { A2aSessions } from './a2a-sessions.js';
import { A2uiRequestHandler } from './a2ui-request-handler.js';
import {
  type A2aAgentCardOptions,
  type A2aProtocolVersion,
  type A2uiExtensionParams,
  agentCardToJson,
  agentCardToV03Json,
  createAgentCard,
} from './agent-card.js';
import { boundTaskHistory } from './bounded-history-task-store.js';
import { createJsonRpcRoute } from './json-rpc-route.js';
import { createMemoryTaskStore, MEMORY_TASK_STORE_DEFAULTS } from './memory-task-store.js';
import { PARSE_REQUEST_DEFAULTS } from './parse-a2ui-request.js';
import { storeSessionEnd } from './session-outcomes.js';

/** CORS settings: the options of Hono's `cors()` middleware (A2A's headers are added). */
export type A2aCorsOptions = NonNullable<Parameters<typeof cors>[0]>;

/**
 * Options of {@link createA2aServer}: the session host's (agent, `authenticate`, caps, grace,
 * stores, bounds — see `SessionHostOptions` in `@a2ui-ts/core`) and the binding's own. Durations
 * in milliseconds, sizes in bytes.
 */
export interface A2aServerOptions extends Omit<SessionHostOptions, 'onAgentError'> {
  /**
   * How long a context's A2UI session lives without a request or an open stream. A2A contexts are
   * conversations a user comes back to, hence longer than a streaming link's grace.
   * @default 900000 (15 minutes)
   */
  reconnectGraceMs?: number;
  /**
   * Prefix of the routes when the app is served on its own. To mount under a path of another app,
   * leave it empty and use `parent.route('/agent', app)`.
   * @default ''
   */
  basePath?: string;
  /** What the agent card says (name, description, skills, …). */
  card?: A2aAgentCardOptions;
  /** The A2UI extension's `params` in the card. @default `{ supportedCatalogIds: [basic], acceptsInlineCatalogs: false }` */
  a2ui?: A2uiExtensionParams;
  /**
   * The JSON-RPC endpoint's public URL, as the card gives it.
   * @default derived from each card request (the card's URL without `/.well-known/…`)
   */
  publicUrl?: string | URL;
  /** A2A protocol versions served, preferred first. @default ['1.0', '0.3'] */
  protocolVersions?: readonly A2aProtocolVersion[];
  /**
   * Refuse (A2A -32008 `ExtensionSupportRequired`) messages of clients that neither activate the
   * A2UI extension (`A2A-Extensions` / `X-A2A-Extensions`, `message.extensions`) nor send
   * `a2uiClientCapabilities`.
   * @default false (they get A2UI data parts too)
   */
  requireA2uiClient?: boolean;
  /**
   * Where tasks are kept (`@a2a-js/sdk`'s `TaskStore`; scope it by user). Bound what it keeps: a
   * client starts a task with every message it sends in a new context.
   * @default `createMemoryTaskStore({ maxTasks })`, the SDK's in-memory store with a bound
   */
  taskStore?: TaskStore;
  /**
   * Most tasks the default task store keeps; the least recently updated is forgotten first (a
   * `GetTask` for it is then `TaskNotFound`). Ignored with {@link taskStore}.
   * @default 10000
   */
  maxTasks?: number;
  /**
   * Most bytes of tasks (their JSON, UTF-8) the default task store keeps in all; the least
   * recently updated are forgotten first. Ignored with {@link taskStore}.
   * @default 67108864 (64 MiB)
   */
  maxTaskBytes?: number;
  /**
   * Most bytes of tasks the default task store keeps for one principal (its `userName`; every
   * unauthenticated caller shares one): past it that principal's least recently updated tasks
   * are forgotten first, so no principal pushes out another's. Ignored with {@link taskStore}.
   * @default 16777216 (16 MiB)
   */
  maxTaskBytesPerPrincipal?: number;
  /**
   * Messages kept in each task's history (the latest; `Infinity` keeps all). The SDK loads and
   * saves a task whole on every event, and an A2UI task holds every message its session streamed:
   * unbounded, each event would cost more the longer the session runs. Clients resume from the
   * session's replay log, not from the history.
   * @default 20
   */
  maxTaskHistory?: number;
  /**
   * The SDK user name of a principal: the SDK scopes its task store by it, so it must tell
   * principals apart. @default a string principal itself, else its typed text (`["number","1"]`)
   */
  userName?: (principal: unknown) => string;
  /**
   * How long `close()` lets the messages the agent already took finish their turns and be
   * answered before it closes the sessions; new messages are refused meanwhile (HTTP 503, which
   * clients retry). A turn still running after it ends with its session. @default 10000
   */
  closeGraceMs?: number;
  /** Largest request body; larger ones get HTTP 413. @default 1048576 */
  maxRequestBytes?: number;
  /** Deadline for reading one body; a slower one gets HTTP 408. @default 10000 */
  bodyTimeoutMs?: number;
  /** Most A2UI client messages in one A2A message. @default 100 */
  maxMessagesPerRequest?: number;
  /** Interval of `: ping` comments on an idle stream. @default 15000 */
  keepAliveIntervalMs?: number;
  /** Most bytes of A2UI messages in one status update (an SSE event). @default 1048576 */
  maxUpdateBytes?: number;
  /**
   * Bytes of A2UI JSON one stream holds for a client that reads too slowly (an SSE client that
   * stops reading fills its socket, then the server's queue). Above it a `SubscribeToTask` stream
   * ends with a `LIMIT_EXCEEDED` error; a `SendStreamingMessage` stream (and a blocking
   * `SendMessage` answer) leaves messages out, so the client sees an `a2uiSeq` skipped. Either
   * way the client resubscribes from its `Last-Event-ID` and the replay log serves the rest.
   * At least one update is held whatever its size, and what a `SubscribeToTask` catches up on
   * (from the replay log, before the client could read anything) whole. @default 4194304
   */
  maxBufferedBytes?: number;
  /**
   * Cross-origin access. Without it no CORS headers are sent (same-origin clients only). A2A's
   * headers (`A2A-Version`, `A2A-Extensions`, `X-A2A-Extensions`, `Last-Event-ID`) are allowed and
   * exposed in addition to what is given.
   * @default undefined
   */
  cors?: A2aCorsOptions;
  /**
   * Receives errors thrown by agent hooks (with the A2A context id of their session) and failed
   * task store writes. @default console.error
   */
  onAgentError?: (error: unknown, contextId: string | undefined) => void;
}

/** Counters for monitoring and leak tests: the session host's, and the binding's. */
export interface A2aServerStats extends SessionHostStats {
  /** Sessions the binding keeps state for (tasks waiting for input, running turns). */
  a2aSessions: number;
  /** Tasks the default task store keeps (absent with a store of your own). */
  tasks?: number;
  /** Bytes of the tasks the default task store keeps (absent with a store of your own). */
  taskBytes?: number;
  /**
   * Bytes of A2UI JSON held for streams whose clients have not read them yet, all streams
   * together (each holds at most about `maxBufferedBytes`).
   */
  bufferedBytes: number;
  /** Messages waiting for an earlier message on their task to be answered (one at a time). */
  waitingMessages: number;
}

/** The Hono app returned by {@link createA2aServer}, with its host and lifecycle. */
export type A2aServer = Hono & {
  /** The session host behind the routes. */
  readonly host: SessionHost;
  /** The `@a2a-js/sdk` request handler (usable with the SDK's own transports too). */
  readonly requestHandler: A2uiRequestHandler;
  /** The task store. */
  readonly taskStore: TaskStore;
  /** The card as served to v1.0 clients, for `url`. */
  agentCard(url: string): AgentCard;
  stats(): A2aServerStats;
  /**
   * Refuses new messages, lets those the agent took be answered (within `closeGraceMs`), then
   * closes every session (agents see `server-closed`, their tasks complete).
   */
  close(): Promise<void>;
};

/** Defaults of {@link A2aServerOptions}, in one place. */
export const A2A_SERVER_DEFAULTS = {
  ...SESSION_HOST_DEFAULTS,
  reconnectGraceMs: 900_000,
  basePath: '',
  protocolVersions: ['1.0', '0.3'] as readonly A2aProtocolVersion[],
  requireA2uiClient: false,
  closeGraceMs: 10_000,
  maxRequestBytes: 1_048_576,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  maxMessagesPerRequest: PARSE_REQUEST_DEFAULTS.maxMessagesPerRequest,
  keepAliveIntervalMs: 15_000,
  maxUpdateBytes: 1_048_576,
  maxBufferedBytes: 4_194_304,
  maxTaskHistory: 20,
  maxTasks: MEMORY_TASK_STORE_DEFAULTS.maxTasks,
  maxTaskBytes: MEMORY_TASK_STORE_DEFAULTS.maxBytes,
  maxTaskBytesPerPrincipal: MEMORY_TASK_STORE_DEFAULTS.maxBytesPerPrincipal,
} as const;

/**
 * Session ends whose tasks the default store forgets: an expired session, one evicted by a session
 * cap (both `grace-expired`), one replaced (`reset`). A closed one keeps its tasks, ended, so that
 * `CancelTask` and a client told the agent closed it can read them.
 */
const FORGETTING_REASONS: ReadonlySet<DisconnectReason> = new Set(['grace-expired', 'reset']);

/** Where the card is served: the A2A path, and the name a2a-js ≤ 0.3.1 clients ask for. */
export const AGENT_CARD_PATHS = [
  '/.well-known/agent-card.json',
  '/.well-known/agent.json',
] as const;

const A2A_HEADERS = [
  A2A_VERSION_HEADER,
  HTTP_EXTENSION_HEADER,
  LEGACY_HTTP_EXTENSION_HEADER,
  LAST_EVENT_ID_HEADER,
];

/**
 * The default {@link A2aServerOptions.userName}: a string principal itself, anything else its
 * typed text (core's `typedKeyText`, which starts with `["`), so the principals `1` and `"1"`
 * have task stores of their own; a string that starts with `["` is typed too, so none can pose
 * as another principal's text.
 */
function defaultUserName(principal: unknown): string {
  if (typeof principal === 'string' && !principal.startsWith('["')) return principal;
  return typedKeyText(principal);
}

/**
 * Creates the A2A server of an A2UI agent: a Hono app serving the agent card at
 * `/.well-known/agent-card.json` and A2A JSON-RPC at `/` (under `basePath`), mountable in any Hono
 * app and servable by any Web-standard runtime (`app.fetch(request)`); on Node use `serveA2a`
 * from `@a2ui-ts/transport-a2a/node`.
 *
 * A context is an A2UI session: its first message runs the agent's `onConnect`, every A2UI data
 * part an `onAction`/`onError`, text parts `onInput`; each turn streams as `working` status
 * updates and ends the step in `input-required`. See `docs/wire-formats.md` ("A2A").
 *
 * @param options - the agent, limits and hooks; see {@link A2aServerOptions}
 * @returns the app, with `host`, `requestHandler`, `taskStore`, `stats()` and `close()`
 *
 * @example
 * ```ts
 * const a2a = createA2aServer({
 *   agent: { onConnect: (connection) => connection.send(messages) },
 *   card: { name: 'Restaurant finder', description: 'Finds and books tables.' },
 * });
 * const app = new Hono().route('/agents/restaurant', a2a); // card: /agents/restaurant/.well-known/agent-card.json
 * ```
 */
export function createA2aServer(options: A2aServerOptions): A2aServer {
  const defaults = A2A_SERVER_DEFAULTS;
  const versions = options.protocolVersions ?? defaults.protocolVersions;
  if (versions.length === 0) throw new TypeError('protocolVersions needs at least one version.');
  const maxTaskHistory = options.maxTaskHistory ?? defaults.maxTaskHistory;
  const ownStore = options.taskStore
    ? undefined
    : createMemoryTaskStore({
        maxTasks: options.maxTasks ?? defaults.maxTasks,
        maxBytes: options.maxTaskBytes ?? defaults.maxTaskBytes,
        maxBytesPerPrincipal: options.maxTaskBytesPerPrincipal ?? defaults.maxTaskBytesPerPrincipal,
      });
  const store = options.taskStore ?? ownStore!;
  const taskStore = Number.isFinite(maxTaskHistory)
    ? boundTaskHistory(store, maxTaskHistory)
    : store;
  const sessions = new A2aSessions();
  const userName = options.userName ?? defaultUserName;
  const reportError = (error: unknown, contextId: string | undefined) => {
    if (options.onAgentError) options.onAgentError(error, contextId);
    else
      console.error(`[a2ui] A2A server error${contextId ? ` (context ${contextId})` : ''}:`, error);
  };

  // The tasks of a session end with it; then the agent's own onDisconnect is told.
  const endSession = sessionEnder({ sessions, ownStore, taskStore, reportError });
  const agent: A2uiAgent = {
    ...options.agent,
    async onConnect(connection) {
      // A request opening the session follows its log first (see A2aSession.hold).
      await sessions.get(connection.id)?.released();
      await options.agent.onConnect?.(connection);
    },
    onAction: options.agent.onAction?.bind(options.agent),
    onError: options.agent.onError?.bind(options.agent),
    onInput: options.agent.onInput?.bind(options.agent),
    async onDisconnect(connection, reason) {
      try {
        await options.agent.onDisconnect?.(connection, reason);
      } finally {
        await endSession(connection, reason);
      }
    },
  };
  const host = createSessionHost({
    ...options,
    agent,
    reconnectGraceMs: options.reconnectGraceMs ?? defaults.reconnectGraceMs,
    // Session ids are context ids, prefixed with the principal's scope when requests are authenticated.
    onAgentError: (error, sessionId) =>
      reportError(error, contextIdOf(sessionId, options.authenticate !== undefined)),
  });
  const keepAliveIntervalMs = options.keepAliveIntervalMs ?? defaults.keepAliveIntervalMs;
  const binding: A2aBinding = {
    host,
    sessions,
    taskStore,
    limits: {
      maxClientMessageBytes: options.maxClientMessageBytes,
      maxMetadataBytes: options.maxMetadataBytes,
      maxMetadataDepth: options.maxMetadataDepth,
      maxRequestIdLength: options.maxRequestIdLength,
      maxMessagesPerRequest: options.maxMessagesPerRequest,
    },
    principalKey: options.principalKey ?? defaultPrincipalKey,
    maxUpdateBytes: options.maxUpdateBytes ?? defaults.maxUpdateBytes,
    maxBufferedBytes: options.maxBufferedBytes ?? defaults.maxBufferedBytes,
    streamBuffers: new Set(),
    requireA2uiClient: options.requireA2uiClient ?? defaults.requireA2uiClient,
    reportError,
  };

  const cardFor = (url: string) =>
    createAgentCard(url, versions, options.card, options.a2ui, host.a2uiVersions);
  // The handler checks versions and capabilities against this card; the served one has the URL.
  const requestHandler = new A2uiRequestHandler(
    cardFor(String(options.publicUrl ?? 'http://localhost/')),
    binding,
  );

  const app =
    (options.basePath ?? defaults.basePath) ? new Hono().basePath(options.basePath!) : new Hono();
  if (options.cors) allowCors(app, options.cors);

  const serveCard = cardHandler(versions, cardFor, options.publicUrl);
  for (const path of AGENT_CARD_PATHS) app.get(path, serveCard);

  const route = createJsonRpcRoute({
    handler: requestHandler,
    authenticate: (request) => host.authenticate(request),
    maxRequestBytes: options.maxRequestBytes ?? defaults.maxRequestBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? defaults.bodyTimeoutMs,
    keepAliveIntervalMs,
    authenticated: options.authenticate !== undefined,
    userName,
    limits: options,
  });
  app.post('/', route);
  refuseOtherMethods(app);

  return Object.assign(app, {
    host,
    requestHandler,
    taskStore,
    agentCard: cardFor,
    stats(): A2aServerStats {
      return {
        ...host.stats(),
        a2aSessions: sessions.size,
        bufferedBytes: [...binding.streamBuffers].reduce(
          (total, buffer) => total + buffer.bytes,
          0,
        ),
        waitingMessages: requestHandler.waitingMessages,
        ...(ownStore ? { tasks: ownStore.size, taskBytes: ownStore.bytes } : {}),
      };
    },
    async close(): Promise<void> {
      const graceMs = options.closeGraceMs ?? defaults.closeGraceMs;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([requestHandler.drain(), graceOver]);
      clearTimeout(timer);
      await host.close();
    },
  });
}

/** The endpoint URL of a card request: its URL without the `/.well-known/…` suffix. */
function endpointOf(cardUrl: string): string {
  const url = new URL(cardUrl);
  url.search = '';
  url.pathname = url.pathname.replace(/\/\.well-known\/[^/]*$/, '') || '/';
  return url.toString();
}

/** CORS as the application gave it, with the headers A2A clients send and read added. */
function allowCors(app: Hono, given: NonNullable<A2aServerOptions['cors']>): void {
  app.use(
    '*',
    cors({
      ...given,
      allowHeaders: [
        ...new Set([
          ...(given.allowHeaders ?? []),
          ...A2A_HEADERS,
          'Content-Type',
          'Authorization',
        ]),
      ],
      exposeHeaders: [
        ...new Set([
          ...(given.exposeHeaders ?? []),
          HTTP_EXTENSION_HEADER,
          LEGACY_HTTP_EXTENSION_HEADER,
        ]),
      ],
    }),
  );
}

/**
 * Serves the agent card for the request's endpoint (or `publicUrl`): v1.0 JSON to a v1.0 client
 * (or when 0.3 is not spoken), else v0.3 JSON.
 */
function cardHandler(
  versions: readonly string[],
  cardFor: (url: string) => AgentCard,
  publicUrl: A2aServerOptions['publicUrl'],
): (c: Context) => Response {
  return (c) => {
    const url = publicUrl ? String(publicUrl) : endpointOf(c.req.url);
    const card = cardFor(url);
    const version = c.req.header(A2A_VERSION_HEADER);
    const v1 = versions.includes('1.0') && (version === '1.0' || !versions.includes('0.3'));
    return c.json(v1 ? agentCardToJson(card) : agentCardToV03Json(card), 200, {
      'Cache-Control': 'no-cache',
      Vary: A2A_VERSION_HEADER,
    });
  };
}

/** Other methods on the card and the endpoint: 405 with `Allow`. */
function refuseOtherMethods(app: Hono): void {
  for (const path of [...AGENT_CARD_PATHS, '/'])
    app.all(path, (c) =>
      c.json(
        { error: { code: 'METHOD_NOT_ALLOWED', message: path === '/' ? 'Use POST.' : 'Use GET.' } },
        405,
        {
          Allow: path === '/' ? 'POST' : 'GET',
        },
      ),
    );
}

/**
 * Ends an A2A session with its A2UI session: the tasks of a session end with it (stored as ended,
 * or deleted from this server's own store when nobody continues them).
 */
function sessionEnder(context: {
  sessions: A2aSessions;
  ownStore: ReturnType<typeof createMemoryTaskStore> | undefined;
  taskStore: A2aBinding['taskStore'];
  reportError: (error: unknown, contextId: string | undefined) => void;
}): (connection: Connection, reason: DisconnectReason) => Promise<void> {
  const { sessions, ownStore, taskStore, reportError } = context;
  return async (connection: Connection, reason: DisconnectReason): Promise<void> => {
    const session = sessions.end(connection.id, reason, connection);
    if (!session) return;
    if (ownStore && FORGETTING_REASONS.has(reason)) {
      // Nobody continues these tasks (the client resets on `TaskNotFound`): free what they hold.
      for (const taskId of session.tasks)
        if (!session.runs.has(taskId)) await ownStore.delete(taskId, session.context);
      return;
    }
    for (const taskId of session.openTasks) {
      if (session.runs.has(taskId)) continue;
      try {
        const task = await taskStore.load(taskId, session.context);
        if (!task) continue;
        await storeSessionEnd(taskStore, session.context, task, reason);
      } catch (error) {
        reportError(error, undefined);
      }
    }
  };
}
