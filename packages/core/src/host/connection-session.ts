/**
 * The server side of one connection, on the node that runs its agent: sequencing and the replay
 * log, links (a streaming link, second readers, links of other nodes), the grace period, turns,
 * in-order and idempotent delivery of client input to the agent with bounds on what waits, host
 * tool calls, and cleanup. The {@link SessionHost} creates these; bindings talk to the host.
 */

import type {
  A2uiAgent,
  AgentInput,
  Connection,
  DisconnectReason,
  HostTool,
  HostToolCall,
  HostToolResult,
  RendererFunctionCallOptions,
} from '../agent/agent.js';
import { createConnectionId } from '../agent/connection-id.js';
import { emitVersionOf, supportsFunctionCalls } from '../agent/negotiated-connection.js';
import type { VersionedCapabilities } from '../catalog/renderer-capabilities.js';
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import type {
  ClientCapabilities,
  ClientDataModel,
  ClientMessage,
  ClientMessageMetadata,
  ServerMessage,
} from '../protocol/messages.js';
import { readRendererDataModel } from '../protocol/renderer-metadata.js';
import { AgentFunctionRegistry } from '../rpc/agent-functions.js';
import {
  ANSWERED_CALLS_DEFAULTS,
  AnsweredCalls,
  type AnsweredCallsOptions,
} from '../rpc/answered-calls.js';
import {
  type AgentFunctionResponseMessage,
  type CallRendererFunctionMessage,
  checkFunctionCallMessage,
  FUNCTION_CALL_VERSION,
  type FunctionResponse,
  getFunctionCallKind,
  readFunctionResponse,
} from '../rpc/function-call-messages.js';
import { PendingFunctionCalls } from '../rpc/pending-function-calls.js';
import { encodeSessionSnapshot } from '../transport/session-snapshot.js';
import { utf8ByteLength } from '../validation/parse-messages.js';
import { pointerAsSent } from '../versions/normalize-reserved-keys.js';
import type { ProtocolVersion } from '../versions/protocol-version.js';
import { defaultProtocolVersions } from '../versions/protocol-versions.js';
import type { AnyServerMessage } from '../versions/server-messages.js';
import {
  V08_SERVER_MESSAGE_KINDS,
  V08_STANDARD_CATALOG_ID,
  V08_VERSION,
} from '../versions/v0-8/v08-messages.js';
import { v08StandardValidator } from '../versions/v0-8/v08-validator.js';
import { isV10ActionOrError } from '../versions/v1-0-renderer-messages.js';
import {
  messageForValidators,
  type OutgoingValidator,
  validateOutgoingWithBuiltinCatalogs,
} from './outgoing-validator.js';
import {
  createMemoryReplayLog,
  type MaybePromise,
  type ReplayEntry,
  type ReplayLog,
} from './replay-log.js';
import { checkRequestFingerprint, RequestIdMemory } from './request-ids.js';
import { beyondSentError } from './sent-position.js';
import { SurfaceCompactor } from './surface-compactor.js';
import { type TurnOutcome, type TurnResult, TurnTracker } from './turn.js';

/** Why a fresh session replaced the one a client asked for. */
export type ResetReason =
  /** The connection id is unknown here (expired, evicted, or the server restarted). */
  | 'unknown-connection'
  /** The messages the client missed are no longer kept. */
  | 'replay-gap'
  /** The node that ran the connection is gone (scale-out). */
  | 'owner-lost';

/** What a link is told once it is bound to a connection, before any message reaches it. */
export interface LinkOpenInfo {
  readonly connectionId: string;
  /** True when the link continues the connection the client asked for. */
  readonly resumed: boolean;
  /** Messages replayed from the log before live ones (0 on a new connection). */
  readonly replayed: number;
  /** Set when the client asked to resume a connection that could not be, and got a new one. */
  readonly reset?: ResetReason;
  /**
   * True when the messages the client missed were no longer kept and it gets a snapshot of the
   * session's surfaces instead (one entry, `readSessionSnapshot`), on the same connection.
   */
  readonly snapshot?: boolean;
}

/** Where a session's messages go while a link is attached (an SSE response, a WebSocket). */
export interface SessionSink {
  /** Called once, before any delivery. */
  open?(info: LinkOpenInfo): void;
  /** Delivers one message, in `seq` order; must not throw. */
  deliver(entry: ReplayEntry): void;
  /** The connection ended, or a newer link replaced this one (`reset`): close the link. */
  close(reason: DisconnectReason): void;
  /** Carries a host tool call (AG-UI). Without it, `callHostTool` rejects with `NOT_SUPPORTED`. */
  deliverToolCall?(call: HostToolCall): void;
}

export type { OutgoingValidator } from './outgoing-validator.js';

/**
 * Bounds on what one connection holds. Sizes in bytes (UTF-16 code units of JSON text).
 * `maxRememberedAnswers` / `maxRememberedAnswerBytes` bound the answers to `callAgentFunction`
 * kept so that a retransmitted call is answered again without running twice.
 */
export interface SessionLimits extends AnsweredCallsOptions {
  /** Largest outgoing message (UTF-8); `send` throws `MESSAGE_TOO_LARGE` above. @default 1048576 */
  maxMessageBytes?: number;
  /** Request ids remembered to drop retried duplicates. @default 1000 */
  maxRememberedRequests?: number;
  /** Bytes of remembered request ids (their text + 64 per id). @default 262144 */
  maxRememberedRequestBytes?: number;
  /**
   * Client messages (and inputs) waiting for the agent, which handles one at a time. Beyond it,
   * receiving refuses with `LIMIT_EXCEEDED` (`data.retryAfterMs`) at once. @default 100
   */
  maxQueuedClientMessages?: number;
  /** Bytes of the client messages waiting for the agent (one message is always admitted). @default 4194304 */
  maxQueuedClientBytes?: number;
  /** The retry hint given with a `LIMIT_EXCEEDED` refusal of a busy connection. @default 1000 */
  busyRetryAfterMs?: number;
}

