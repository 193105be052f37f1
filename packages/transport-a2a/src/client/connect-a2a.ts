/**
 * The client transport (ARCHITECTURE §4 "A2A"): A2UI over A2A on `@a2a-js/sdk`'s client. It reads
 * the agent card, checks the A2UI extension, opens the conversation (a context) and feeds the
 * agent's A2UI parts to `A2uiClient` in arrival order wherever the agent puts them; each action
 * (or error, or text) is one A2A message of the context — continuing the task while it waits for
 * input — with the client capabilities and data model in its metadata, and its answer is the turn
 * the agent streams back. A cut stream is resumed with `SubscribeToTask`; against this package's
 * server (whose parts carry `a2uiSeq`) the client says where it is (`Last-Event-ID`), so nothing is
 * lost or repeated, and holds a subscription while the task waits, which carries the agent's
 * pushes. It talks v0.3 to agents whose card says so. Reconnects, the outbox and the status are
 * core's link kit; this file holds the link and the codec.
 */

import {
  type AgentCard,
  type Message,
  Role,
  type SendMessageRequest,
  type StreamResponse,
  TaskState,
} from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import { A2AError } from '@a2a-js/sdk/errors';
import {
  A2uiError,
  BASIC_CATALOG_ID,
  type ClientMessage,
  type ClientMessageMetadata,
  type ClientTransport,
  type ConnectionStatus,
  createConnectionId,
  describeError,
  isOvertakingMessage,
  resolveOfferedVersions,
  type SendOptions,
  type TroubleCause,
} from '@a2ui-ts/core';
import {
  createBackoff,
  createLinkTransport,
  describeTroubleCause,
  errorOfHttpStatus,
  type HttpLinkOptions,
  isRetryableStatus,
  LINK_DEFAULTS,
  type LinkAttempt,
  type LinkOutcome,
  listenForBrowserWake,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  outcomeUnknown,
  parseRetryAfter,
  resolveHeaders,
  resolveLinkOptions,
  sleep,
  troubleCauseOf,
  withDeadline,
} from '@a2ui-ts/core/link';
import { fromA2aError } from '../protocol/a2a-errors.js';
import {
  A2UI_METADATA,
  a2uiExtensionUriOf,
  a2uiVersionOfExtensionUri,
  LAST_EVENT_ID_HEADER,
} from '../protocol/a2ui-extension.js';
import { createA2uiDataPart, createTextPart } from '../protocol/a2ui-parts.js';
import { A2uiHarvester, type MutableHarvest, newHarvest } from './a2ui-harvester.js';

/**
 * Options of {@link connectA2a}. Durations in milliseconds. `headers`, `fetch`, `credentials`,
 * `signal`, `reconnect`, `random`, `maxQueuedMessages` and `wake` are core's
 * {@link HttpLinkOptions}; each client message is one A2A message, whose id is its idempotency key.
 */
export interface A2aClientOptions
  extends Omit<HttpLinkOptions, 'maxBatchLength' | 'createRequestId'> {
  /**
   * The agent's base URL (its card is `{url}/.well-known/agent-card.json`), or the URL of its card
   * (ending in `.json`). A relative URL is resolved against the page's location.
   */
  url: string | URL;
  /** The card, when the application already has it (no card request is made). */
  card?: AgentCard;
  /**
   * The context to continue (an A2UI session of this client, e.g. after a page reload).
   * @default a new one (minted by the client, so a retried opening reaches the same context)
   */
  contextId?: string;
  /**
   * The first message, which opens the conversation: the user's request to agents that need one
   * (the official restaurant finder), or nothing (this package's server runs `onConnect`).
   * @default no parts
   */
  open?: { text?: string };
  /**
   * Capabilities sent with the opening message, before `A2uiClient` sent any.
   * @default the basic catalog
   */
  clientCapabilities?: ClientMessageMetadata['a2uiClientCapabilities'];
  /**
   * Refuse agents whose card declares the A2UI extension of none of {@link offeredVersions}
   * (`NOT_SUPPORTED`). @default true
   */
  requireExtension?: boolean;
  /**
   * The A2UI versions this client reads, offered as their A2A extension URIs
   * (`https://a2ui.org/a2a-extension/a2ui/v1.0`, …) in the `A2A-Extensions` header and
   * `message.extensions`; the server activates the one it speaks, or refuses a request that
   * shares none with `NOT_SUPPORTED` (HTTP 406).
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[];
  /**
   * Hold a `SubscribeToTask` stream while the task waits for input, so the agent's pushes arrive
   * without a request. `'auto'`: against an agent whose parts carry `a2uiSeq` (this package's
   * server). @default 'auto'
   */
  serverPush?: boolean | 'auto';
  /**
   * Deadline of the agent card request, and of the answer to every message and subscription to
   * begin (its HTTP response headers), when the card says the agent streams (a streaming answer
   * begins at once; a blocking one only when the turn is over). A call past it is retried like a
   * dropped link, so no call waits forever on a server that accepted it and never answered.
   * @default 30000
   */
  requestTimeoutMs?: number;
  /** Receives the text parts the agent sends beside its A2UI messages. */
  onText?: (text: string) => void;
  /**
   * A stream of this package's server (which pings idle streams every `keepAliveIntervalMs`)
   * that delivers no byte for this long is a dead link: it is reconnected. Streams of other
   * agents are not watched. Keep it above twice the server's interval; 0 disables it.
   * @default 45000
   */
  heartbeatTimeoutMs?: number;
}

