/**
 * The session host (ARCHITECTURE §2 "Session host"): the one place where a server binding's
 * session rules live. A binding parses its wire format, authenticates with
 * {@link SessionHost.authenticate}, and hands everything else here: opening and resuming
 * connections (or resetting them), principal binding, caps with eviction, grace periods,
 * validation of inbound client messages and their metadata, idempotent receive, turns, second
 * readers, acknowledgements and every bound on what a client can make the server hold.
 *
 * Connections the host does not run itself (another node's, with a shared registry, replay log and
 * router) are served through the same methods: messages are forwarded to the owner, links follow
 * the shared log.
 */

import type { A2uiAgent, AgentInput, HostToolResult } from '../agent/agent.js';
import { createConnectionId } from '../agent/connection-id.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import type { ValidationIssue } from '../validation/validation-issue.js';
import {
  negotiateWireVersions,
  resolveA2uiVersions,
  type WireNegotiation,
} from '../versions/wire-versions.js';
import { type ClosedConnection, ClosedConnections } from './closed-connections.js';
import type { ConnectionRecord, ConnectionRegistry } from './connection-registry.js';
import { createMemoryConnectionRegistry } from './connection-registry.js';
import {
  type AttachResult,
  ConnectionSession,
  type OutgoingValidator,
  type ReadResult,
  type ResetReason,
  SESSION_DEFAULTS,
  type SessionLimits,
  type SessionSink,
} from './connection-session.js';
import {
  checkInboundMessage,
  checkMetadata,
  INBOUND_DEFAULTS,
  type InboundLimits,
} from './inbound.js';
import { PollGate } from './poll-gate.js';
import {
  type Authenticate,
  type AuthenticationResult,
  defaultIsSamePrincipal,
  defaultPrincipalKey,
  runAuthenticate,
} from './principal.js';
import {
  createMemoryReplayLog,
  DEFAULT_REPLAY_LOG_LIMITS,
  type MaybePromise,
  type ReplayEntry,
  type ReplayLog,
  type ReplayLogLimits,
} from './replay-log.js';
import { beyondSentError, isBeyondSentError } from './sent-position.js';
import { SessionFollow } from './session-follow.js';
import {
  createLocalSessionRouter,
  type RoutedRequest,
  type RoutedResponse,
  type SessionRouter,
} from './session-router.js';
import { SessionTable } from './session-table.js';
import { type FollowedLink, followLog, readLog } from './shared-log-reader.js';
import type { TurnResult } from './turn.js';

/** Options of {@link createSessionHost}. Durations in milliseconds, sizes in bytes. */
export interface SessionHostOptions extends SessionLimits, InboundLimits {
  /** The agent that handles every connection. */
  agent: A2uiAgent;
  /**
   * Authenticates a request and returns its principal, which a new connection is bound to; later
   * requests on it must come from the same principal ({@link isSamePrincipal}). Return
   * `undefined`, `null` or `false`, or throw `A2uiError('UNAUTHORIZED')`, to refuse with 401; throw
   * `A2uiError('FORBIDDEN')` for 403. Bindings call it through {@link SessionHost.authenticate}.
   * @default none: every request is accepted and connections have no principal
   */
  authenticate?: Authenticate;
  /** Whether a request's principal owns a connection bound to `bound`. @default `defaultIsSamePrincipal` */
  isSamePrincipal?: (bound: unknown, current: unknown) => boolean;
  /**
   * Groups connections by principal for {@link maxSessionsPerPrincipal}; keep it consistent with
   * {@link isSamePrincipal}. @default `defaultPrincipalKey`
   */
  principalKey?: (principal: unknown) => unknown;
  /**
   * Most live connections this node runs (with a link or in their grace period). A new one beyond
   * it first evicts the oldest connection without a link or a waiting reader (its agent sees
   * `onDisconnect('grace-expired')`); when every connection has a link, opening is refused with
   * `LIMIT_EXCEEDED` (`data.retryAfterMs`). Resumes of live connections are never refused.
   * @default 10000
   */
  maxSessions?: number;
  /**
   * Most live connections of one principal (by {@link principalKey}), with the same eviction.
   * Applies only with {@link authenticate}. @default 100
   */
  maxSessionsPerPrincipal?: number;
  /** Retry hint of a refusal by a session cap. @default 5000 */
  sessionLimitRetryAfterMs?: number;
  /**
   * How long a connection lives with no link, no waiting reader and no request before its agent's
   * `onDisconnect('grace-expired')`. @default 30000
   */
  reconnectGraceMs?: number;
  /** Replay log of each connection, for resume. @default `{ maxEvents: 1000, maxBytes: 4194304 }` */
  replayBuffer?: ReplayLogLimits;
  /**
   * Keep each connection's surfaces (createSurface, components, data model; up to
   * `replayBuffer.maxBytes`), so a client that resumes from a position the replay log no longer
   * holds — or from 0 after a page reload — gets a snapshot of them on the same connection
   * instead of a reset (docs/session-host.md "Snapshot instead of reset"). `false`: such a client
   * is reset and its agent starts over.
   * @default true
   */
  snapshots?: boolean;
  /**
   * Opens the replay log of a connection (the scale-out seam): an empty one for a new connection,
   * the same shared one when another node follows it. @default a memory log sized by `replayBuffer`
   */
  createReplayLog?: (connectionId: string) => ReplayLog;
  /** Records of live connections (the scale-out seam). @default a new memory registry */
  registry?: ConnectionRegistry;
  /** Reaches the nodes that own other connections (the scale-out seam). @default this node alone */
  router?: SessionRouter;
  /** Deadline of a request forwarded to another node that does not wait for a turn. @default 10000 */
  routeTimeoutMs?: number;
  /**
   * Validation of outgoing messages with the catalog of their surface (e.g. a custom catalog's),
   * as `ConnectionSessionOptions.validateOutgoing`: it sees v0.9/v0.9.1 messages as `"v0.9"` and
   * v1.0 messages as `"v1.0"` with bare reserved keys. `false` leaves only the envelope (and the
   * v1.0 reader's) checks. @default validateOutgoingWithBuiltinCatalogs (v0.9 basic and minimal,
   *   v1.0 basic)
   */
  validateOutgoing?: OutgoingValidator | false;
  /**
   * How long a connection the agent closed (`server-closed`) is remembered, with the messages its
   * client had not acknowledged, for {@link SessionHost.closedConnection}: a client that polls
   * (REST) still gets them, and `closed`, with its next request. 0 remembers nothing.
   * @default 0 (REST: 30000)
   */
  closedConnectionTtlMs?: number;
  /** Most closed connections remembered (the oldest go first). @default 1000 */
  maxClosedConnections?: number;
  /**
   * The A2UI versions this server speaks, most preferred first: a client that offers versions
   * (each binding's way, `docs/wire-formats.md`) gets the first of these it offered, and one that
   * shares none is refused with `NOT_SUPPORTED` (HTTP 406). A client that offers none is served as
   * before negotiation existed (its connection's `protocolVersions` is `undefined`). Every entry
   * must be a version core speaks.
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  a2uiVersions?: readonly string[];
  /** Receives errors thrown by agent hooks, and failed store writes. @default console.error */
  onAgentError?: (error: unknown, connectionId: string) => void;
}