/** Default of `ConnectionSessionOptions.maxSnapshotBytes`: the replay log's default `maxBytes`. */
const SNAPSHOT_DEFAULT_MAX_BYTES = 4_194_304;

/** Defaults of {@link SessionLimits} and the grace period, in one place. */
export const SESSION_DEFAULTS = {
  reconnectGraceMs: 30_000,
  maxMessageBytes: 1_048_576,
  maxRememberedRequests: 1_000,
  maxRememberedRequestBytes: 262_144,
  maxQueuedClientMessages: 100,
  maxQueuedClientBytes: 4_194_304,
  busyRetryAfterMs: 1_000,
  ...ANSWERED_CALLS_DEFAULTS,
} as const;

/** Options of {@link ConnectionSession}. */
export interface ConnectionSessionOptions extends SessionLimits {
  agent: A2uiAgent;
  /** @default a fresh `createConnectionId()` */
  id?: string;
  /** What `authenticate(request)` returned. */
  principal?: unknown;
  /**
   * The versions negotiated for this connection, the one to emit first (see
   * `Connection.protocolVersions`). @default undefined (the client offered none)
   */
  protocolVersions?: readonly string[];
  /** Must be empty: a session numbers its messages from 1. @default a memory log with `DEFAULT_REPLAY_LOG_LIMITS` */
  replayLog?: ReplayLog;
  /**
   * Most UTF-16 code units of surface state kept for snapshots (a client the replay log no longer
   * covers gets the session's surfaces instead of a reset); 0 keeps none (such a client is reset).
   * Keep it at the replay log's `maxBytes`, so a session holds at most twice that.
   * @default 4194304
   */
  maxSnapshotBytes?: number;
  /**
   * How long the session lives with no link, no waiting reader and no request before the agent's
   * `onDisconnect('grace-expired')` runs. @default 30000
   */
  reconnectGraceMs?: number;
  /**
   * Catalog validation of outgoing messages (see {@link OutgoingValidator}), with the catalog of
   * their surface when known; a problem makes `send` throw `VALIDATION_FAILED` with its pointer
   * and nothing of the batch is sent. It sees v0.9/v0.9.1 messages as v0.9 and v1.0 messages as
   * `"v1.0"` with bare reserved keys. `false` skips it: v0.9 messages are then checked for their
   * envelope only, v1.0 messages by the v1.0 reader only (envelope, fields, types). v0.8 messages
   * are always checked by the v0.8 module.
   * @default validateOutgoingWithBuiltinCatalogs: the v0.9 schema with the basic or minimal
   *   catalog when the surface uses one; each v1.0 component against the v1.0 basic catalog when
   *   it resolves to it (its own `catalogId`, else the surface's `createSurface.catalogId`)
   */
  validateOutgoing?: OutgoingValidator | false;
  /** Called once when the session ends (the host forgets it here). */
  onClosed?: (session: ConnectionSession, reason: DisconnectReason) => void;
  /** Called when the last link detaches (the host records the last seq here). */
  onDetached?: (session: ConnectionSession) => void;
  /** Receives errors thrown by agent hooks and failed replay-log writes. @default console.error */
  onAgentError?: (error: unknown, session: ConnectionSession) => void;
}

/** Result of {@link ConnectionSession.attach}. */
export type AttachResult =
  | { ok: true; replayed: number }
  /** The messages after `lastSeq` are gone (or were never sent): the caller must reset the client. */
  | { ok: false };

/** Result of delivering client input to the agent. */
export interface ReceiveResult {
  /** True when the request id was seen before: nothing new reached the agent. */
  readonly duplicate: boolean;
  /** Settles when the agent's turn for this input is over (for a duplicate: the original's). */
  readonly turn: Promise<TurnResult>;
}

/** Options of {@link ConnectionSession.receive}. */
export interface ReceiveOptions {
  /** Idempotency key: a repeated id is not delivered again. Compared by exact text. */
  requestId?: string;
  /**
   * Fingerprint of the request's body (an opaque string, e.g. a SHA-256): a repeated
   * `requestId` with another fingerprint is refused, not taken for a retry.
   */
  fingerprint?: string;
  /** Size of the input as received, for `maxQueuedClientBytes`. @default its JSON length */
  bytes?: number;
}

/** Result of {@link ConnectionSession.read}. */
export type ReadResult =
  | { ok: true; entries: ReplayEntry[]; lastSeq: number }
  /** Messages after `afterSeq` are no longer kept (or were never sent): the reader must reset. */
  | { ok: false; lastSeq: number };

/** Options of {@link ConnectionSession.read}. */
export interface ReadOptions {
  /** When nothing is there yet, wait up to this long for a message. @default 0 */
  waitMs?: number;
  /** Most entries returned. @default all */
  limit?: number;
  /** Stops waiting (resolves with what there is). */
  signal?: AbortSignal;
}

/**
 * Checks a message of a version the engine does not apply natively (v1.0) the way the renderer
 * will read it: its module's reader (envelope, required fields, types, unknown keys).
 * @throws A2uiError `VALIDATION_FAILED` with the module's pointer
 */
function checkNonNativeMessage(
  version: ProtocolVersion,
  message: Record<string, unknown>,
  at: string,
): void {
  try {
    if (version.createReader) version.createReader().read(message);
    else version.toInternal(message);
  } catch (error) {
    const known = A2uiError.isInstance(error) ? error : undefined;
    throw new A2uiError(
      'VALIDATION_FAILED',
      `${known?.message ?? `Not a valid ${version.name} message.`}${at}`,
      { path: known?.path ?? '' },
    );
  }
}

/**
 * The module a server message is written in: its envelope `version`, or, without one, the
 * version-less module (v0.8) that has its message kind.
 */