/** The transport returned by {@link connectA2a}. */
export interface A2aTransport extends ClientTransport {
  /** The A2A context of the session. */
  readonly contextId: string;
  /** The task the next message continues (while it waits for input), if any. */
  readonly taskId: string | undefined;
  /** The protocol version spoken (`'1.0'` or `'0.3'`), once the card was read. */
  readonly protocolVersion: string | undefined;
  /** `a2uiSeq` of the last message applied (sent as `Last-Event-ID`). */
  readonly lastEventId: number;
  readonly status: ConnectionStatus;
  /** Client messages not yet answered. */
  readonly pendingMessages: number;
  /**
   * Sends what the user typed as a text part (the agent's `onInput`), after earlier messages.
   * @throws as `send`
   */
  sendText(text: string, options?: SendOptions): Promise<void>;
}

/** Defaults of {@link A2aClientOptions}, in one place. */
export const A2A_CLIENT_DEFAULTS = {
  requireExtension: true,
  serverPush: 'auto',
  requestTimeoutMs: 30_000,
  heartbeatTimeoutMs: 45_000,
  maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
  /** How long `close()` waits for the server to cancel the task. */
  closeTimeoutMs: LINK_DEFAULTS.closeTimeoutMs,
} as const;

type Outgoing =
  | { kind: 'a2ui'; message: ClientMessage; metadata: ClientMessageMetadata | undefined }
  | { kind: 'text'; text: string; metadata: ClientMessageMetadata | undefined };

/** How one step (the stream of a message, or of a subscription) ended. */
type StepEnd =
  /** The step is over: its final state (undefined for a message result) and metadata. */
  | { kind: 'final'; state: TaskState | undefined; metadata: Record<string, unknown> | undefined }
  /** The stream broke (or ended early): resume or resend. */
  | { kind: 'cut'; reason: string; retryAfterMs?: number }
  /** The server refused the request. */
  | { kind: 'refused'; error: A2uiError }
  /** The client stopped reading (a turn took over, or close). */
  | { kind: 'aborted' }
  /** An idle subscription's stream ended normally (the task's next turn is over). */
  | { kind: 'ended' };

/**
 * How a step's stream is read: `turn` (the answer to a message: over at the first state that is
 * not running), `resume` (a resubscribe after a cut answer: the same, after the stored task),
 * `idle` (a subscription while the task waits: pushes, until the stream ends or the task does).
 */
type StepMode = 'turn' | 'resume' | 'idle';

const INTERRUPTED: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);
const RUNNING: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
  TaskState.TASK_STATE_UNSPECIFIED,
]);