/** Defaults of {@link SessionHostOptions}, in one place. */
export const SESSION_HOST_DEFAULTS = {
  ...SESSION_DEFAULTS,
  ...INBOUND_DEFAULTS,
  maxSessions: 10_000,
  maxSessionsPerPrincipal: 100,
  sessionLimitRetryAfterMs: 5_000,
  replayBuffer: DEFAULT_REPLAY_LOG_LIMITS,
  routeTimeoutMs: 10_000,
  closedConnectionTtlMs: 0,
  maxClosedConnections: 1_000,
} as const;

/** A streaming link bound to a connection, as {@link SessionHost.connect} returns it. */
export interface HostLink {
  readonly connectionId: string;
  /** True when the link continues the connection the client asked for. */
  readonly resumed: boolean;
  /** Messages replayed before live ones. */
  readonly replayed: number;
  /** Set when the client asked for a connection that could not be resumed. */
  readonly reset?: ResetReason;
  /** The link dropped (the client went away): the connection waits out its grace period. */
  detach(): void;
}

/** Options of {@link SessionHost.connect}. */
export interface ConnectOptions {
  /** What `authenticate` returned for the request. */
  principal: unknown;
  /** The connection to resume; without it a new one is opened. */
  connectionId?: string;
  /** Last `seq` the client applied; messages after it are replayed. @default 0 */
  lastSeq?: number;
  /** Where the connection's messages go. */
  sink: SessionSink;
  /**
   * What {@link SessionHost.negotiate} chose for this request: a new connection carries it as
   * `connection.protocolVersions`; a resumed one keeps what it negotiated when it was opened.
   * @default undefined (the client offered no versions)
   */
  protocolVersions?: readonly string[];
}

/** Options of {@link SessionHost.open}. */
export interface OpenOptions {
  principal: unknown;
  /**
   * An id chosen by the binding (an AG-UI `threadId`, an A2A `contextId`): an existing connection
   * with it is reused when the principal owns it. The binding keeps such ids unguessable or
   * authenticated. At most 256 characters. @default a fresh random id
   */
  id?: string;
  /** Resolve only once the `onConnect` turn is over, with it. @default false */
  awaitTurn?: boolean;
  /** Stops waiting for the turn (the turn goes on). */
  signal?: AbortSignal;
  /**
   * Called (and awaited) when a connection was created, before its `onConnect` turn starts: a
   * binding that streams that turn attaches its link here (`connect` with the id and `lastSeq` 0),
   * so every message of the turn reaches it live. Not called when an existing connection is reused.
   * If it throws, the new connection is closed and `open` rejects with that error.
   * @default none
   */
  onCreated?: (connectionId: string) => void | Promise<void>;
  /** As {@link ConnectOptions.protocolVersions}: given to a created connection only. */
  protocolVersions?: readonly string[];
}

/** Result of {@link SessionHost.open}. */
export interface OpenResult {
  readonly connectionId: string;
  /** False when an existing connection was reused (no `onConnect`). */
  readonly created: boolean;
  /** The `onConnect` turn, with `awaitTurn` on a created connection. */
  readonly turn?: TurnResult;
  /**
   * On a created connection, whether or not `awaitTurn`: settles with the `onConnect` turn when it
   * ends. A binding that streams the turn live (A2A) answers the request at once, refusals
   * included, and follows the turn with this.
   */
  readonly connectTurn?: Promise<TurnResult>;
}

/** What every request on an existing connection says about itself. */
export interface RequestContext {
  /** What `authenticate` returned for the request. */
  principal: unknown;
}

/** Options of {@link SessionHost.receive}. */
export interface HostReceiveOptions extends RequestContext {
  /** The v0.9 client message (`{version, action}` or `{version, error}`), as parsed. */
  message: unknown;
  /** Its metadata, as parsed. */
  metadata?: unknown;
  /** Idempotency key: a retried request is delivered once. At most `maxRequestIdLength` characters. */
  requestId?: string;
  /**
   * Fingerprint of the request's body (opaque, e.g. a SHA-256 in hex): a `requestId` seen before
   * with another fingerprint is refused (`VALIDATION_FAILED`, HTTP 422) instead of answered as a
   * retry. @default none: a repeated id is a retry whatever its body
   */
  fingerprint?: string;
  /** Size of the message and its metadata as received, in bytes. */
  bytes: number;
  /** Resolve only once the agent's turn for it is over, with the turn. @default false */
  awaitTurn?: boolean;
  /** Stops waiting for the turn (the turn goes on; the message stays delivered). */
  signal?: AbortSignal;
  /**
   * Called once the message is queued for the agent (or known as a duplicate), before its turn:
   * with `awaitTurn`, a binding that answers after the turn may take the connection's next message
   * from then on, in order. Forwarded to another node, it is called when that node answers.
   */
  onAccepted?: () => void;
}

/** Options of {@link SessionHost.input}. */
export interface HostInputOptions extends RequestContext {
  input: AgentInput;
  metadata?: unknown;
  requestId?: string;
  bytes?: number;
  awaitTurn?: boolean;
  signal?: AbortSignal;
}

/** Result of {@link SessionHost.receive} and {@link SessionHost.input}. */
export interface HostReceiveResult {
  /** True when the request id was seen before: the agent did not get it again. */
  readonly duplicate: boolean;
  /** With `awaitTurn`: the turn (for a duplicate, the original's), unless `signal` stopped the wait. */
  readonly turn?: TurnResult;
}

/** Options of {@link SessionHost.read}. */
export interface HostReadOptions extends RequestContext {
  afterSeq: number;
  /** Wait up to this long for a message when none is there. @default 0 */
  waitMs?: number;
  limit?: number;
  signal?: AbortSignal;
}

/** Options of {@link SessionHost.follow}. */
export interface HostFollowOptions extends RequestContext {
  /** Follow the messages with `seq > afterSeq`. @default 0 (every message still kept) */
  afterSeq?: number;
  /** Stops the follow (iteration ends, presence is released). */
  signal?: AbortSignal;
  /**
   * Most bytes (UTF-16 code units of `data`) waiting for a reader that does not take them; beyond
   * it the follow stops and its reader gets `LIMIT_EXCEEDED`.
   * @default the host's `replayBuffer.maxBytes` (4194304)
   */
  maxBufferedBytes?: number;
  /**
   * Called synchronously, as messages are added to the follow and when it ends — also while
   * `follow` starts (the backlog) — for a reader that must account for what it holds at once:
   * it may `take()` there. It must not throw (an error ends the follow and reaches its reader).
   * @default none: read by iterating, `next()` or `take()`
   */
  onReadable?: (follow: SessionFollow) => void;
}