function versionOf(message: unknown): ProtocolVersion | undefined {
  if (!isRecord(message)) return undefined;
  return message.version === undefined
    ? defaultProtocolVersions.findVersionless(message)
    : defaultProtocolVersions.find(message.version);
}

/**
 * A v0.8 `surfaceUpdate` for a surface whose `beginRendering` named the standard catalog is
 * checked against that catalog's v0.8 schema (the reader alone knows no catalog yet: v0.8 agents
 * often send components before `beginRendering`, and those get the catalog-agnostic check).
 * @throws A2uiError `VALIDATION_FAILED` with the schema's pointer
 */
function checkV08Components(
  message: Record<string, unknown>,
  surfaceCatalogs: ReadonlyMap<string, string>,
  at: string,
): void {
  const body = message.surfaceUpdate;
  if (!isRecord(body) || typeof body.surfaceId !== 'string') return;
  if (surfaceCatalogs.get(body.surfaceId) !== V08_STANDARD_CATALOG_ID) return;
  const [issue] = v08StandardValidator.validateServerMessage(message);
  if (issue) {
    throw new A2uiError('VALIDATION_FAILED', `${issue.message}${at}`, {
      path: issue.path,
      surfaceId: body.surfaceId,
    });
  }
}

/** `Array.isArray` for a readonly batch: a message itself is never an array. */
const isMessageList = (
  messages: AnyServerMessage | readonly AnyServerMessage[],
): messages is readonly AnyServerMessage[] => Array.isArray(messages);

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | undefined)?.then === 'function';

interface PendingToolCall {
  resolve(result: HostToolResult): void;
  reject(error: unknown): void;
}

/**
 * One agent connection, and the {@link Connection} its agent sees.
 *
 * @example
 * ```ts
 * const session = new ConnectionSession({ agent });
 * await session.attach({ deliver: (entry) => write(entry.data), close: () => end() });
 * await session.start(); // the onConnect turn
 * ```
 */
export class ConnectionSession implements Connection {
  readonly id: string;
  readonly principal: unknown;
  readonly protocolVersions: readonly string[] | undefined;
  readonly #agent: A2uiAgent;
  readonly #log: ReplayLog;
  readonly #graceMs: number;
  readonly #maxMessageBytes: number;
  readonly #maxQueued: number;
  readonly #maxQueuedBytes: number;
  readonly #busyRetryAfterMs: number;
  readonly #validate: OutgoingValidator | undefined;
  readonly #options: ConnectionSessionOptions;
  readonly #onAgentError: (error: unknown, session: ConnectionSession) => void;
  readonly #abort = new AbortController();
  readonly #requests: RequestIdMemory;
  readonly #surfaceCatalogs = new Map<string, string>();
  /** The surfaces as sent, for snapshots; `undefined` when they are not kept. */
  readonly #surfaces: SurfaceCompactor | undefined;
  readonly #remoteLinks = new Map<string, string>();
  readonly #readWaiters = new Set<() => void>();
  readonly #toolCalls = new Map<string, PendingToolCall>();
  readonly #rendererCalls = new PendingFunctionCalls();
  readonly #agentFunctions: AgentFunctionRegistry;
  readonly #answeredCalls: AnsweredCalls;
  /** Renderer calls made by a running hook, with its run number: their answer continues its turn. */
  readonly #callsInTurn = new Map<string, number>();
  /** Number of the hook running now, 0 when none is. */
  #hookRun = 0;
  #hookRuns = 0;
  #sink: SessionSink | undefined;
  #attachGeneration = 0;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  #waitingReaders = 0;
  #followers = 0;
  #chain: Promise<void> = Promise.resolve();
  #queued = 0;
  #queuedBytes = 0;
  #currentTurn: TurnTracker | undefined;
  #seq = 0;
  #capabilities: ClientCapabilities | undefined;
  #rendererCapabilities: VersionedCapabilities | undefined;
  #dataModel: ClientDataModel | undefined;
  #hostTools: readonly HostTool[] = [];
  #toolCallCounter = 0;