/** What the wrapped `fetch` saw of one call (its HTTP status, the server's retry hint). */
interface CallRecord {
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

/**
 * Connects to an A2A agent that speaks A2UI. The link opens when `A2uiClient` calls `events()`;
 * `send` may be called before, and waits for the conversation.
 *
 * @param options - see {@link A2aClientOptions}
 * @returns a `ClientTransport` with `contextId`, `taskId`, `sendText`, `status` and `pendingMessages`
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: connectA2a({ url: 'https://agents.example.com/restaurant' }) });
 * client.connect();
 * ```
 */
export function connectA2a(options: A2aClientOptions): A2aTransport {
  const defaults = A2A_CLIENT_DEFAULTS;
  const baseUrl = resolveUrl(options.url);
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const kit = resolveLinkOptions(options, defaults);
  const requestTimeoutMs = options.requestTimeoutMs ?? defaults.requestTimeoutMs;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? defaults.heartbeatTimeoutMs;
  const requireExtension = options.requireExtension ?? defaults.requireExtension;
  const offeredUris = resolveOfferedVersions(options.offeredVersions).map(a2uiExtensionUriOf);
  const serverPush = options.serverPush ?? defaults.serverPush;
  const wake = options.wake ?? listenForBrowserWake;

  const harvester = new A2uiHarvester();
  const records = new WeakMap<AbortSignal, CallRecord>();
  let client: Client | undefined;
  /** The card says the agent streams: its answers begin at once, so they get a deadline to begin. */
  let streams = false;
  /** The A2UI version both sides speak, from the card (see where it is read). */
  let a2uiVersion: string | undefined;
  let contextId = options.contextId ?? createConnectionId();
  /** The local id of the session, for the outbox (a reset starts a new one). */
  let epoch = createConnectionId();
  let openingMessageId = createConnectionId();
  let opened = options.contextId !== undefined;
  let taskId: string | undefined;
  let taskState: TaskState | undefined;
  let latestMetadata: ClientMessageMetadata | undefined;
  let currentAttempt: LinkAttempt | undefined;
  let turnsInFlight = 0;
  let idle: AbortController | undefined;
  let changed: (() => void) | undefined;
  const notifyChange = () => {
    const resolve = changed;
    changed = undefined;
    resolve?.();
  };

  // ---- HTTP: headers, credentials, and what each call's response said ----------------------

  const fetchImpl: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    (await resolveHeaders(options.headers)).forEach((value, name) => {
      headers.set(name, value);
    });
    const response = await doFetch(input, { ...init, headers, credentials: options.credentials });
    const record = init?.signal ? records.get(init.signal) : undefined;
    if (!record) return response;
    record.status = response.status;
    record.retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
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
  };

