/**
 * The transport-agnostic server side of one connection: sequencing, replay for resume, a grace
 * period for dropped links, in-order delivery of client messages to the agent, and cleanup.
 * Every transport's server binding builds on it (ARCHITECTURE §3).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { getServerMessageKind, isRecord } from '../protocol/guards.js';
import type {
  ClientCapabilities,
  ClientDataModel,
  ClientMessage,
  ClientMessageMetadata,
  ServerMessage,
} from '../protocol/messages.js';
import { utf8ByteLength } from '../validation/parse-messages.js';
import { getBuiltinCatalogValidator } from '../validation/validator-registry.js';
import type {
  A2uiAgent,
  AgentInput,
  Connection,
  DisconnectReason,
  HostTool,
  HostToolResult,
} from './agent.js';
import { createConnectionId } from './connection-id.js';
import { createMemoryReplayLog, type ReplayEntry, type ReplayLog } from './replay-log.js';

/** The default outgoing check: the full schema when the surface uses a built-in catalog. */
const validateWithBuiltinCatalog: OutgoingValidator = (message, catalogId) =>
  catalogId === undefined
    ? undefined
    : getBuiltinCatalogValidator(catalogId)?.validateServerMessage(message)[0];

/** Where a session's events go while a client link is attached. */
export interface SessionSink {
  /** Delivers one event; must not throw. */
  deliver(entry: ReplayEntry): void;
  /** The session ended; close the link. */
  close(reason: DisconnectReason): void;
}

/** Checks an outgoing message; returns a problem or `undefined`. */
export type OutgoingValidator = (
  message: unknown,
  catalogId: string | undefined,
) => { path: string; message: string } | undefined;

/** Options of {@link ConnectionSession}. */
export interface ConnectionSessionOptions {
  agent: A2uiAgent;
  /** @default a fresh `createConnectionId()` */
  id?: string;
  /** What `authenticate(request)` returned. */
  principal?: unknown;
  /** @default a memory log with `DEFAULT_REPLAY_LOG_LIMITS` */
  replayLog?: ReplayLog;
  /**
   * How long a dropped link may take to resume before the agent's `onDisconnect` runs.
   * @default 30000
   */
  reconnectGraceMs?: number;
  /** Largest outgoing message, in UTF-8 bytes. @default 1048576 */
  maxMessageBytes?: number;
  /** Request ids remembered to drop duplicate client messages (idempotency). @default 1000 */
  maxRememberedRequests?: number;
  /**
   * Validation of outgoing messages, with the catalog of their surface when known. `false` checks
   * only the envelope.
   * @default the v0.9 schema with the basic or minimal catalog when the surface uses one
   */
  validateOutgoing?: OutgoingValidator | false;
  /** Called once when the session ends (the registry removes it here). */
  onClosed?: (session: ConnectionSession, reason: DisconnectReason) => void;
  /** Receives errors thrown by agent hooks. @default console.error */
  onAgentError?: (error: unknown, session: ConnectionSession) => void;
}

/** Result of {@link ConnectionSession.attach}. */
export type AttachResult =
  | { ok: true; replayed: number }
  /** The events after `lastSeq` are gone: the caller must reset the client. */
  | { ok: false };

/** Result of {@link ConnectionSession.receive}. */
export interface ReceiveResult {
  /** False when `requestId` was seen before and the message was dropped as a duplicate. */
  readonly accepted: boolean;
  /** Settles when the agent has handled the message (never rejects). */
  readonly handled: Promise<void>;
}

/**
 * One agent connection. Implements the agent-facing {@link Connection}.
 *
 * @example
 * ```ts
 * const session = new ConnectionSession({ agent });
 * session.attach({ deliver: (entry) => write(entry), close: () => end() });
 * await session.start();
 * ```
 */
export class ConnectionSession implements Connection {
  readonly id: string;
  readonly principal: unknown;
  readonly #agent: A2uiAgent;
  readonly #log: ReplayLog;
  readonly #graceMs: number;
  readonly #maxMessageBytes: number;
  readonly #maxRemembered: number;
  readonly #validate: OutgoingValidator | undefined;
  readonly #onClosed: ConnectionSessionOptions['onClosed'];
  readonly #onAgentError: (error: unknown, session: ConnectionSession) => void;
  readonly #abort = new AbortController();
  readonly #requests = new Set<string>();
  readonly #surfaceCatalogs = new Map<string, string>();
  #sink: SessionSink | undefined;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  #inbound: Promise<void> = Promise.resolve();
  #seq = 0;
  #capabilities: ClientCapabilities | undefined;
  #dataModel: ClientDataModel | undefined;
  #hostTools: readonly HostTool[] = [];