  constructor(options: ConnectionSessionOptions) {
    const defaults = SESSION_DEFAULTS;
    this.#options = options;
    this.id = options.id ?? createConnectionId();
    this.principal = options.principal;
    this.protocolVersions = options.protocolVersions
      ? Object.freeze([...options.protocolVersions])
      : undefined;
    this.#agent = options.agent;
    this.#agentFunctions = new AgentFunctionRegistry(options.agent.functions ?? [], {
      onFunctionError: (error) => this.#onAgentError(error, this),
    });
    this.#answeredCalls = new AnsweredCalls(options);
    this.#log = options.replayLog ?? createMemoryReplayLog();
    const maxSnapshotBytes = options.maxSnapshotBytes ?? SNAPSHOT_DEFAULT_MAX_BYTES;
    this.#surfaces =
      maxSnapshotBytes > 0 ? new SurfaceCompactor({ maxBytes: maxSnapshotBytes }) : undefined;
    this.#graceMs = options.reconnectGraceMs ?? defaults.reconnectGraceMs;
    this.#maxMessageBytes = options.maxMessageBytes ?? defaults.maxMessageBytes;
    this.#maxQueued = Math.max(
      1,
      options.maxQueuedClientMessages ?? defaults.maxQueuedClientMessages,
    );
    this.#maxQueuedBytes = options.maxQueuedClientBytes ?? defaults.maxQueuedClientBytes;
    this.#busyRetryAfterMs = options.busyRetryAfterMs ?? defaults.busyRetryAfterMs;
    this.#requests = new RequestIdMemory({
      maxCount: Math.max(1, options.maxRememberedRequests ?? defaults.maxRememberedRequests),
      maxBytes: options.maxRememberedRequestBytes ?? defaults.maxRememberedRequestBytes,
    });
    this.#validate =
      options.validateOutgoing === false
        ? undefined
        : (options.validateOutgoing ?? validateOutgoingWithBuiltinCatalogs);
    this.#onAgentError =
      options.onAgentError ??
      ((error) => {
        console.error(`[a2ui] agent hook failed on connection ${this.id}:`, error);
      });
  }

  // ---- The Connection the agent sees ----------------------------------------------------------

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#capabilities;
  }

  get rendererCapabilities(): VersionedCapabilities | undefined {
    return this.#rendererCapabilities;
  }

  get clientDataModel(): ClientDataModel | undefined {
    return this.#dataModel;
  }

  get hostTools(): readonly HostTool[] {
    return this.#hostTools;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get closed(): boolean {
    return this.#abort.signal.aborted;
  }

  send(messages: AnyServerMessage | readonly AnyServerMessage[]): void {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    const list: readonly AnyServerMessage[] = isMessageList(messages) ? messages : [messages];
    if (!supportsFunctionCalls(this)) {
      const rpc = list.map(getFunctionCallKind).find((kind) => kind !== undefined);
      if (rpc !== undefined) throw functionCallsNotNegotiated(this, rpc);
    }
    // Serialise and check every message before sending any, so a bad batch sends nothing.
    const encoded = list.map((message, index) =>
      this.#encode(message, list.length > 1 ? index : undefined),
    );
    const entries = encoded.map(
      (data, index): ReplayEntry => ({ seq: ++this.#seq, data, message: list[index]! }),
    );
    const surfaces = this.#surfaces;
    if (surfaces) for (const entry of entries) surfaces.note(entry.message, entry.data.length);
    const appended = this.#log.append(entries);
    if (isPromise(appended)) appended.catch((error) => this.#onAgentError(error, this));
    const sink = this.#sink;
    if (sink) for (const entry of entries) sink.deliver(entry);
    if (this.#readWaiters.size > 0) for (const wake of [...this.#readWaiters]) wake();
  }

  endTurn(): void {
    const turn = this.#currentTurn;
    this.#currentTurn = undefined;
    turn?.end(this.#seq, 'completed');
  }

  callHostTool(
    call: { name: string; args: unknown },
    options: { signal?: AbortSignal } = {},
  ): Promise<HostToolResult> {
    if (this.closed)
      return Promise.reject(new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`));
    const sink = this.#sink;
    if (!sink?.deliverToolCall) {
      return Promise.reject(
        new A2uiError(
          'NOT_SUPPORTED',
          `This transport carries no host tool calls (asked for "${call.name}").`,
        ),
      );
    }
    if (options.signal?.aborted)
      return Promise.reject(new A2uiError('ABORTED', 'The tool call was aborted.'));
    const id = `${this.id}-tool-${++this.#toolCallCounter}`;
    const result = new Promise<HostToolResult>((resolve, reject) => {
      const onAbort = () => {
        this.#toolCalls.delete(id);
        reject(new A2uiError('ABORTED', 'The tool call was aborted.'));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => options.signal?.removeEventListener('abort', onAbort);
      this.#toolCalls.set(id, {
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
    });
    sink.deliverToolCall({ id, name: call.name, args: call.args });
    this.endTurn();
    return result;
  }

  callRendererFunction(
    name: string,
    args: Record<string, unknown> | undefined,
    options: RendererFunctionCallOptions,
  ): Promise<unknown> {
    if (this.closed)
      return Promise.reject(new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`));
    // Function calls exist from v1.0 on: a client that negotiated an older version would not
    // understand the call (or could not answer it), so nothing is sent.
    if (!supportsFunctionCalls(this))
      return Promise.reject(functionCallsNotNegotiated(this, 'callRendererFunction'));
    const functionCallId = options.functionCallId ?? this.#rendererCalls.nextId('fn');
    const result = this.#rendererCalls.start(functionCallId, name, options);
    if (this.#hookRun !== 0) {
      this.#callsInTurn.set(functionCallId, this.#hookRun);
      const forget = () => this.#callsInTurn.delete(functionCallId);
      result.then(forget, forget);
    }
    const message: CallRendererFunctionMessage = {
      version: FUNCTION_CALL_VERSION,
      callRendererFunction: {
        functionCallId,
        callFunction: { call: name, catalogId: options.catalogId, args: args ?? {} },
      },
    };
    try {
      this.send(message as unknown as ServerMessage);
    } catch (error) {
      this.#rendererCalls.fail(
        functionCallId,
        A2uiError.isInstance(error) ? error : new A2uiError('INTERNAL_ERROR', String(error)),
      );
    }
    this.endTurn();
    return result;
  }

  close(reason: DisconnectReason = 'server-closed'): void {
    if (this.closed) return;
    this.#clearGrace();
    this.#abort.abort();
    const sink = this.#sink;
    this.#sink = undefined;
    sink?.close(reason);
    for (const wake of [...this.#readWaiters]) wake();
    const calls = [...this.#toolCalls.values()];
    this.#toolCalls.clear();
    for (const call of calls)
      call.reject(new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} closed (${reason}).`));
    this.#rendererCalls.failAll(
      new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} closed (${reason}).`),
    );
    this.#currentTurn?.end(this.#seq, 'closed');
    this.#currentTurn = undefined;
    const ended = this.#log.end(reason);
    if (isPromise(ended)) ended.catch((error) => this.#onAgentError(error, this));
    this.#requests.clear();
    this.#answeredCalls.clear();
    this.#surfaceCatalogs.clear();
    this.#surfaces?.clear();
    this.#remoteLinks.clear();
    // onDisconnect runs after every hook already accepted, then the session is forgotten.
    void this.#enqueue(() => this.#agent.onDisconnect?.(this, reason), 0, new TurnTracker()).then(
      () => this.#options.onClosed?.(this, reason),
    );
  }

  // ---- What the host and bindings use ---------------------------------------------------------

  /** True while a streaming link (a sink) is attached on this node. */
  get attached(): boolean {
    return this.#sink !== undefined;
  }

  /** Links of other nodes following this connection from the shared log. */
  get remoteLinks(): number {
    return this.#remoteLinks.size;
  }

  /** Second readers (long polls) waiting for a message right now. */
  get waitingReaders(): number {
    return this.#waitingReaders;
  }

  /** Readers following the log on this node (`SessionHost.follow`). */
  get followers(): number {
    return this.#followers;
  }

  /** Sequence number of the last message sent. */
  get lastSeq(): number {
    return this.#seq;
  }

  /** True while the grace timer runs (no link, no reader). */
  get pendingGrace(): boolean {
    return this.#graceTimer !== undefined;
  }

  /** Client messages and inputs waiting for the agent, and their bytes. */
  get queued(): { messages: number; bytes: number } {
    return { messages: this.#queued, bytes: this.#queuedBytes };
  }

  /** Remembered request ids and their bytes. */
  get rememberedRequests(): { count: number; bytes: number } {
    return this.#requests.size;
  }

  /** Host tool calls awaiting their result. */
  get pendingToolCalls(): number {
    return this.#toolCalls.size;
  }

  /** The replay log (for diagnostics and leak tests). */
  get replayLog(): ReplayLog {
    return this.#log;
  }

  /**
   * The session's surfaces as of its last message, as one entry of `seq` {@link lastSeq} whose
   * data is a snapshot envelope (`encodeSessionSnapshot`): what a client the replay log no longer
   * covers gets instead of a reset. `undefined` when the surfaces are not kept (v0.8, above
   * `maxSnapshotBytes`, `maxSnapshotBytes: 0`) or the session is closed.
   */
  snapshotEntry(): ReplayEntry | undefined {
    const messages = this.closed ? undefined : this.#surfaces?.snapshot();
    if (!messages) return undefined;
    return {
      seq: this.#seq,
      data: encodeSessionSnapshot({ throughSeq: this.#seq, messages }),
    };
  }

  /** Runs the agent's `onConnect`: the first turn. */
  start(): Promise<TurnResult> {
    const tracker = new TurnTracker();
    void this.#enqueue(() => this.#agent.onConnect?.(this), 0, tracker);
    return tracker.done;
  }

  /**
   * Attaches a streaming link. With `lastSeq`, first replays every message after it (resume); the
   * link's `open` is called before anything is delivered. Replaces (closes with `reset`) a link
   * that is still attached. Messages sent while the replay is read reach the link after it.
   */
  async attach(
    sink: SessionSink,
    options: { lastSeq?: number; reset?: ResetReason } = {},
  ): Promise<AttachResult> {
    if (this.closed) return { ok: false };
    const lastSeq = options.lastSeq;
    if (lastSeq !== undefined && (lastSeq > this.#seq || lastSeq < 0)) return { ok: false };
    const generation = ++this.#attachGeneration;
    // Until the replay is read, live messages are held so that they follow it in order.
    const held: ReplayEntry[] = [];
    const holding: SessionSink = { deliver: (entry) => held.push(entry), close: () => {} };
    const previous = this.#sink;
    let replay: ReplayEntry[] = [];
    let snapshotted = false;
    if (lastSeq !== undefined && lastSeq < this.#seq) {
      this.#sink = holding;
      const read = this.#log.read(lastSeq);
      const missed = isPromise(read) ? await read : read;
      if (generation !== this.#attachGeneration || this.closed) return { ok: false };
      // Missed messages no longer kept: the surfaces as of now instead, when they are kept.
      const snapshot = missed === undefined ? this.snapshotEntry() : undefined;
      if (missed === undefined && !snapshot) {
        this.#sink = previous;
        if (previous) for (const entry of held) previous.deliver(entry);
        return { ok: false };
      }
      replay = missed ?? [snapshot!];
      snapshotted = snapshot !== undefined;
    }
    this.#sink = sink;
    this.#clearGrace();
    if (previous && previous !== sink) previous.close('reset');
    const replayedThrough = replay.at(-1)?.seq ?? lastSeq ?? 0;
    const live = held.filter((entry) => entry.seq > replayedThrough);
    sink.open?.({
      connectionId: this.id,
      resumed: lastSeq !== undefined && options.reset === undefined,
      replayed: replay.length,
      ...(options.reset ? { reset: options.reset } : {}),
      ...(snapshotted ? { snapshot: true } : {}),
    });
    for (const entry of replay) sink.deliver(entry);
    for (const entry of live) sink.deliver(entry);
    return { ok: true, replayed: replay.length };
  }

  /** Detaches `sink` (its link dropped); with nothing else attached, the grace period starts. */
  detach(sink: SessionSink): void {
    if (this.#sink !== sink) return;
    this.#sink = undefined;
    this.#afterDetach();
  }

  /** A link of node `node` follows this connection from the shared log. */
  attachRemote(linkId: string, node: string): void {
    if (this.closed) return;
    this.#remoteLinks.set(linkId, node);
    this.#clearGrace();
  }

  detachRemote(linkId: string): void {
    if (!this.#remoteLinks.delete(linkId)) return;
    this.#afterDetach();
  }

  /**
   * A reader follows this connection's log on this node (`SessionHost.follow`): like a link, it
   * keeps the connection out of its grace period until released.
   * @returns the release (idempotent); the last one released starts the grace period
   */
  holdPresence(): () => void {
    if (this.closed) return () => {};
    this.#followers++;
    this.#clearGrace();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#followers--;
      this.#afterDetach();
    };
  }

  /** Node `node` is gone: its links are. */
  detachNode(node: string): void {
    let removed = false;
    for (const [linkId, owner] of this.#remoteLinks)
      if (owner === node) removed = this.#remoteLinks.delete(linkId) || removed;
    if (removed) this.#afterDetach();
  }

  /** A request arrived for this connection: with no link attached, the grace period starts over. */
  touch(): void {
    if (this.closed || this.#hasReader()) return;
    this.#startGrace();
  }

  /**
   * Hands a client message to the agent, after earlier ones. A repeated `requestId` is not
   * delivered again: the result names the original turn.
   * @throws A2uiError `CONNECTION_CLOSED` after close; `LIMIT_EXCEEDED` (with `data.retryAfterMs`)
   *   when `maxQueuedClientMessages` / `maxQueuedClientBytes` are reached
   */
  receive(
    message: ClientMessage,
    metadata: ClientMessageMetadata | undefined,
    options: ReceiveOptions = {},
  ): ReceiveResult {
    const rpc = getFunctionCallKind(message);
    if (rpc !== undefined && !supportsFunctionCalls(this))
      throw functionCallsNotNegotiated(this, rpc);
    // v1.0's action and error come only from a client that negotiated v1.0 (which may still send
    // v0.9's shape, as clients before this rule did); the agent gets the same hook either way.
    if (rpc === undefined && isV10ActionOrError(message) && !supportsFunctionCalls(this))
      throw v10MessageNotNegotiated(this, 'action' in message ? 'action' : 'error');
    if (rpc === 'rendererFunctionResponse') return this.#settleRendererCall(message, metadata);
    if (rpc === 'callAgentFunction') return this.#receiveAgentCall(message, metadata, options);
    return this.#admit(
      options,
      () => JSON.stringify(message).length,
      () => {
        if ('action' in message) return this.#agent.onAction?.(this, message.action, metadata);
        return this.#agent.onError?.(this, message.error, metadata);
      },
      metadata,
    );
  }

  /**
   * A `rendererFunctionResponse` settles the agent's waiting call at once, never queued behind the
   * hook that is waiting for it. When a hook made the call, the answer starts a continuation turn
   * that ends when that hook settles (or ends its turn): a turn-based binding answers the request
   * that carried the response with what the agent sends next. A late, repeated or unknown answer
   * is dropped and starts no turn.
   */
  #settleRendererCall(
    message: ClientMessage,
    metadata: ClientMessageMetadata | undefined,
  ): ReceiveResult {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    this.touch();
    this.#noteMetadata(metadata);
    const response = readFunctionResponse(message as unknown as Record<string, unknown>);
    const caller = response && this.#callsInTurn.get(response.functionCallId);
    let tracker: TurnTracker | undefined;
    if (caller !== undefined && caller === this.#hookRun) {
      this.endTurn();
      tracker = new TurnTracker();
      tracker.start(this.#seq);
      this.#currentTurn = tracker;
    }
    const settled = response !== undefined && this.#rendererCalls.settle(response);
    if (tracker && !settled) {
      tracker.end(this.#seq, 'completed');
      this.#currentTurn = undefined;
    }
    return {
      duplicate: !settled,
      turn:
        tracker?.done ??
        Promise.resolve({ startSeq: this.#seq, endSeq: this.#seq, outcome: 'completed' }),
    };
  }

  /**
   * A `callAgentFunction` runs once per `functionCallId`, in order with the other client messages:
   * a retransmission (a retry after a lost answer, with or without the same request id) is not
   * run again. It gets the remembered answer sent again when it is known, or waits for it.
   */
  #receiveAgentCall(
    message: ClientMessage,
    metadata: ClientMessageMetadata | undefined,
    options: ReceiveOptions,
  ): ReceiveResult {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    const body = (message as unknown as { callAgentFunction: { functionCallId: string } })
      .callAgentFunction;
    const functionCallId = body.functionCallId;
    const retried = options.requestId !== undefined && this.#requests.get(options.requestId);
    const known = retried ? undefined : this.#answeredCalls.get(functionCallId);
    if (known) {
      this.touch();
      const startSeq = this.#seq;
      // A known answer is sent again before the turn resolves (callbacks run in order).
      if (known.answered) void known.answer.then((response) => this.#sendAgentAnswer(response));
      return { duplicate: true, turn: known.answer.then(() => this.#turnSince(startSeq)) };
    }
    let answer!: (response: FunctionResponse) => void;
    const answered = new Promise<FunctionResponse>((resolve) => {
      answer = resolve;
    });
    const result = this.#admit(
      options,
      () => JSON.stringify(message).length,
      async () => {
        const response = await this.#agentFunctions.handle(body);
        this.#sendAgentAnswer(response);
        answer(response);
      },
      metadata,
    );
    if (!result.duplicate) this.#answeredCalls.remember(functionCallId, answered);
    return result;
  }

  #sendAgentAnswer(response: FunctionResponse): void {
    if (this.closed) return;
    const message: AgentFunctionResponseMessage = {
      version: FUNCTION_CALL_VERSION,
      agentFunctionResponse: response,
    };
    try {
      this.send(message as unknown as ServerMessage);
    } catch (error) {
      // An answer too large to send: the agent's bug, told to it; the caller times out.
      this.#onAgentError(error, this);
    }
  }

  #turnSince(startSeq: number): TurnResult {
    return {
      startSeq,
      endSeq: this.#seq,
      outcome: this.closed ? 'closed' : 'completed',
    };
  }

  #noteMetadata(metadata: ClientMessageMetadata | undefined): void {
    if (metadata?.a2uiClientCapabilities) this.#capabilities = metadata.a2uiClientCapabilities;
    if (isRecord(metadata?.a2uiRendererCapabilities))
      this.#rendererCapabilities = metadata.a2uiRendererCapabilities as VersionedCapabilities;
    const dataModel = readRendererDataModel(metadata);
    if (dataModel) this.#dataModel = dataModel;
  }

  /**
   * Hands user text and host context to the agent's `onInput`, after earlier client messages.
   * @throws as {@link receive}
   */
  receiveInput(
    input: AgentInput,
    metadata: ClientMessageMetadata | undefined,
    options: ReceiveOptions = {},
  ): ReceiveResult {
    return this.#admit(
      options,
      () => JSON.stringify(input).length,
      () => {
        if (input.tools) this.#hostTools = input.tools;
        return this.#agent.onInput?.(this, input, metadata);
      },
      metadata,
    );
  }

  /**
   * Resolves the agent's pending `callHostTool` whose call `result.toolCallId` names. The turn
   * that follows starts now and ends when the waiting hook settles or ends its turn.
   * @returns the continuation turn, or `undefined` when no such call is pending
   */
  resolveHostToolCall(result: HostToolResult): Promise<TurnResult> | undefined {
    const pending = this.#toolCalls.get(result.toolCallId);
    if (!pending || this.closed) return undefined;
    this.#toolCalls.delete(result.toolCallId);
    this.endTurn();
    const tracker = new TurnTracker();
    tracker.start(this.#seq);
    this.#currentTurn = tracker;
    pending.resolve(result);
    return tracker.done;
  }

  /**
   * Reads the messages after `afterSeq` from the log — a second reader beside any link (long poll):
   * with `waitMs`, waits until one exists. A waiting reader keeps the connection out of its grace
   * period.
   * @throws A2uiError `CONNECTION_CLOSED` when the connection is closed
   */
  async read(afterSeq: number, options: ReadOptions = {}): Promise<ReadResult> {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    if (afterSeq > this.#seq || afterSeq < 0) return { ok: false, lastSeq: this.#seq };
    const waitMs = options.waitMs ?? 0;
    if (afterSeq === this.#seq && waitMs > 0 && !options.signal?.aborted) {
      this.#waitingReaders++;
      this.#clearGrace();
      try {
        await this.#waitForMessage(afterSeq, waitMs, options.signal);
      } finally {
        this.#waitingReaders--;
        if (!this.closed && !this.#hasReader()) this.#startGrace();
      }
    }
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    const read = this.#log.read(afterSeq, { limit: options.limit });
    const entries = isPromise(read) ? await read : read;
    if (entries === undefined) {
      const snapshot = this.snapshotEntry();
      return snapshot
        ? { ok: true, entries: [snapshot], lastSeq: this.#seq }
        : { ok: false, lastSeq: this.#seq };
    }
    return { ok: true, entries, lastSeq: this.#seq };
  }

  /**
   * The client has every message through `seq`: the log may drop them.
   * @throws A2uiError `VALIDATION_FAILED` (`data.reason: 'beyond-sent'`) when `seq` is beyond the
   *   last message sent: nothing is dropped (see `sent-position.ts`)
   */
  acknowledge(seq: number): MaybePromise<void> {
    if (this.closed || seq <= 0) return;
    if (seq > this.#seq) throw beyondSentError(seq, this.#seq);
    return this.#log.trim(seq);
  }

  // ---- Internals --------------------------------------------------------------------------------

  #admit(
    options: ReceiveOptions,
    measure: () => number,
    hook: () => void | Promise<void>,
    metadata: ClientMessageMetadata | undefined,
  ): ReceiveResult {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    const { requestId, fingerprint } = options;
    if (requestId !== undefined) {
      const original = this.#requests.get(requestId);
      if (original) {
        checkRequestFingerprint(original.fingerprint, fingerprint);
        return { duplicate: true, turn: original.turn };
      }
    }
    const bytes = options.bytes ?? measure();
    if (
      this.#queued >= this.#maxQueued ||
      (this.#queued > 0 && this.#queuedBytes + bytes > this.#maxQueuedBytes)
    ) {
      throw new A2uiError(
        'LIMIT_EXCEEDED',
        `The agent is busy: ${this.#queued} client messages (${this.#queuedBytes} bytes) are already waiting; retry later.`,
        { data: { retryAfterMs: this.#busyRetryAfterMs } },
      );
    }
    this.touch();
    const tracker = new TurnTracker();
    void this.#enqueue(
      () => {
        // The metadata of the message being handled, not of a later one still waiting.
        this.#noteMetadata(metadata);
        return hook();
      },
      bytes,
      tracker,
    );
    if (requestId !== undefined) this.#requests.remember(requestId, tracker.done, fingerprint);
    return { duplicate: false, turn: tracker.done };
  }

  /** Hooks accepted before a close still run: the client was told they were accepted. */
  #enqueue(hook: () => void | Promise<void>, bytes: number, tracker: TurnTracker): Promise<void> {
    this.#queued++;
    this.#queuedBytes += bytes;
    const run = async (): Promise<void> => {
      this.#queued--;
      this.#queuedBytes -= bytes;
      this.#currentTurn = tracker;
      tracker.start(this.#seq);
      let outcome: TurnOutcome = 'completed';
      this.#hookRun = ++this.#hookRuns;
      try {
        await hook();
      } catch (error) {
        outcome = 'failed';
        this.#onAgentError(error, this);
      } finally {
        this.#hookRun = 0;
        const final: TurnOutcome = this.closed && outcome === 'completed' ? 'closed' : outcome;
        // A continuation turn (after a host tool result) ends with the hook that was waiting.
        this.#currentTurn?.end(this.#seq, final);
        this.#currentTurn = undefined;
        tracker.end(this.#seq, final);
      }
    };
    this.#chain = this.#chain.then(run);
    return this.#chain;
  }

  #hasReader(): boolean {
    return (
      this.#sink !== undefined ||
      this.#remoteLinks.size > 0 ||
      this.#waitingReaders > 0 ||
      this.#followers > 0
    );
  }

  #afterDetach(): void {
    if (this.closed || this.#hasReader()) return;
    this.#startGrace();
    this.#options.onDetached?.(this);
  }

  #startGrace(): void {
    this.#clearGrace();
    this.#graceTimer = setTimeout(() => {
      this.#graceTimer = undefined;
      this.close('grace-expired');
    }, this.#graceMs);
  }

  #clearGrace(): void {
    if (this.#graceTimer !== undefined) {
      clearTimeout(this.#graceTimer);
      this.#graceTimer = undefined;
    }
  }

  #waitForMessage(
    afterSeq: number,
    waitMs: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    return new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.#readWaiters.delete(wake);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const wake = () => {
        if (this.#seq > afterSeq || this.closed) finish();
      };
      const timer = setTimeout(finish, waitMs);
      this.#readWaiters.add(wake);
      signal?.addEventListener('abort', finish, { once: true });
    });
  }

  #encode(message: AnyServerMessage, index: number | undefined): string {
    const at = index === undefined ? '' : ` (message ${index})`;
    if (getFunctionCallKind(message)) return this.#encodeFunctionCall(message, at);
    const version = versionOf(message);
    const kind = version?.agentMessageKinds.find((name) => name in (message as object));
    if (!isRecord(message) || !version || !kind) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `Not a server message${at}: it needs a "version" (${[...defaultProtocolVersions.values()].flatMap((v) => v.envelopeVersions).join(', ')}) and one of createSurface, updateComponents, updateDataModel, deleteSurface, or no "version" and one of the v0.8 messages (${V08_SERVER_MESSAGE_KINDS.join(', ')}).`,
        { path: '' },
      );
    }
    if (!version.native) checkNonNativeMessage(version, message, at);
    if (version.name === V08_VERSION) checkV08Components(message, this.#surfaceCatalogs, at);
    const body = (message as unknown as Record<string, Record<string, unknown>>)[kind]!;
    const surfaceId = typeof body.surfaceId === 'string' ? body.surfaceId : undefined;
    const catalogId =
      (kind === 'createSurface' || kind === 'beginRendering') && typeof body.catalogId === 'string'
        ? body.catalogId
        : kind === 'beginRendering'
          ? V08_STANDARD_CATALOG_ID
          : surfaceId
            ? this.#surfaceCatalogs.get(surfaceId)
            : undefined;
    // Validators read one spelling per schema: v0.9.1 as v0.9, v1.0 with bare reserved keys; the
    // pointer of a problem is spelled back as the agent wrote the message.
    const validate = this.#validate;
    const checked = validate && messageForValidators(version, message);
    const problem = validate && checked ? validate(checked, catalogId) : undefined;
    if (problem) {
      throw new A2uiError('VALIDATION_FAILED', `${problem.message}${at}`, {
        path: version.family === 'v0.9' ? problem.path : pointerAsSent(message, problem.path),
        surfaceId,
      });
    }
    const data = this.#sized(message, at, surfaceId);
    if (surfaceId !== undefined) {
      if ((kind === 'createSurface' || kind === 'beginRendering') && catalogId)
        this.#surfaceCatalogs.set(surfaceId, catalogId);
      if (kind === 'deleteSurface') this.#surfaceCatalogs.delete(surfaceId);
    }
    return data;
  }

  /** v1.0 `callRendererFunction` / `agentFunctionResponse`: shape-checked, not catalog-validated. */
  #encodeFunctionCall(message: AnyServerMessage, at: string): string {
    const [problem] = checkFunctionCallMessage(message);
    if (problem)
      throw new A2uiError('VALIDATION_FAILED', `${problem.message}${at}`, { path: problem.path });
    return this.#sized(message, at, undefined);
  }

  /** The JSON text of `message`, within `maxMessageBytes`. */
  #sized(message: AnyServerMessage, at: string, surfaceId: string | undefined): string {
    let data: string;
    try {
      data = JSON.stringify(message);
    } catch {
      // Nested beyond the engine's stack (thousands of levels), or a cycle: the agent's bug, told
      // in our error shape rather than as the engine's RangeError/TypeError; nothing is sent.
      throw new A2uiError(
        'VALIDATION_FAILED',
        `The message cannot be written as JSON: it is nested too deeply or refers to itself${at}`,
        { path: '', surfaceId },
      );
    }
    // A UTF-16 code unit is at most 3 UTF-8 bytes: most messages need no byte count at all.
    const bytes =
      data.length * 3 <= this.#maxMessageBytes ? 0 : utf8ByteLength(data, this.#maxMessageBytes);
    if (bytes > this.#maxMessageBytes) {
      throw new A2uiError(
        'MESSAGE_TOO_LARGE',
        `Message${at} is larger than ${this.#maxMessageBytes} bytes.`,
        { surfaceId },
      );
    }
    return data;
  }
}