/** Options of {@link SessionHost.poll}. */
export interface HostPollOptions extends RequestContext {
  /** The client has applied every message through it: the log may drop them. Read after it. */
  afterSeq: number;
  /** Wait up to this long for a message when none is there. @default 0 */
  waitMs?: number;
  /** Most messages in the answer. @default all that are kept */
  limit?: number;
  /** Stops waiting (the client left). */
  signal?: AbortSignal;
}

/** Result of {@link SessionHost.poll}: as {@link SessionHost.read}, or superseded. */
export type HostPollResult =
  | ReadResult
  /** A newer poll of the connection arrived on this node: this one stopped waiting, with nothing. */
  | {
      readonly ok: true;
      readonly superseded: true;
      readonly entries: readonly [];
      readonly lastSeq: number;
    };

/** Counters for monitoring and leak tests. */
export interface SessionHostStats {
  /** Connections this node runs. */
  sessions: number;
  /** Streaming links attached on this node (its own connections). */
  links: number;
  /** Links on this node following other nodes' connections. */
  followerLinks: number;
  /** Connections in their grace period. */
  graceTimers: number;
  /** Connections without a link closed early to make room (session caps). */
  evictedSessions: number;
  /** New connections refused because a cap was reached and nothing could be evicted. */
  refusedSessions: number;
  /** Client messages waiting for their agents, and their bytes. */
  queuedClientMessages: number;
  queuedClientBytes: number;
  /** Request ids remembered for de-duplication, and their bytes. */
  rememberedRequests: number;
  rememberedRequestBytes: number;
  /** Host tool calls awaiting a result. */
  pendingToolCalls: number;
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | undefined)?.then === 'function';