  constructor(options: ConnectionSessionOptions) {
    this.id = options.id ?? createConnectionId();
    this.principal = options.principal;
    this.#agent = options.agent;
    this.#log = options.replayLog ?? createMemoryReplayLog();
    this.#seq = this.#log.lastSeq;
    this.#graceMs = options.reconnectGraceMs ?? 30_000;
    this.#maxMessageBytes = options.maxMessageBytes ?? 1_048_576;
    this.#maxRemembered = options.maxRememberedRequests ?? 1000;
    this.#validate =
      options.validateOutgoing === false
        ? undefined
        : (options.validateOutgoing ?? validateWithBuiltinCatalog);
    this.#onClosed = options.onClosed;
    this.#onAgentError =
      options.onAgentError ??
      ((error) => {
        console.error(`[a2ui] agent hook failed on connection ${this.id}:`, error);
      });
  }

  get hostTools(): readonly HostTool[] {
    return this.#hostTools;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#capabilities;
  }

  get clientDataModel(): ClientDataModel | undefined {
    return this.#dataModel;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get closed(): boolean {
    return this.#abort.signal.aborted;
  }

  /** True while a client link is attached. */
  get attached(): boolean {
    return this.#sink !== undefined;
  }

  /** Sequence number of the last message sent. */
  get lastSeq(): number {
    return this.#seq;
  }

  /** True while the grace timer of a dropped link runs. */
  get pendingGrace(): boolean {
    return this.#graceTimer !== undefined;
  }

  /** The replay log (for diagnostics and leak tests). */
  get replayLog(): ReplayLog {
    return this.#log;
  }

  /** Runs the agent's `onConnect`. Resolves when it has run. */
  start(): Promise<void> {
    return this.#enqueue(() => this.#agent.onConnect?.(this));
  }

  send(messages: ServerMessage | readonly ServerMessage[]): void {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    const list = Array.isArray(messages) ? messages : [messages as ServerMessage];
    // Serialise and check every message before sending any, so a bad batch sends nothing.
    const encoded = list.map((message, index) =>
      this.#encode(message, list.length > 1 ? index : undefined),
    );
    for (const data of encoded) {
      const entry: ReplayEntry = { seq: ++this.#seq, data };
      this.#log.append(entry);
      this.#sink?.deliver(entry);
    }
  }

  /**
   * Attaches a client link. With `lastSeq`, replays every event after it first (resume).
   * Replaces (and closes) a link that is still attached.
   */
  attach(sink: SessionSink, options: { lastSeq?: number } = {}): AttachResult {
    if (this.closed) return { ok: false };
    let replay: ReplayEntry[] = [];
    if (options.lastSeq !== undefined) {
      const missed = this.#log.since(options.lastSeq);
      if (missed === undefined) return { ok: false };
      replay = missed;
    }
    this.#clearGrace();
    const previous = this.#sink;
    this.#sink = sink;
    if (previous && previous !== sink) previous.close('reset');
    for (const entry of replay) sink.deliver(entry);
    return { ok: true, replayed: replay.length };
  }

  /** Detaches `sink` (its link dropped); the grace period starts. */
  detach(sink: SessionSink): void {
    if (this.#sink !== sink) return;
    this.#sink = undefined;
    if (this.closed) return;
    this.#clearGrace();
    this.#graceTimer = setTimeout(() => {
      this.#graceTimer = undefined;
      this.close('grace-expired');
    }, this.#graceMs);
  }

  /**
   * Hands a client message to the agent, after earlier ones. With `requestId`, a repeated id is
   * dropped (exactly-once delivery of retried requests).
   */
  receive(
    message: ClientMessage,
    metadata: ClientMessageMetadata | undefined,
    options: { requestId?: string } = {},
  ): ReceiveResult {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    if (options.requestId !== undefined) {
      if (this.#requests.has(options.requestId))
        return { accepted: false, handled: Promise.resolve() };
      this.#requests.add(options.requestId);
      if (this.#requests.size > this.#maxRemembered)
        this.#requests.delete(this.#requests.values().next().value!);
    }
    if (metadata?.a2uiClientCapabilities) this.#capabilities = metadata.a2uiClientCapabilities;
    if (metadata?.a2uiClientDataModel) this.#dataModel = metadata.a2uiClientDataModel;
    const handled = this.#enqueue(() => {
      if ('action' in message) return this.#agent.onAction?.(this, message.action, metadata);
      return this.#agent.onError?.(this, message.error, metadata);
    });
    return { accepted: true, handled };
  }

  /**
   * Hands user text and host context to the agent's `onInput`, after earlier client messages.
   * @throws A2uiError `CONNECTION_CLOSED` after close
   */
  receiveInput(input: AgentInput, metadata: ClientMessageMetadata | undefined): ReceiveResult {
    if (this.closed) throw new A2uiError('CONNECTION_CLOSED', `Connection ${this.id} is closed.`);
    if (input.tools) this.#hostTools = input.tools;
    if (metadata?.a2uiClientCapabilities) this.#capabilities = metadata.a2uiClientCapabilities;
    if (metadata?.a2uiClientDataModel) this.#dataModel = metadata.a2uiClientDataModel;
    const handled = this.#enqueue(() => this.#agent.onInput?.(this, input, metadata));
    return { accepted: true, handled };
  }

  endTurn(): void {}

  callHostTool(call: { name: string; args: unknown }): Promise<HostToolResult> {
    return Promise.reject(
      new A2uiError(
        'NOT_SUPPORTED',
        `This transport carries no host tool calls (asked for "${call.name}").`,
      ),
    );
  }

  close(reason: DisconnectReason = 'server-closed'): void {
    if (this.closed) return;
    this.#clearGrace();
    this.#abort.abort();
    const sink = this.#sink;
    this.#sink = undefined;
    sink?.close(reason);
    this.#log.clear();
    this.#requests.clear();
    this.#surfaceCatalogs.clear();
    // onDisconnect runs after every hook already accepted, then the session is forgotten.
    void this.#enqueue(() => this.#agent.onDisconnect?.(this, reason)).then(() =>
      this.#onClosed?.(this, reason),
    );
  }