  /**
   * A call's signal (aborted by `parent`, `close()` and the optional deadlines) and its record: the
   * whole call within `timeoutMs`, its response begun within `responseTimeoutMs`, then a byte at
   * least every `heartbeatMs`.
   */
  const startCall = (
    parent: AbortSignal | undefined,
    timeoutMs?: number,
    heartbeatMs?: number,
    responseTimeoutMs?: number,
  ) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    const timer = timeoutMs === undefined ? undefined : setTimeout(abort, timeoutMs);
    parent?.addEventListener('abort', abort, { once: true });
    shell.signal.addEventListener('abort', abort, { once: true });
    if (parent?.aborted || shell.signal.aborted) abort();
    const record: CallRecord = {};
    records.set(controller.signal, record);
    let unanswered: ReturnType<typeof setTimeout> | undefined;
    if (responseTimeoutMs !== undefined) {
      unanswered = setTimeout(() => {
        record.expired = `No answer in ${responseTimeoutMs} ms.`;
        abort();
      }, responseTimeoutMs);
      record.onBody = () => clearTimeout(unanswered);
    }
    // A stream that delivers no byte (no event, no `: ping`) for heartbeatMs is a dead link.
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    if (heartbeatMs !== undefined && heartbeatMs > 0) {
      let lastActivity = Date.now();
      record.onActivity = () => {
        lastActivity = Date.now();
      };
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
    }
    return {
      signal: controller.signal,
      record,
      end() {
        clearTimeout(timer);
        clearTimeout(unanswered);
        clearTimeout(watchdog);
        parent?.removeEventListener('abort', abort);
        shell.signal.removeEventListener('abort', abort);
      },
    };
  };

  const serviceParameters = () =>
    ServiceParameters.create(withA2AExtensions(...offeredUris), (parameters) => {
      parameters[LAST_EVENT_ID_HEADER] = String(harvester.sequence.last);
    });

  // ---- The card and the SDK client ------------------------------------------------------------

  const compat = { legacyCompat: { enabled: true } };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ ...compat, fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ ...compat, fetchImpl }),
    }),
  );

  /** Reads the card (unless given) and creates the SDK client; refusals a retry cannot fix are fatal. */
  const createClient = async (signal: AbortSignal): Promise<LinkOutcome | undefined> => {
    let raw: unknown = options.card;
    if (raw === undefined) {
      const cardUrl = /\.json($|\?)/.test(baseUrl)
        ? baseUrl
        : new URL('.well-known/agent-card.json', baseUrl).toString();
      const call = startCall(signal, requestTimeoutMs);
      try {
        const response = await fetchImpl(cardUrl, {
          headers: { 'A2A-Version': '1.0' },
          signal: call.signal,
        });
        if (!response.ok) {
          const message = `GET ${cardUrl} answered HTTP ${response.status}.`;
          await response.body?.cancel();
          if (isRetryableStatus(response.status))
            return { kind: 'dropped', reason: message, retryAfterMs: call.record.retryAfterMs };
          return { kind: 'fatal', error: httpError(response.status, message) };
        }
        raw = await response.json();
      } catch (error) {
        return {
          kind: 'dropped',
          reason: `Could not read the agent card: ${describeError(error)}`,
        };
      } finally {
        call.end();
      }
    }
    let created: Client;
    try {
      created = await factory.createFromAgentCard(raw as AgentCard);
    } catch (error) {
      return {
        kind: 'fatal',
        error: new A2uiError(
          'NOT_SUPPORTED',
          `The agent card offers no usable interface: ${describeError(error)}`,
        ),
      };
    }
    const card = await created.getAgentCard().catch(() => raw as AgentCard);
    const extensions = card.capabilities?.extensions ?? [];
    if (requireExtension && !extensions.some((extension) => offeredUris.includes(extension.uri))) {
      return {
        kind: 'fatal',
        error: new A2uiError(
          'NOT_SUPPORTED',
          `The agent declares the A2UI extension of none of the offered versions (${offeredUris.join(', ')}).`,
        ),
      };
    }
    client = created;
    streams = card.capabilities?.streaming === true;
    // The card lists one A2UI extension per version in the server's preference order, and the
    // server activates the first of them the client offered: the same pick, made here.
    const activated = extensions.find((extension) => offeredUris.includes(extension.uri));
    a2uiVersion = activated ? a2uiVersionOfExtensionUri(activated.uri) : undefined;
    return undefined;
  };

  // ---- Reading a step -------------------------------------------------------------------------

  const deliver = (harvest: MutableHarvest) => {
    for (const payload of harvest.payloads) {
      currentAttempt?.delivered();
      shell.push({ type: 'messages', messages: payload });
    }
    if (options.onText) for (const text of harvest.texts) options.onText(text);
  };

  const noteTask = (id: string, context: string, state: TaskState | undefined) => {
    if (!id) return;
    taskId = id;
    if (context) contextId = context;
    taskState = state;
  };

  /** Reads a step's stream: applies its A2UI messages, follows its task, and says how it ended. */
  const readStep = async (
    stream: AsyncIterable<StreamResponse>,
    call: { signal: AbortSignal; record: CallRecord },
    mode: StepMode,
    progress: { events: number } = { events: 0 },
  ): Promise<StepEnd> => {
    /** Whether a state ends the step in this mode. */
    const ends = (state: TaskState | undefined, metadata: Record<string, unknown> | undefined) => {
      if (state === undefined || RUNNING.has(state)) return false;
      if (mode !== 'idle') return true;
      return (
        !INTERRUPTED.has(state) ||
        metadata?.[A2UI_METADATA.reset] !== undefined ||
        metadata?.[A2UI_METADATA.sessionClosed] !== undefined
      );
    };
    /** The last task event, when nothing followed it. */
    let taskEnd: Extract<StepEnd, { kind: 'final' }> | undefined;
    try {
      for await (const event of stream) {
        const payload = event.payload;
        if (!payload) continue;
        const first = progress.events === 0;
        if (payload.$case !== 'task') taskEnd = undefined;
        progress.events++;
        const harvest = newHarvest();
        let end: StepEnd | undefined;
        switch (payload.$case) {
          case 'task': {
            const task = payload.value;
            const state = task.status?.state;
            noteTask(task.id, task.contextId, state);
            harvester.task(task, harvest);
            // A stream's task event is the task as it starts the step (a continued task still says
            // `input-required`): it ends the step only as the last event (a blocking answer), or
            // as a resubscribe's first to an agent that is not ours (its stream of a finished turn
            // stays open).
            taskEnd = { kind: 'final', state, metadata: task.metadata };
            if (mode === 'resume' && first && !harvester.sequenced && ends(state, undefined))
              end = taskEnd;
            break;
          }
          case 'statusUpdate': {
            const update = payload.value;
            const state = update.status?.state;
            noteTask(update.taskId, update.contextId, state);
            harvester.message(update.status?.message, harvest);
            if (ends(state, update.metadata))
              end = { kind: 'final', state, metadata: update.metadata };
            break;
          }
          case 'artifactUpdate':
            harvester.artifact(payload.value.artifact, harvest);
            break;
          case 'message':
            harvester.message(payload.value, harvest);
            end = { kind: 'final', state: undefined, metadata: payload.value.metadata };
            break;
        }
        deliver(harvest);
        if (harvest.gap)
          return {
            kind: 'cut',
            reason: `Messages after ${harvester.sequence.last} are missing; resuming.`,
          };
        if (end) return end;
      }
    } catch (error) {
      if (call.record.expired && !shell.closed) return { kind: 'cut', reason: call.record.expired };
      if (call.signal.aborted || shell.closed) return { kind: 'aborted' };
      return classify(error, call.record);
    }
    if (call.record.expired && !shell.closed) return { kind: 'cut', reason: call.record.expired };
    if (call.signal.aborted || shell.closed) return { kind: 'aborted' };
    if (mode === 'idle') return { kind: 'ended' };
    if (taskEnd && ends(taskEnd.state, taskEnd.metadata)) return taskEnd;
    return { kind: 'cut', reason: 'The stream ended before the step was over.' };
  };

  /** What a failed call means: a retry (network, 5xx, a busy agent) or a refusal. */
  const classify = (error: unknown, record: CallRecord): StepEnd => {
    const status = record.status;
    if (status !== undefined && isRetryableStatus(status))
      return {
        kind: 'cut',
        reason: `The server answered HTTP ${status}.`,
        retryAfterMs: record.retryAfterMs,
      };
    if (status !== undefined && status >= 400)
      return {
        kind: 'refused',
        error: httpError(status, `The server answered HTTP ${status}: ${describeError(error)}`),
      };
    const a2aError = findA2aError(error);
    if (a2aError) {
      const refusal = fromA2aError(a2aError);
      if (refusal.code === 'LIMIT_EXCEEDED')
        return {
          kind: 'cut',
          reason: refusal.message,
          retryAfterMs: refusal.data?.retryAfterMs as number | undefined,
        };
      return { kind: 'refused', error: refusal };
    }
    // A bug (ours or the SDK's, e.g. its v0.3 codec calling Node's `Buffer` in a browser) does
    // not heal with retries.
    if (error instanceof ReferenceError || error instanceof RangeError)
      return {
        kind: 'refused',
        error: new A2uiError('INTERNAL_ERROR', describeError(error), { cause: error }),
      };
    return { kind: 'cut', reason: describeError(error) };
  };

  /** The step is over: follow its task, and report what its status says about the session. */
  const settle = (
    end: Extract<StepEnd, { kind: 'final' }>,
  ): A2uiError | { retry: TroubleCause } | undefined => {
    if (end.state === undefined || !INTERRUPTED.has(end.state)) {
      if (end.state !== undefined) taskId = undefined;
      taskState = end.state;
    }
    const metadata = end.metadata ?? {};
    const reset = metadata[A2UI_METADATA.reset];
    const sessionClosed = metadata[A2UI_METADATA.sessionClosed];
    if (
      typeof reset === 'string' ||
      sessionClosed === 'grace-expired' ||
      sessionClosed === 'reset'
    ) {
      resetSession(
        reset === 'replay-gap'
          ? 'The messages missed while the link was down are no longer kept.'
          : 'The server no longer knows this session (expired or restarted).',
      );
      return new A2uiError('CONNECTION_CLOSED', 'The session was reset; its surfaces are gone.');
    }
    const refusal = metadata[A2UI_METADATA.error] as
      | { code?: string; message?: string; retryAfterMs?: number; reason?: string }
      | undefined;
    if (sessionClosed === 'server-closed') {
      shell.end('The agent closed the connection.');
      // The session closed before the message's turn ran: it was not applied.
      if (refusal && typeof refusal.code === 'string')
        return new A2uiError(
          refusal.code as A2uiError['code'],
          refusal.message ?? 'The agent refused the message.',
        );
      return undefined;
    }
    if (refusal && typeof refusal.code === 'string') {
      if (refusal.code === 'LIMIT_EXCEEDED') return { retry: troubleCauseOf(refusal) };
      return new A2uiError(
        refusal.code as A2uiError['code'],
        refusal.message ?? 'The agent refused the message.',
      );
    }
    return undefined;
  };

  // ---- Turns: one message, its streamed answer, resumed when cut -----------------------------

  const buildRequest = (messageId: string, item: Outgoing | undefined): SendMessageRequest => {
    const metadata = item?.metadata ??
      latestMetadata ?? {
        a2uiClientCapabilities: options.clientCapabilities ?? {
          'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] },
        },
      };
    const parts =
      item === undefined
        ? options.open?.text
          ? [createTextPart(options.open.text)]
          : []
        : item.kind === 'a2ui'
          ? [createA2uiDataPart(item.message)]
          : [createTextPart(item.text)];
    const message: Message = {
      messageId,
      contextId,
      taskId: taskId && taskState !== undefined && INTERRUPTED.has(taskState) ? taskId : '',
      role: Role.ROLE_USER,
      parts,
      metadata: { ...metadata },
      extensions: [...offeredUris],
      referenceTaskIds: [],
    };
    return { tenant: '', message, configuration: undefined, metadata: undefined };
  };

  /** Runs `stream` as a step of `mode` within one call of its own. */
  const step = async (
    open: (call: { signal: AbortSignal }) => AsyncIterable<StreamResponse>,
    parent: AbortSignal,
    mode: StepMode,
    progress?: { events: number },
  ): Promise<StepEnd> => {
    // This package's server pings idle streams; another agent may be silent for as long as it likes.
    const call = startCall(
      parent,
      undefined,
      harvester.sequenced ? heartbeatTimeoutMs : undefined,
      streams ? requestTimeoutMs : undefined,
    );
    try {
      return await readStep(open(call), call, mode, progress);
    } finally {
      call.end();
    }
  };

  const subscribe = (id: string) => (call: { signal: AbortSignal }) =>
    client!.resubscribeTask(
      { tenant: '', id },
      { signal: call.signal, serviceParameters: serviceParameters() },
    );

  /**
   * Sends `request` and reads its answer to the end of the step. An answer cut after the server
   * took the message (its first event came) is resumed with `SubscribeToTask`, from where this
   * client is; one cut before is for the caller to resend, with the same message id. `taken`
   * names the task once the server took the message (from then on it may have been applied).
   */
  const runTurn = async (
    request: SendMessageRequest,
    signal: AbortSignal,
  ): Promise<{ end: StepEnd; taken: string | undefined }> => {
    const progress = { events: 0 };
    let end = await step(
      (call) =>
        client!.sendMessageStream(request, {
          signal: call.signal,
          serviceParameters: serviceParameters(),
        }),
      signal,
      'turn',
      progress,
    );
    const turnTask = progress.events > 0 ? taskId : undefined;
    const turnBackoff = createBackoff({ ...kit.retry, maxAttempts: Number.POSITIVE_INFINITY });
    while (end.kind === 'cut' && turnTask && !shell.closed && !signal.aborted) {
      await sleep(turnBackoff.fail(end.retryAfterMs), signal, wake);
      if (shell.closed || signal.aborted) break;
      end = await step(subscribe(turnTask), signal, 'resume');
      if (end.kind === 'refused' && end.error.code === 'NOT_SUPPORTED') {
        // The task ended while the stream was down (a finished task cannot be subscribed to).
        taskId = undefined;
        end = { kind: 'final', state: undefined, metadata: undefined };
      }
    }
    return { end, taken: turnTask };
  };

  const deliverTurn = async (
    batch: readonly OutboxEntry<Outgoing>[],
    context: { connectionId: string; signal: AbortSignal },
  ): Promise<OutboxDelivery> => {
    const entry = batch[0]!;
    if (context.connectionId !== epoch || !client)
      return { kind: 'retry', reason: 'The session is opening.' };
    turnsInFlight++;
    idle?.abort();
    try {
      const request = buildRequest(entry.id, entry.item);
      const { end, taken } = await runTurn(request, context.signal);
      // The agent took it (now, or in an attempt whose answer was lost) and its answer is lost
      // with the link or the task: it may have been applied, so it is never reported as failed.
      const unknown = (task: string | undefined): OutboxDelivery => ({
        kind: 'answered',
        errors: new Map([[entry.id, outcomeUnknown(entry.id, task ? { taskId: task } : {})]]),
      });
      const sentTo = taken ?? (request.message?.taskId || undefined);
      if (end.kind === 'cut')
        return { kind: 'retry', reason: end.reason, retryAfterMs: end.retryAfterMs };
      if (end.kind === 'aborted' || end.kind === 'ended') {
        if (taken && shell.closed) return unknown(taken);
        return { kind: 'retry', reason: 'The answer did not finish.' };
      }
      if (end.kind === 'refused') {
        const rpcCode = end.error.data?.rpcCode;
        if (rpcCode === -32001)
          resetSession('The server no longer knows this task (expired or restarted).');
        const taskGone = rpcCode === -32001 || rpcCode === -32004;
        if (taken || (entry.sentBefore && taskGone)) return unknown(sentTo);
        if (rpcCode === -32004 && request.message?.taskId) {
          // The task ended meanwhile (e.g. with its session): the message goes in a new task.
          taskId = undefined;
          taskState = undefined;
          return { kind: 'retry', reason: 'The task ended; sending in a new task of the context.' };
        }
        return { kind: 'answered', errors: new Map([[entry.id, end.error]]) };
      }
      const outcome = settle(end);
      if (outcome && 'retry' in outcome)
        return { kind: 'retry', reason: describeTroubleCause(outcome.retry), cause: outcome.retry };
      // A reset refuses this attempt; one before it may have reached the session that is gone.
      if (outcome?.code === 'CONNECTION_CLOSED' && entry.sentBefore) return unknown(sentTo);
      return outcome
        ? { kind: 'answered', errors: new Map([[entry.id, outcome]]) }
        : { kind: 'answered' };
    } finally {
      turnsInFlight--;
      notifyChange();
    }
  };

  const outbox = new Outbox<Outgoing>({
    overtakes: (item) => item.kind === 'a2ui' && isOvertakingMessage(item.message),
    ...kit.outbox,
    // One A2A message per client message: its id is the message's idempotency key.
    maxBatchLength: 1,
    onTrouble: (trouble) => shell.status.trouble(trouble),
    deliver: deliverTurn,
  });

  const resetSession = (reason: string): void => {
    contextId = createConnectionId();
    epoch = createConnectionId();
    openingMessageId = createConnectionId();
    opened = false;
    taskId = undefined;
    taskState = undefined;
    harvester.reset();
    outbox.reset();
    shell.push({ type: 'reset', reason });
    notifyChange();
  };

  // ---- The link: open the conversation, then hold (a subscription while the task waits) ------

  const pushEnabled = () =>
    (serverPush === true || (serverPush === 'auto' && harvester.sequenced)) && client !== undefined;

  const openConversation = async (attempt: LinkAttempt): Promise<LinkOutcome | undefined> => {
    const { end } = await runTurn(buildRequest(openingMessageId, undefined), attempt.signal);
    if (end.kind === 'aborted') return { kind: 'closed', reason: 'Closed by the client.' };
    if (end.kind === 'cut')
      return { kind: 'dropped', reason: end.reason, retryAfterMs: end.retryAfterMs };
    if (end.kind === 'ended') return { kind: 'dropped', reason: 'The answer did not finish.' };
    if (end.kind === 'refused') {
      if (end.error.code === 'CONNECTION_CLOSED') {
        resetSession(end.error.message);
        return { kind: 'dropped', reason: end.error.message };
      }
      return { kind: 'fatal', error: end.error };
    }
    const outcome = settle(end);
    if (shell.closed) return { kind: 'closed', reason: 'The agent closed the connection.' };
    if (outcome && 'retry' in outcome)
      return { kind: 'dropped', reason: `${describeTroubleCause(outcome.retry)}.` };
    if (outcome) return { kind: 'dropped', reason: outcome.message };
    opened = true;
    return undefined;
  };

  const runLink = async (attempt: LinkAttempt): Promise<LinkOutcome> => {
    currentAttempt = attempt;
    try {
      if (!client) {
        const refused = await createClient(attempt.signal);
        if (refused) return refused;
      }
      while (!shell.closed && !attempt.signal.aborted) {
        if (!opened) {
          outbox.pause();
          const refused = await openConversation(attempt);
          if (refused) return refused;
          continue;
        }
        outbox.setConnection(epoch);
        attempt.opened();
        const ended = await hold(attempt);
        if (ended) return ended;
      }
      return { kind: 'closed', reason: 'Closed by the client.' };
    } finally {
      currentAttempt = undefined;
    }
  };

  /** While the session is open: hold a subscription when pushes can arrive, else wait. */
  const hold = async (attempt: LinkAttempt): Promise<LinkOutcome | undefined> => {
    while (!shell.closed && !attempt.signal.aborted && opened) {
      const waiting = taskId !== undefined && taskState !== undefined && INTERRUPTED.has(taskState);
      if (!pushEnabled() || !waiting || turnsInFlight > 0 || outbox.pending > 0) {
        await new Promise<void>((resolve) => {
          // Removed once woken: the attempt lives as long as the link, and this waits once per change.
          const done = () => {
            attempt.signal.removeEventListener('abort', done);
            resolve();
          };
          changed = done;
          attempt.signal.addEventListener('abort', done, { once: true });
        });
        continue;
      }
      idle = new AbortController();
      const progress = { events: 0 };
      let end: StepEnd;
      try {
        end = await step(subscribe(taskId!), idle.signal, 'idle', progress);
      } finally {
        idle = undefined;
      }
      if (end.kind === 'aborted') continue;
      if (end.kind === 'ended' && progress.events > 1) continue;
      if (end.kind === 'cut' || end.kind === 'ended') {
        // Also a stream that ends at once: resubscribing at once would be a request storm.
        outbox.pause();
        const reason = end.kind === 'cut' ? end.reason : 'The subscription ended at once.';
        return {
          kind: 'dropped',
          reason,
          retryAfterMs: end.kind === 'cut' ? end.retryAfterMs : undefined,
        };
      }
      if (end.kind === 'refused') {
        if (end.error.code === 'CONNECTION_CLOSED') resetSession(end.error.message);
        else taskId = undefined;
        continue;
      }
      settle(end);
    }
    return shell.closed ? { kind: 'closed', reason: 'Closed by the client.' } : undefined;
  };

  // ---- The transport ------------------------------------------------------------------------

  const shell = createLinkTransport({
    name: 'A2A',
    connect: runLink,
    ...kit.shell,
    // The agent sees onDisconnect('client-closed') at once: cancelling the task ends the session.
    goodbye: async () => {
      const waiting = taskId;
      if (!client || !waiting) return;
      const deadline = withDeadline(undefined, defaults.closeTimeoutMs);
      await client
        .cancelTask(
          { tenant: '', id: waiting, metadata: undefined },
          { signal: deadline.signal, serviceParameters: serviceParameters() },
        )
        .catch(() => {});
      deadline.clear();
    },
    onClose: (error) => {
      idle?.abort();
      outbox.close(error);
    },
  });

  const enqueue = (item: Outgoing, sendOptions: SendOptions) =>
    shell.sendWhileOpen(() => {
      if (item.metadata) latestMetadata = item.metadata;
      const sent = outbox.enqueue(item, sendOptions);
      notifyChange();
      // Once it is answered, the link may hold a subscription again.
      sent.then(notifyChange, notifyChange);
      return sent;
    });

  return {
    get contextId() {
      return contextId;
    },
    get taskId() {
      return taskId;
    },
    get protocolVersion() {
      return client?.protocolVersion;
    },
    get a2uiVersion() {
      return a2uiVersion;
    },
    get lastEventId() {
      return harvester.sequence.last;
    },
    get status() {
      return shell.status.status;
    },
    get pendingMessages() {
      return outbox.pending;
    },
    events: shell.events,
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      return enqueue({ kind: 'a2ui', message, metadata }, sendOptions);
    },
    sendText(text: string, sendOptions: SendOptions = {}) {
      return enqueue({ kind: 'text', text, metadata: latestMetadata }, sendOptions);
    },
    close: shell.close,
  };
}

/** The base URL with a trailing slash (relative `.well-known/…` resolves under it). */
function resolveUrl(url: string | URL): string {
  const location = (globalThis as { location?: { href?: string } }).location?.href;
  const absolute = new URL(String(url), location);
  if (!/\.json$/.test(absolute.pathname) && !absolute.pathname.endsWith('/'))
    absolute.pathname += '/';
  return absolute.toString();
}

/** {@link errorOfHttpStatus}, and what a 413 or a 404 means to an A2A client. */
function httpError(status: number, message: string): A2uiError {
  if (status !== 413 && status !== 404) return errorOfHttpStatus(status, message);
  const code = status === 413 ? 'MESSAGE_TOO_LARGE' : 'NOT_SUPPORTED';
  return new A2uiError(code, message, { data: { httpStatus: status } });
}

/** The A2A error in `error` or its cause (the SDK wraps mid-stream errors). */
function findA2aError(error: unknown): unknown {
  if (error instanceof A2AError) return error;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof A2AError ? cause : undefined;
}