/** Awaits `turn` unless `signal` aborts first. */
async function waitForTurn(
  turn: Promise<TurnResult>,
  signal: AbortSignal | undefined,
): Promise<TurnResult | undefined> {
  if (!signal) return turn;
  if (signal.aborted) return undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([turn, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

const closedError = (connectionId: string) =>
  new A2uiError('CONNECTION_CLOSED', `Unknown or expired connection ${connectionId}.`, {
    data: { connectionId },
  });

/** A follow that cannot start: `reset` says what its client must do, as if its link were reset. */
const cannotFollow = (connectionId: string, afterSeq: number, reset: ResetReason) =>
  new A2uiError(
    'CONNECTION_CLOSED',
    reset === 'replay-gap'
      ? `The messages of connection ${connectionId} after seq ${afterSeq} are no longer kept.`
      : `Unknown or expired connection ${connectionId}.`,
    { data: { connectionId, reset } },
  );

const forbiddenError = () =>
  new A2uiError('FORBIDDEN', 'The connection belongs to another principal.');

/** A refusal carried over the router as data. */
function toRoutedError(error: unknown): RoutedResponse {
  // Anything but an `A2uiError` is reported on the owner; its text is not for clients.
  const known = A2uiError.isInstance(error)
    ? error
    : new A2uiError('INTERNAL_ERROR', 'The owner of the connection failed to handle the request.');
  return {
    ok: false,
    error: {
      code: known.code,
      message: known.message,
      ...(known.data ? { data: known.data } : {}),
    },
  };
}

/**
 * A router that gave up on the owner (`ABORTED`, allowed by older routers) cannot say whether the
 * request was accepted: the client is asked to retry it with the same id, which is idempotent.
 */
function retryLater(error: A2uiError): A2uiError {
  return new A2uiError(
    'LIMIT_EXCEEDED',
    'The node that runs the connection did not answer in time; retry with the same request id.',
    { data: { retryAfterMs: 1_000 }, cause: error },
  );
}

function fromRouted(response: RoutedResponse): { duplicate?: boolean; turn?: TurnResult } {
  if (response.ok) return response;
  throw new A2uiError(response.error.code, response.error.message, { data: response.error.data });
}

/**
 * The session host of one node. Create it with {@link createSessionHost}.
 */
export class SessionHost {
  /** This node's id (the `owner` of the connections it creates). */
  readonly nodeId: string;
  /** Records of live connections. */
  readonly registry: ConnectionRegistry;
  /** The versions this host speaks, most preferred first (the `a2uiVersions` option, checked). */
  readonly a2uiVersions: readonly string[];
  readonly #options: SessionHostOptions;
  readonly #router: SessionRouter;
  readonly #createReplayLog: (connectionId: string) => ReplayLog;
  readonly #isSamePrincipal: (bound: unknown, current: unknown) => boolean;
  /** The connections this node runs, with the session caps. */
  readonly #sessions: SessionTable;
  /** Links of this node following other nodes' connections: stop function → what they follow. */
  readonly #followers = new Map<
    () => void,
    {
      connectionId: string;
      owner: string;
      sink: SessionSink;
      link: FollowedLink;
      /** A `follow()` rather than a streaming link. */
      follow?: true;
    }
  >();
  /** Quiet forwards in flight (presence of links and follows, touches). */
  readonly #forwarding = new Set<Promise<void>>();
  #stopListening: MaybePromise<() => MaybePromise<void>>;
  #stopNodeDown: (() => void) | undefined;
  #closing = false;
  /** Closed connections remembered for their clients' next poll (`closedConnectionTtlMs`). */
  readonly #closed: ClosedConnections | undefined;
  readonly #polls = new PollGate();

  constructor(options: SessionHostOptions) {
    const defaults = SESSION_HOST_DEFAULTS;
    this.#options = options;
    this.a2uiVersions = resolveA2uiVersions(options.a2uiVersions);
    this.#router = options.router ?? createLocalSessionRouter();
    this.nodeId = this.#router.nodeId;
    this.registry = options.registry ?? createMemoryConnectionRegistry();
    const replayBuffer = options.replayBuffer ?? defaults.replayBuffer;
    const createLog = options.createReplayLog ?? (() => createMemoryReplayLog(replayBuffer));
    const closedTtlMs = options.closedConnectionTtlMs ?? defaults.closedConnectionTtlMs;
    const closed =
      closedTtlMs > 0
        ? new ClosedConnections({
            ttlMs: closedTtlMs,
            maxConnections: options.maxClosedConnections ?? defaults.maxClosedConnections,
          })
        : undefined;
    this.#closed = closed;
    this.#createReplayLog = closed
      ? (connectionId) =>
          closed.watch(
            connectionId,
            createLog(connectionId),
            () => this.registry.get(connectionId),
            () => this.#closing,
          )
      : createLog;
    this.#isSamePrincipal = options.isSamePrincipal ?? defaultIsSamePrincipal;
    this.#sessions = new SessionTable({
      maxSessions: Math.max(1, options.maxSessions ?? defaults.maxSessions),
      maxSessionsPerPrincipal: Math.max(
        1,
        options.maxSessionsPerPrincipal ?? defaults.maxSessionsPerPrincipal,
      ),
      perPrincipal: options.authenticate !== undefined,
      principalKey: options.principalKey ?? defaultPrincipalKey,
      retryAfterMs: options.sessionLimitRetryAfterMs ?? defaults.sessionLimitRetryAfterMs,
    });
    this.#stopListening = this.#router.listen((request, options) =>
      this.#handleRouted(request, options?.signal),
    );
    this.#stopNodeDown = this.#router.onNodeDown?.((node) => {
      for (const session of this.#sessions.values()) session.detachNode(node);
      // A link following a dead node's connection would wait forever: end it quietly (`reset`),
      // so that its client comes back and is reset onto a live node (`owner-lost`).
      for (const [stop, follower] of [...this.#followers]) {
        if (follower.owner !== node) continue;
        stop();
        follower.sink.close('reset');
      }
    });
  }

  /**
   * The one negotiation rule of every binding: the versions a connection speaks, from what its
   * client offered (`negotiateWireVersions` against {@link a2uiVersions}). Pass the result's
   * `versions` as `protocolVersions` to {@link connect} or {@link open}.
   *
   * @param offered - the client's versions as its binding read them; `undefined` when it offered
   *   none (an old client), which is served as before negotiation existed
   * @param options - `carried`: the versions the binding can carry at all (AG-UI: v0.9 only);
   *   {@link a2uiVersions} is narrowed to them. @default every version
   * @returns the chosen version and every shared one, or `undefined` for `undefined`
   * @throws A2uiError `NOT_SUPPORTED` (`data.httpStatus` 406, `data.supported`) when nothing is
   *   shared; `VALIDATION_FAILED` (400) for a malformed version token
   *
   * @example
   * ```ts
   * const negotiated = host.negotiate(['v1.0', 'v0.9']); // { version: 'v1.0', versions: ['v1.0', 'v0.9'] }
   * await host.connect({ principal, sink, protocolVersions: negotiated?.versions });
   * ```
   */
  negotiate(
    offered: readonly string[] | undefined,
    options: { carried?: readonly string[] } = {},
  ): WireNegotiation | undefined {
    if (offered === undefined) return undefined;
    const { carried } = options;
    const supported = carried
      ? this.a2uiVersions.filter((version) => carried.includes(version))
      : this.a2uiVersions;
    return negotiateWireVersions(offered, supported);
  }

  /**
   * Runs the `authenticate` option on `request` (see {@link runAuthenticate}).
   * @returns the principal, or the error to refuse with (`UNAUTHORIZED`, `FORBIDDEN`, `INTERNAL_ERROR`)
   */
  authenticate(request: Request): Promise<AuthenticationResult> {
    return runAuthenticate(this.#options.authenticate, request);
  }

  /**
   * Binds a streaming link (SSE response, WebSocket) to a connection: resumes `connectionId` by
   * replaying every message after `lastSeq`, or opens a new connection — also when the one asked
   * for cannot be resumed, in which case the link's `open` names the `reset` reason and the agent
   * gets a fresh `onConnect`. A connection of another live node is followed from the shared log.
   *
   * @throws A2uiError `FORBIDDEN` (another principal's connection), `LIMIT_EXCEEDED` (session caps,
   *   `data.retryAfterMs`), `CONNECTION_CLOSED` (the host is closing, `data.httpStatus` 503)
   */
  async connect(options: ConnectOptions): Promise<HostLink> {
    this.#assertOpen();
    const { principal, connectionId, sink } = options;
    const lastSeq = options.lastSeq ?? 0;
    const { protocolVersions } = options;
    if (connectionId === undefined) return this.#startLinked(sink, principal, protocolVersions);
    const local = this.#sessions.get(connectionId);
    if (local) {
      if (!this.#isSamePrincipal(local.principal, principal)) throw forbiddenError();
      const attached = await local.attach(sink, { lastSeq });
      if (attached.ok) return this.#linkOf(local, sink, true, attached);
      // The replacement takes the place of the connection it closes: no cap is crossed.
      local.close('reset');
      return this.#startLinked(sink, principal, protocolVersions, 'replay-gap', true);
    }
    const record = await this.registry.get(connectionId);
    if (record && record.owner !== this.nodeId) {
      if (!this.#isSamePrincipal(record.principal, principal)) throw forbiddenError();
      if (await this.#router.isAlive(record.owner)) {
        const followed = await this.#follow(record, lastSeq, sink);
        if (followed) return followed;
        // As for a connection of this node: the one that cannot be resumed ends with `reset`.
        await this.#forwardQuietly(record.owner, {
          type: 'disconnect',
          connectionId,
          reason: 'reset',
        });
        return this.#startLinked(sink, principal, protocolVersions, 'replay-gap');
      }
      await this.registry.delete(connectionId);
      return this.#startLinked(sink, principal, protocolVersions, 'owner-lost');
    }
    if (record) await this.registry.delete(connectionId);
    return this.#startLinked(sink, principal, protocolVersions, 'unknown-connection');
  }

  /**
   * Opens a connection without a link (REST `connect`, a new A2A context or AG-UI thread), or
   * reuses the one named by `id`. Its grace period runs from now; every request restarts it.
   *
   * @throws A2uiError `FORBIDDEN`, `LIMIT_EXCEEDED`, `CONNECTION_CLOSED` as {@link connect};
   *   `VALIDATION_FAILED` for an `id` that is empty or longer than 256 characters
   */
  async open(options: OpenOptions): Promise<OpenResult> {
    this.#assertOpen();
    const { id, principal } = options;
    if (id !== undefined) {
      if (typeof id !== 'string' || id.length === 0 || id.length > 256) {
        throw new A2uiError('VALIDATION_FAILED', 'A connection id has 1 to 256 characters.');
      }
      const local = this.#sessions.get(id);
      if (local) {
        if (!this.#isSamePrincipal(local.principal, principal)) throw forbiddenError();
        local.touch();
        return { connectionId: id, created: false };
      }
      const record = await this.registry.get(id);
      if (record && record.owner !== this.nodeId && (await this.#router.isAlive(record.owner))) {
        if (!this.#isSamePrincipal(record.principal, principal)) throw forbiddenError();
        await this.#forwardQuietly(record.owner, { type: 'touch', connectionId: id });
        return { connectionId: id, created: false };
      }
    }
    const key = this.#sessions.admit(principal);
    const session = await this.#create(principal, key, id, options.protocolVersions);
    session.touch();
    if (options.onCreated) {
      try {
        await options.onCreated(session.id);
      } catch (error) {
        session.close('server-closed');
        throw error;
      }
    }
    const turn = session.start();
    const result = options.awaitTurn ? await waitForTurn(turn, options.signal) : undefined;
    return {
      connectionId: session.id,
      created: true,
      connectTurn: turn,
      ...(result ? { turn: result } : {}),
    };
  }

  /**
   * Validates a client message and its metadata, and hands it to the agent of `connectionId`
   * after earlier ones; a repeated `requestId` is acknowledged without a second delivery.
   *
   * @throws A2uiError `VALIDATION_FAILED` (`path` into `{<kind>, metadata}`, `data.issues`; also
   *   for a request id longer than `maxRequestIdLength`, `data.field: 'requestId'`),
   *   `MESSAGE_TOO_LARGE` (above `maxClientMessageBytes`), `CONNECTION_CLOSED` (unknown or
   *   expired), `FORBIDDEN`, `LIMIT_EXCEEDED` (the agent is busy: `data.retryAfterMs`)
   */
  async receive(connectionId: string, options: HostReceiveOptions): Promise<HostReceiveResult> {
    const { message, metadata } = this.#checkInbound(options);
    return this.#deliver(connectionId, options, {
      type: 'receive',
      connectionId,
      message,
      metadata,
      requestId: options.requestId,
      ...(options.fingerprint === undefined ? {} : { fingerprint: options.fingerprint }),
      bytes: options.bytes,
      awaitTurn: options.awaitTurn ?? false,
    });
  }

  /**
   * Hands user text and host context to the agent's `onInput` (AG-UI, A2A).
   * @throws as {@link receive}
   */
  async input(connectionId: string, options: HostInputOptions): Promise<HostReceiveResult> {
    this.#checkRequestId(options.requestId);
    const checked = checkMetadata(options.metadata, this.#options, options.bytes);
    if (!checked.ok) throw this.#invalid(checked.issues);
    return this.#deliver(connectionId, options, {
      type: 'input',
      connectionId,
      input: options.input,
      metadata: checked.metadata,
      requestId: options.requestId,
      bytes: options.bytes ?? JSON.stringify(options.input).length,
      awaitTurn: options.awaitTurn ?? false,
    });
  }

  /**
   * Delivers the result of a host tool call the agent is waiting for (AG-UI: a `tool` message of
   * the next run). With `awaitTurn`, resolves with the turn that follows.
   * @throws A2uiError `VALIDATION_FAILED` when no call with that id is pending, and as {@link receive}
   */
  async toolResult(
    connectionId: string,
    options: RequestContext & { result: HostToolResult; awaitTurn?: boolean; signal?: AbortSignal },
  ): Promise<{ turn?: TurnResult }> {
    return this.#deliver(connectionId, options, {
      type: 'tool-result',
      connectionId,
      result: options.result,
      awaitTurn: options.awaitTurn ?? false,
    });
  }

  /**
   * Reads the messages after `afterSeq` — a second reader beside any link (long poll): with
   * `waitMs`, waits for one when none is there. `ok: false` means the client missed messages that
   * are no longer kept, and must reset.
   * @throws A2uiError `CONNECTION_CLOSED`, `FORBIDDEN`
   */
  async read(connectionId: string, options: HostReadOptions): Promise<ReadResult> {
    const local = this.#sessions.get(connectionId);
    if (local) {
      if (!this.#isSamePrincipal(local.principal, options.principal)) throw forbiddenError();
      local.touch();
      return local.read(options.afterSeq, options);
    }
    const record = await this.#remoteRecord(connectionId, options.principal);
    await this.#forwardQuietly(record.owner, { type: 'touch', connectionId });
    return readLog(this.#createReplayLog(connectionId), options.afterSeq, {
      ...options,
      snapshot: () => this.#remoteSnapshot(record.owner, connectionId),
    });
  }

  /**
   * Follows the stored messages of `connectionId` live, from `afterSeq` on: a reader beside any
   * link, read, or other follow (any number may run at once, each with its own cursor). While it
   * runs it counts as presence — the connection stays out of its grace period, exactly as with a
   * connected link — on this node or, for a connection another node runs, through the shared
   * stores (the owner counts it; turns answered here wait until it has their messages).
   *
   * Resolves once the follow is subscribed and the backlog after `afterSeq` is read: from then on
   * nothing the connection sends is missed, and messages wait in the follow until taken (iterate
   * it, or `next()` / `take()` for batches). It ends when the session ends (`ended` says why; an
   * owner node that is lost ends it with `reset`), on `signal`, `stop()` or the host's `close()`.
   *
   * @throws A2uiError `CONNECTION_CLOSED` — unknown or expired connection (`data.reset:
   *   'unknown-connection'`), or the messages after `afterSeq` are no longer kept, or `afterSeq` is
   *   ahead of the connection (`data.reset: 'replay-gap'`); `FORBIDDEN` for another principal's
   */
  async follow(connectionId: string, options: HostFollowOptions): Promise<SessionFollow> {
    const afterSeq = options.afterSeq ?? 0;
    const follow = new SessionFollow(connectionId, afterSeq, {
      maxBufferedBytes:
        options.maxBufferedBytes ??
        this.#options.replayBuffer?.maxBytes ??
        SESSION_HOST_DEFAULTS.replayBuffer.maxBytes,
      onReadable: options.onReadable,
    });
    const local = this.#sessions.get(connectionId);
    if (local && !this.#isSamePrincipal(local.principal, options.principal)) throw forbiddenError();
    const owner = local
      ? undefined
      : await this.#remoteRecord(connectionId, options.principal).catch((error: unknown) => {
          if (A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')
            throw cannotFollow(connectionId, afterSeq, 'unknown-connection');
          throw error;
        });
    const linkId = createConnectionId();
    const presence = (attached: boolean): RoutedRequest => ({
      type: 'link',
      connectionId,
      linkId,
      node: this.nodeId,
      attached,
    });
    let release = (): void => {};
    let stop = (): void => {};
    const stopFollow = () => follow.stop();
    const followed = await followLog(
      local ? local.replayLog : this.#createReplayLog(connectionId),
      {
        connectionId,
        lastSeq: afterSeq,
        sink: follow.sink,
        snapshot: async () =>
          local ? local.snapshotEntry() : this.#remoteSnapshot(owner!.owner, connectionId),
        beforeOpen: async () => {
          if (local) release = local.holdPresence();
          else await this.#forwardQuietly(owner!.owner, presence(true));
        },
        onStop: (reason) => {
          this.#followers.delete(stop);
          options.signal?.removeEventListener('abort', stopFollow);
          release();
          if (owner) void this.#forwardQuietly(owner.owner, presence(false));
          follow.finish(reason);
        },
      },
    );
    if (!followed) {
      const known = local ? !local.closed : await this.registry.get(connectionId);
      throw cannotFollow(connectionId, afterSeq, known ? 'replay-gap' : 'unknown-connection');
    }
    stop = followed.stop;
    follow.bindStop(stop);
    follow.start();
    if (follow.live) {
      this.#followers.set(stop, {
        connectionId,
        owner: owner?.owner ?? this.nodeId,
        sink: follow.sink,
        link: followed,
        follow: true,
      });
      options.signal?.addEventListener('abort', stopFollow, { once: true });
      if (options.signal?.aborted || this.#closing) follow.stop();
      // The owner may have died while the follow started (after onNodeDown ran): end it the same way.
      else if (owner && !(await this.#router.isAlive(owner.owner))) follow.sink.close('reset');
    }
    return follow;
  }

  /**
   * A long poll (REST `GET /messages`): acknowledges everything through `afterSeq` (as
   * {@link acknowledge}), then reads what follows (as {@link read}). An `afterSeq` beyond the last
   * message sent answers `ok: false` (a replay gap) and drops nothing. One poll per connection at a
   * time on this node: a newer one supersedes the one still waiting, which answers at once with
   * nothing and `superseded: true` — polls read at a cursor, so it takes nothing from the newer
   * one, and a client that retried a poll its network lost leaves no waiting reader behind.
   * @throws A2uiError `CONNECTION_CLOSED` (see {@link closedConnection} for what a client whose
   *   connection closed gets), `FORBIDDEN`
   */
  async poll(connectionId: string, options: HostPollOptions): Promise<HostPollResult> {
    const { principal, afterSeq } = options;
    const ticket = this.#polls.enter(connectionId);
    try {
      if (afterSeq > 0) {
        try {
          await this.acknowledge(connectionId, { principal, seq: afterSeq });
        } catch (error) {
          // Ahead of the connection: a replay gap, as for a resume (the client resets); the log,
          // the session and other readers stay as they were.
          if (isBeyondSentError(error)) return { ok: false, lastSeq: error.data.lastSeq };
          throw error;
        }
      }
      const read = await this.read(connectionId, {
        principal,
        afterSeq,
        waitMs: options.waitMs,
        limit: options.limit,
        signal: options.signal ? AbortSignal.any([options.signal, ticket.signal]) : ticket.signal,
      });
      if (ticket.superseded)
        return { ok: true, superseded: true, entries: [], lastSeq: read.lastSeq };
      return read;
    } finally {
      ticket.leave();
    }
  }

  /** Polls in progress on this node ({@link poll}). */
  get polls(): number {
    return this.#polls.size;
  }

  /**
   * The connection `connectionId` as its client may still see it after the agent closed it
   * (`server-closed`): the messages the client had not acknowledged, its last `seq`, and whether
   * the host's shutdown closed it. Kept `closedConnectionTtlMs` (off by default).
   * @returns `undefined` when it is not remembered (never closed, expired, or the feature is off)
   * @throws A2uiError `FORBIDDEN` when it belonged to another principal
   */
  async closedConnection(
    connectionId: string,
    options: RequestContext,
  ): Promise<ClosedConnection | undefined> {
    const closed = await this.#closed?.get(connectionId);
    if (closed && !this.#isSamePrincipal(closed.principal, options.principal))
      throw forbiddenError();
    return closed;
  }

  /** Closed connections remembered ({@link closedConnection}). */
  get closedConnections(): number {
    return this.#closed?.size ?? 0;
  }

  /** Forgets every closed connection at once (a binding's shutdown, once its last answers left). */
  forgetClosedConnections(): void {
    this.#closed?.clear();
  }

  /**
   * The client has every message through `seq`: the replay log may drop them.
   * @throws A2uiError `CONNECTION_CLOSED`, `FORBIDDEN`; `VALIDATION_FAILED` (`data.reason:
   *   'beyond-sent'`, `data.lastSeq`) when `seq` is beyond the last message the connection sent —
   *   nothing is dropped
   */
  async acknowledge(
    connectionId: string,
    options: RequestContext & { seq: number },
  ): Promise<void> {
    const local = this.#sessions.get(connectionId);
    if (local) {
      if (!this.#isSamePrincipal(local.principal, options.principal)) throw forbiddenError();
      await local.acknowledge(options.seq);
      return;
    }
    await this.#remoteRecord(connectionId, options.principal);
    const log = this.#createReplayLog(connectionId);
    const lastSeq = await log.lastSeq();
    if (options.seq > lastSeq) throw beyondSentError(options.seq, lastSeq);
    await log.trim(options.seq);
  }

  /**
   * The client is leaving: the agent sees `onDisconnect('client-closed')` at once.
   * @throws A2uiError `CONNECTION_CLOSED`, `FORBIDDEN`
   */
  async disconnect(connectionId: string, options: RequestContext): Promise<void> {
    const local = this.#sessions.get(connectionId);
    if (local) {
      if (!this.#isSamePrincipal(local.principal, options.principal)) throw forbiddenError();
      local.close('client-closed');
      return;
    }
    const record = await this.#remoteRecord(connectionId, options.principal);
    fromRouted(
      await this.#router.forward(
        record.owner,
        { type: 'disconnect', connectionId },
        { timeoutMs: this.#routeTimeoutMs },
      ),
    );
  }

  /** The live session of `connectionId` on this node (advanced bindings and tests). */
  session(connectionId: string): ConnectionSession | undefined {
    return this.#sessions.get(connectionId);
  }

  /** Live sessions of this node, oldest first. */
  sessions(): IterableIterator<ConnectionSession> {
    return this.#sessions.values();
  }

  stats(): SessionHostStats {
    const stats: SessionHostStats = {
      sessions: this.#sessions.size,
      links: 0,
      followerLinks: 0,
      graceTimers: 0,
      evictedSessions: this.#sessions.counters.evicted,
      refusedSessions: this.#sessions.counters.refused,
      queuedClientMessages: 0,
      queuedClientBytes: 0,
      rememberedRequests: 0,
      rememberedRequestBytes: 0,
      pendingToolCalls: 0,
    };
    for (const follower of this.#followers.values()) if (!follower.follow) stats.followerLinks++;
    for (const session of this.#sessions.values()) {
      if (session.attached) stats.links++;
      if (session.pendingGrace) stats.graceTimers++;
      const queued = session.queued;
      stats.queuedClientMessages += queued.messages;
      stats.queuedClientBytes += queued.bytes;
      const remembered = session.rememberedRequests;
      stats.rememberedRequests += remembered.count;
      stats.rememberedRequestBytes += remembered.bytes;
      stats.pendingToolCalls += session.pendingToolCalls;
    }
    return stats;
  }

  /** Whether {@link close} was called. */
  get closing(): boolean {
    return this.#closing;
  }

  /**
   * Closes every connection this node runs (agents see `server-closed`, links are closed), stops
   * following other nodes' connections and answering forwarded requests. Later `connect`/`open`
   * are refused with `CONNECTION_CLOSED` (HTTP 503).
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    for (const session of [...this.#sessions.values()]) session.close('server-closed');
    for (const stop of [...this.#followers.keys()]) stop();
    this.#stopNodeDown?.();
    await Promise.all([...this.#forwarding]);
    const stop = await this.#stopListening;
    await stop();
  }

  // ---- Internals ------------------------------------------------------------------------------

  get #routeTimeoutMs(): number {
    return this.#options.routeTimeoutMs ?? SESSION_HOST_DEFAULTS.routeTimeoutMs;
  }

  #assertOpen(): void {
    if (this.#closing) {
      throw new A2uiError('CONNECTION_CLOSED', 'The server is shutting down.', {
        data: { httpStatus: 503 },
      });
    }
  }

  #invalid(issues: readonly ValidationIssue[]): A2uiError {
    const first = issues[0]!;
    return new A2uiError('VALIDATION_FAILED', first.message, {
      path: first.path,
      data: { issues: [...issues] },
    });
  }

  #checkRequestId(requestId: string | undefined): void {
    const max = this.#options.maxRequestIdLength ?? INBOUND_DEFAULTS.maxRequestIdLength;
    if (requestId !== undefined && requestId.length > max) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `A request id has at most ${max} characters (this one has ${requestId.length}).`,
        { data: { field: 'requestId', maxRequestIdLength: max } },
      );
    }
  }

  #checkInbound(options: HostReceiveOptions): {
    message: ClientMessage;
    metadata: ClientMessageMetadata | undefined;
  } {
    const maxBytes = this.#options.maxClientMessageBytes ?? INBOUND_DEFAULTS.maxClientMessageBytes;
    if (options.bytes > maxBytes) {
      throw new A2uiError(
        'MESSAGE_TOO_LARGE',
        `The client message is ${options.bytes} bytes; at most ${maxBytes} are accepted.`,
        { data: { maxClientMessageBytes: maxBytes } },
      );
    }
    this.#checkRequestId(options.requestId);
    // v1.0 function-call messages (callAgentFunction, rendererFunctionResponse) have their own
    // shape check; everything else is a v0.9 client message.
    const issues = checkInboundMessage(options.message);
    if (issues.length > 0) throw this.#invalid(issues);
    const checked = checkMetadata(options.metadata, this.#options, options.bytes);
    if (!checked.ok) throw this.#invalid(checked.issues);
    return { message: options.message as ClientMessage, metadata: checked.metadata };
  }

  /** Runs a routed request here, or forwards it to the owner of its connection. */
  async #deliver(
    connectionId: string,
    context: RequestContext & { signal?: AbortSignal; onAccepted?: () => void },
    request: Extract<RoutedRequest, { type: 'receive' | 'input' | 'tool-result' }>,
  ): Promise<HostReceiveResult> {
    const local = this.#sessions.get(connectionId);
    if (local) {
      if (!this.#isSamePrincipal(local.principal, context.principal)) throw forbiddenError();
      const confirmed = this.#router.confirmLease?.();
      if (isPromise(confirmed)) await confirmed;
      const result = this.#runLocally(local, request);
      context.onAccepted?.();
      const turn = request.awaitTurn ? await waitForTurn(result.turn, context.signal) : undefined;
      return { duplicate: result.duplicate, ...(turn ? { turn } : {}) };
    }
    const record = await this.#remoteRecord(connectionId, context.principal);
    // The signal stops waiting for the turn only: the owner then answers at once, and that answer
    // still says whether the message was accepted (refused as busy, or a duplicate).
    const response = await this.#router
      .forward(record.owner, request, {
        signal: context.signal,
        timeoutMs: request.awaitTurn ? undefined : this.#routeTimeoutMs,
      })
      .catch((error: unknown) => {
        throw A2uiError.isInstance(error) && error.code === 'ABORTED' ? retryLater(error) : error;
      });
    const answer = fromRouted(response);
    context.onAccepted?.();
    // As on the owner, where a turn is over only once its messages reached the links: the links
    // of this node that follow the shared log get them a little later.
    const endSeq = answer.turn?.endSeq;
    if (endSeq !== undefined) {
      const waits: Promise<void>[] = [];
      for (const follower of this.#followers.values())
        if (follower.connectionId === connectionId)
          waits.push(follower.link.delivered(endSeq, this.#routeTimeoutMs));
      await Promise.all(waits);
    }
    return { duplicate: answer.duplicate ?? false, ...(answer.turn ? { turn: answer.turn } : {}) };
  }

  #runLocally(
    session: ConnectionSession,
    request: Extract<RoutedRequest, { type: 'receive' | 'input' | 'tool-result' }>,
  ): { duplicate: boolean; turn: Promise<TurnResult> } {
    if (request.type === 'receive')
      return session.receive(request.message, request.metadata, {
        requestId: request.requestId,
        fingerprint: request.fingerprint,
        bytes: request.bytes,
      });
    if (request.type === 'input')
      return session.receiveInput(request.input, request.metadata, {
        requestId: request.requestId,
        bytes: request.bytes,
      });
    const turn = session.resolveHostToolCall(request.result);
    if (!turn) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `No host tool call "${request.result.toolCallId}" is waiting for a result.`,
        { path: '/toolCallId' },
      );
    }
    return { duplicate: false, turn };
  }

  /** The record of a connection another live node runs, after the principal check. */
  async #remoteRecord(connectionId: string, principal: unknown): Promise<ConnectionRecord> {
    const record = await this.registry.get(connectionId);
    if (!record || record.owner === this.nodeId) throw closedError(connectionId);
    if (!this.#isSamePrincipal(record.principal, principal)) throw forbiddenError();
    if (!(await this.#router.isAlive(record.owner))) throw closedError(connectionId);
    return record;
  }

  async #handleRouted(request: RoutedRequest, signal?: AbortSignal): Promise<RoutedResponse> {
    try {
      const session = this.#sessions.get(request.connectionId);
      if (!session) throw closedError(request.connectionId);
      switch (request.type) {
        case 'receive':
        case 'input':
        case 'tool-result': {
          await this.#router.confirmLease?.();
          const result = this.#runLocally(session, request);
          // The asking node's signal: its caller stopped waiting for the turn (see `#deliver`).
          const turn = request.awaitTurn ? await waitForTurn(result.turn, signal) : undefined;
          return { ok: true, duplicate: result.duplicate, ...(turn ? { turn } : {}) };
        }
        case 'link':
          if (request.attached) session.attachRemote(request.linkId, request.node);
          else session.detachRemote(request.linkId);
          return { ok: true };
        case 'touch':
          session.touch();
          return { ok: true };
        case 'snapshot': {
          const entry = session.snapshotEntry();
          return entry
            ? { ok: true, snapshot: { seq: entry.seq, data: entry.data } }
            : { ok: true };
        }
        case 'disconnect':
          session.close(request.reason ?? 'client-closed');
          return { ok: true };
      }
    } catch (error) {
      if (!A2uiError.isInstance(error)) this.#reportError(error, request.connectionId);
      return toRoutedError(error);
    }
  }

  /** The owner's snapshot of a connection another node runs (`undefined`: none, or unreachable). */
  async #remoteSnapshot(owner: string, connectionId: string): Promise<ReplayEntry | undefined> {
    try {
      const answer = await this.#router.forward(
        owner,
        { type: 'snapshot', connectionId },
        { timeoutMs: this.#routeTimeoutMs },
      );
      return answer.ok ? answer.snapshot : undefined;
    } catch {
      return undefined;
    }
  }

  #forwardQuietly(owner: string, request: RoutedRequest): Promise<void> {
    const forwarding = (async () => {
      try {
        await this.#router.forward(owner, request, { timeoutMs: this.#routeTimeoutMs });
      } catch (error) {
        this.#reportError(error, request.connectionId);
      }
    })();
    // `close()` lets them finish (a follower's goodbye), so its caller may close the stores next.
    this.#forwarding.add(forwarding);
    void forwarding.then(() => this.#forwarding.delete(forwarding));
    return forwarding;
  }

  #reportError(error: unknown, connectionId: string): void {
    if (this.#options.onAgentError) this.#options.onAgentError(error, connectionId);
    else console.error(`[a2ui] session host error on connection ${connectionId}:`, error);
  }

  async #create(
    principal: unknown,
    key: unknown,
    id?: string,
    protocolVersions?: readonly string[],
  ): Promise<ConnectionSession> {
    const options = this.#options;
    const connectionId = id ?? createConnectionId();
    const session = new ConnectionSession({
      agent: options.agent,
      id: connectionId,
      principal,
      protocolVersions,
      replayLog: this.#createReplayLog(connectionId),
      maxSnapshotBytes:
        options.snapshots === false
          ? 0
          : (options.replayBuffer?.maxBytes ?? SESSION_HOST_DEFAULTS.replayBuffer.maxBytes),
      reconnectGraceMs: options.reconnectGraceMs,
      maxMessageBytes: options.maxMessageBytes,
      maxRememberedRequests: options.maxRememberedRequests,
      maxRememberedRequestBytes: options.maxRememberedRequestBytes,
      maxQueuedClientMessages: options.maxQueuedClientMessages,
      maxQueuedClientBytes: options.maxQueuedClientBytes,
      busyRetryAfterMs: options.busyRetryAfterMs,
      validateOutgoing: options.validateOutgoing,
      onAgentError: (error) => this.#reportError(error, connectionId),
      onDetached: (detached) => {
        this.#writeRecord(detached);
      },
      onClosed: () => {
        const deleted = this.registry.delete(connectionId);
        if (isPromise(deleted)) deleted.catch((error) => this.#reportError(error, connectionId));
      },
    });
    this.#sessions.track(session, key);
    const written = this.#writeRecord(session);
    if (isPromise(written)) await written;
    return session;
  }

  #writeRecord(session: ConnectionSession): MaybePromise<void> {
    const written = this.registry.set({
      id: session.id,
      principal: session.principal,
      owner: this.nodeId,
      createdAt: this.#sessions.createdAt(session),
      lastSeq: session.lastSeq,
    });
    if (isPromise(written)) return written.catch((error) => this.#reportError(error, session.id));
  }

  async #startLinked(
    sink: SessionSink,
    principal: unknown,
    protocolVersions: readonly string[] | undefined,
    reset?: ResetReason,
    replacing = false,
  ): Promise<HostLink> {
    const key = this.#sessions.admit(principal, replacing);
    const session = await this.#create(principal, key, undefined, protocolVersions);
    const attached = await session.attach(sink, reset ? { reset } : {});
    void session.start();
    return this.#linkOf(session, sink, false, attached, reset);
  }

  #linkOf(
    session: ConnectionSession,
    sink: SessionSink,
    resumed: boolean,
    attached: AttachResult,
    reset?: ResetReason,
  ): HostLink {
    return {
      connectionId: session.id,
      resumed,
      replayed: attached.ok ? attached.replayed : 0,
      ...(reset ? { reset } : {}),
      detach: () => session.detach(sink),
    };
  }

  /** A link on this node following a connection another node runs, from the shared log. */
  async #follow(
    record: ConnectionRecord,
    lastSeq: number,
    sink: SessionSink,
  ): Promise<HostLink | undefined> {
    const linkId = createConnectionId();
    const presence = (attached: boolean): RoutedRequest => ({
      type: 'link',
      connectionId: record.id,
      linkId,
      node: this.nodeId,
      attached,
    });
    let stop = (): void => {};
    const followed = await followLog(this.#createReplayLog(record.id), {
      connectionId: record.id,
      lastSeq,
      sink,
      snapshot: () => this.#remoteSnapshot(record.owner, record.id),
      // The owner counts this link, so its connection stays out of its grace period.
      beforeOpen: () => this.#forwardQuietly(record.owner, presence(true)),
      onStop: () => {
        this.#followers.delete(stop);
        void this.#forwardQuietly(record.owner, presence(false));
      },
    });
    if (!followed) return undefined;
    stop = followed.stop;
    this.#followers.set(stop, {
      connectionId: record.id,
      owner: record.owner,
      sink,
      link: followed,
    });
    // The owner may have died while the link opened (after onNodeDown ran): end it the same way.
    if (!(await this.#router.isAlive(record.owner))) {
      stop();
      sink.close('reset');
    }
    return { connectionId: record.id, resumed: true, replayed: followed.replayed, detach: stop };
  }
}

/**
 * Creates the session host a server binding delegates to.
 *
 * @param options - the agent, hooks, stores and bounds; see {@link SessionHostOptions}
 * @returns the {@link SessionHost}
 *
 * @example
 * ```ts
 * const host = createSessionHost({ agent, authenticate: (request) => userOf(request) });
 * // In a GET /sse handler:
 * const auth = await host.authenticate(request);
 * const link = await host.connect({ principal: auth.principal, connectionId, lastSeq, sink });
 * request.signal.addEventListener('abort', () => link.detach());
 * ```
 */
export function createSessionHost(options: SessionHostOptions): SessionHost {
  return new SessionHost(options);
}