  #encode(message: ServerMessage, index: number | undefined): string {
    const at = index === undefined ? '' : ` (message ${index})`;
    const kind = getServerMessageKind(message);
    if (!isRecord(message) || message.version !== 'v0.9' || !kind) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `Not a v0.9 server message${at}: it needs "version": "v0.9" and one of createSurface, updateComponents, updateDataModel, deleteSurface.`,
        {
          path: '',
        },
      );
    }
    const body = (message as unknown as Record<string, Record<string, unknown>>)[kind]!;
    const surfaceId = typeof body.surfaceId === 'string' ? body.surfaceId : undefined;
    const catalogId =
      kind === 'createSurface' && typeof body.catalogId === 'string'
        ? body.catalogId
        : surfaceId
          ? this.#surfaceCatalogs.get(surfaceId)
          : undefined;
    const problem = this.#validate?.(message, catalogId);
    if (problem) {
      throw new A2uiError('VALIDATION_FAILED', `${problem.message}${at}`, {
        path: problem.path,
        surfaceId,
      });
    }
    const data = JSON.stringify(message);
    const bytes = utf8ByteLength(data, this.#maxMessageBytes);
    if (bytes > this.#maxMessageBytes) {
      throw new A2uiError(
        'MESSAGE_TOO_LARGE',
        `Message${at} is larger than ${this.#maxMessageBytes} bytes.`,
        { surfaceId },
      );
    }
    if (surfaceId !== undefined) {
      if (kind === 'createSurface' && catalogId) this.#surfaceCatalogs.set(surfaceId, catalogId);
      if (kind === 'deleteSurface') this.#surfaceCatalogs.delete(surfaceId);
    }
    return data;
  }

  /** Hooks accepted before a close still run: the client was told they were accepted. */
  #enqueue(hook: () => void | Promise<void>): Promise<void> {
    const run = async () => {
      try {
        await hook();
      } catch (error) {
        this.#onAgentError(error, this);
      }
    };
    this.#inbound = this.#inbound.then(run);
    return this.#inbound;
  }

  #clearGrace(): void {
    if (this.#graceTimer !== undefined) {
      clearTimeout(this.#graceTimer);
      this.#graceTimer = undefined;
    }
  }
}