/**
 * The refusal of a v1.0 `action` or `error` on a connection that negotiated an older version, or
 * none: `NOT_SUPPORTED`, HTTP 400; the agent never sees it.
 */
function v10MessageNotNegotiated(
  connection: Pick<Connection, 'protocolVersions'>,
  kind: 'action' | 'error',
): A2uiError {
  const negotiated =
    connection.protocolVersions === undefined ? undefined : emitVersionOf(connection);
  return new A2uiError(
    'NOT_SUPPORTED',
    `A v1.0 "${kind}" message; this connection ${negotiated ? `negotiated ${negotiated}` : 'negotiated no version (the client offered none)'}, so send it in that version's shape.`,
    { path: '/version', data: { httpStatus: 400, negotiatedVersion: negotiated ?? null } },
  );
}

/**
 * The refusal of a v1.0 function-call message on a connection that negotiated an older version:
 * `NOT_SUPPORTED`, answered as HTTP 400 (the request was understood, but not on this connection).
 */
function functionCallsNotNegotiated(
  connection: Pick<Connection, 'protocolVersions'>,
  kind: string,
): A2uiError {
  const negotiated =
    connection.protocolVersions === undefined ? undefined : emitVersionOf(connection);
  return new A2uiError(
    'NOT_SUPPORTED',
    `"${kind}" is an A2UI v1.0 message; this connection ${negotiated ? `negotiated ${negotiated}` : 'negotiated no version (the client offered none)'}, so function calls are not available on it.`,
    { data: { httpStatus: 400, negotiatedVersion: negotiated ?? null } },
  );
}
