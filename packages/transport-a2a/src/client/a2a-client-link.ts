/**
 * The link of `connectA2a`: one A2UI session over A2A. It opens the conversation (a context) with
 * a first message, sends each client message as an A2A message of the context — continuing the
 * task while it waits for input — and reads the answer to the end of the turn, resuming a cut
 * answer with `SubscribeToTask`; while the task waits it holds a subscription, which carries the
 * agent's pushes. Reconnects, the outbox and the status are core's link kit; reading a step is
 * `step-reader.ts`, the task `task-tracker.ts`, the card `open-sdk-client.ts`.
 */
import type { Message, SendMessageRequest, StreamResponse } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import { type Client, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import {
  A2uiError,
  BASIC_CATALOG_ID,
  type ClientMessageMetadata,
  createConnectionId,
  isOvertakingMessage,
  resolveOfferedVersions,
  type SendOptions,
  type TroubleCause,
} from '@a2ui-ts/core';
import {
  createBackoff,
  createLinkTransport,
  describeTroubleCause,
  type LinkAttempt,
  type LinkOutcome,
  type LinkTransport,
  listenForBrowserWake,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  outcomeUnknown,
  resolveLinkOptions,
  sleep,
  withDeadline,
} from '@a2ui-ts/core/link';
import { a2uiExtensionUriOf, LAST_EVENT_ID_HEADER } from '../protocol/a2ui-extension.js';
import { createA2uiDataPart, createTextPart } from '../protocol/a2ui-parts.js';
import { A2A_CLIENT_DEFAULTS, type A2aClientOptions, type Outgoing } from './a2a-client-options.js';
import { A2uiHarvester, type MutableHarvest } from './a2ui-harvester.js';
import { CallWatch } from './call-watch.js';
import { openSdkClient } from './open-sdk-client.js';
import { type FinalStep, readStep, type StepEnd, type StepMode } from './step-reader.js';
import { TaskTracker } from './task-tracker.js';
import { turnVerdictOf } from './turn-verdict.js';

type Open = (call: { signal: AbortSignal }) => AsyncIterable<StreamResponse>;

/** One A2UI session over A2A, and the transport shell it runs in. */
export class A2aClientLink {
  readonly #options: A2aClientOptions;
  readonly #baseUrl: string;
  readonly #kit: ReturnType<typeof resolveLinkOptions>;
  readonly #requestTimeoutMs: number;
  readonly #heartbeatTimeoutMs: number;
  readonly #offeredUris: readonly string[];
  readonly #wake: (listener: () => void) => () => void;

  readonly harvester = new A2uiHarvester();
  readonly tasks: TaskTracker;
  readonly #calls: CallWatch;
  readonly outbox: Outbox<Outgoing>;
  readonly shell: LinkTransport;

  #client: Client | undefined;
  #streams = false;
  #a2uiVersion: string | undefined;
  /** The local id of the session, for the outbox (a reset starts a new one). */
  #epoch = createConnectionId();
  #openingMessageId = createConnectionId();
  #opened: boolean;
  #latestMetadata: ClientMessageMetadata | undefined;
  #currentAttempt: LinkAttempt | undefined;
  #turnsInFlight = 0;
  #idle: AbortController | undefined;
  #changed: (() => void) | undefined;

  constructor(options: A2aClientOptions, baseUrl: string) {
    const defaults = A2A_CLIENT_DEFAULTS;
    this.#options = options;
    this.#baseUrl = baseUrl;
    this.#kit = resolveLinkOptions(options, defaults);
    this.#requestTimeoutMs = options.requestTimeoutMs ?? defaults.requestTimeoutMs;
    this.#heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? defaults.heartbeatTimeoutMs;
    this.#offeredUris = resolveOfferedVersions(options.offeredVersions).map(a2uiExtensionUriOf);
    this.#wake = options.wake ?? listenForBrowserWake;
    this.tasks = new TaskTracker(options.contextId);
    this.#opened = options.contextId !== undefined;
    this.#calls = new CallWatch(options, () => this.shell.signal);
    this.outbox = new Outbox<Outgoing>({
      overtakes: (item) => item.kind === 'a2ui' && isOvertakingMessage(item.message),
      ...this.#kit.outbox,
      // One A2A message per client message: its id is the message's idempotency key.
      maxBatchLength: 1,
      onTrouble: (trouble) => this.shell.status.trouble(trouble),
      deliver: (batch, context) => this.#deliverTurn(batch[0]!, context),
    });
    this.shell = createLinkTransport({
      name: 'A2A',
      connect: (attempt) => this.#runLink(attempt),
      ...this.#kit.shell,
      goodbye: () => this.#goodbye(),
      onClose: (error) => {
        this.#idle?.abort();
        this.outbox.close(error);
      },
    });
  }

  /** The protocol version the SDK client speaks, once the card was read. */
  get protocolVersion(): string | undefined {
    return this.#client?.protocolVersion;
  }

  /** The A2UI version both sides speak, from the card. */
  get a2uiVersion(): string | undefined {
    return this.#a2uiVersion;
  }

  /** Queues a client message (after earlier ones); resolves when the agent answered it. */
  enqueue(item: Outgoing, sendOptions: SendOptions): Promise<void> {
    return this.shell.sendWhileOpen(() => {
      if (item.metadata) this.#latestMetadata = item.metadata;
      const sent = this.outbox.enqueue(item, sendOptions);
      this.#notifyChange();
      // Once it is answered, the link may hold a subscription again.
      const notify = () => this.#notifyChange();
      sent.then(notify, notify);
      return sent;
    });
  }

  /** The metadata of the last message that carried some (a text part goes with it). */
  get latestMetadata(): ClientMessageMetadata | undefined {
    return this.#latestMetadata;
  }

  #notifyChange(): void {
    const resolve = this.#changed;
    this.#changed = undefined;
    resolve?.();
  }

  // ---- Calls and steps ------------------------------------------------------------------------

  #serviceParameters() {
    return ServiceParameters.create(withA2AExtensions(...this.#offeredUris), (parameters) => {
      parameters[LAST_EVENT_ID_HEADER] = String(this.harvester.sequence.last);
    });
  }

  /** Applies what a step harvested: A2UI messages to the consumer, text to `onText`. */
  #deliver(harvest: MutableHarvest): void {
    for (const payload of harvest.payloads) {
      this.#currentAttempt?.delivered();
      this.shell.push({ type: 'messages', messages: payload });
    }
    const { onText } = this.#options;
    if (onText) for (const text of harvest.texts) onText(text);
  }

  /** Runs `open`'s stream as a step of `mode` within one call of its own. */
  async #step(
    open: Open,
    parent: AbortSignal,
    mode: StepMode,
    progress?: { events: number },
  ): Promise<StepEnd> {
    // This package's server pings idle streams; another agent may be silent for as long as it likes.
    const call = this.#calls.start(parent, {
      heartbeatMs: this.harvester.sequenced ? this.#heartbeatTimeoutMs : undefined,
      responseTimeoutMs: this.#streams ? this.#requestTimeoutMs : undefined,
    });
    const link = this;
    const context = {
      harvester: this.harvester,
      tasks: this.tasks,
      deliver: (harvest: MutableHarvest) => this.#deliver(harvest),
      get closed() {
        return link.shell.closed;
      },
    };
    try {
      return await readStep(open(call), call, mode, context, progress);
    } finally {
      call.end();
    }
  }

  #subscribe(id: string): Open {
    return (call) =>
      this.#client!.resubscribeTask(
        { tenant: '', id },
        { signal: call.signal, serviceParameters: this.#serviceParameters() },
      );
  }

  /**
   * The step is over: follow its task, and report what its status says about the session.
   * @returns the message's refusal, a retry (a busy agent), or `undefined` (all is well)
   */
  #settle(end: FinalStep): A2uiError | { retry: TroubleCause } | undefined {
    this.tasks.settle(end.state);
    const verdict = turnVerdictOf(end.metadata);
    switch (verdict?.kind) {
      case 'reset':
        this.#resetSession(verdict.reason);
        return new A2uiError('CONNECTION_CLOSED', 'The session was reset; its surfaces are gone.');
      case 'closed':
        this.shell.end('The agent closed the connection.');
        return verdict.error;
      case 'refused':
        return verdict.error;
      case 'retry':
        return { retry: verdict.cause };
      default:
        return undefined;
    }
  }

  #resetSession(reason: string): void {
    this.tasks.reset();
    this.#epoch = createConnectionId();
    this.#openingMessageId = createConnectionId();
    this.#opened = false;
    this.harvester.reset();
    this.outbox.reset();
    this.shell.push({ type: 'reset', reason });
    this.#notifyChange();
  }

  // ---- Turns: one message, its streamed answer, resumed when cut -----------------------------

  #buildRequest(messageId: string, item: Outgoing | undefined): SendMessageRequest {
    const options = this.#options;
    const metadata = item?.metadata ??
      this.#latestMetadata ?? {
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
      contextId: this.tasks.contextId,
      taskId: this.tasks.continuedTaskId,
      role: Role.ROLE_USER,
      parts,
      metadata: { ...metadata },
      extensions: [...this.#offeredUris],
      referenceTaskIds: [],
    };
    return { tenant: '', message, configuration: undefined, metadata: undefined };
  }

  /**
   * Sends `request` and reads its answer to the end of the step. An answer cut after the server
   * took the message (its first event came) is resumed with `SubscribeToTask`, from where this
   * client is; one cut before is for the caller to resend, with the same message id. `taken`
   * names the task once the server took the message (from then on it may have been applied).
   */
  async #runTurn(
    request: SendMessageRequest,
    signal: AbortSignal,
  ): Promise<{ end: StepEnd; taken: string | undefined }> {
    const progress = { events: 0 };
    const send: Open = (call) =>
      this.#client!.sendMessageStream(request, {
        signal: call.signal,
        serviceParameters: this.#serviceParameters(),
      });
    let end = await this.#step(send, signal, 'turn', progress);
    const turnTask = progress.events > 0 ? this.tasks.taskId : undefined;
    const turnBackoff = createBackoff({
      ...this.#kit.retry,
      maxAttempts: Number.POSITIVE_INFINITY,
    });
    while (end.kind === 'cut' && turnTask && !this.shell.closed && !signal.aborted) {
      await sleep(turnBackoff.fail(end.retryAfterMs), signal, this.#wake);
      if (this.shell.closed || signal.aborted) break;
      end = await this.#step(this.#subscribe(turnTask), signal, 'resume');
      if (end.kind === 'refused' && end.error.code === 'NOT_SUPPORTED') {
        // The task ended while the stream was down (a finished task cannot be subscribed to).
        this.tasks.taskId = undefined;
        end = { kind: 'final', state: undefined, metadata: undefined };
      }
    }
    return { end, taken: turnTask };
  }

  /** The outbox's delivery of one client message: one turn. */
  async #deliverTurn(
    entry: OutboxEntry<Outgoing>,
    context: { connectionId: string; signal: AbortSignal },
  ): Promise<OutboxDelivery> {
    if (context.connectionId !== this.#epoch || !this.#client)
      return { kind: 'retry', reason: 'The session is opening.' };
    this.#turnsInFlight++;
    this.#idle?.abort();
    try {
      const request = this.#buildRequest(entry.id, entry.item);
      const { end, taken } = await this.#runTurn(request, context.signal);
      return this.#deliveryOf(entry, request, end, taken);
    } finally {
      this.#turnsInFlight--;
      this.#notifyChange();
    }
  }

  /** What a turn's end means for the message it carried. */
  #deliveryOf(
    entry: OutboxEntry<Outgoing>,
    request: SendMessageRequest,
    end: StepEnd,
    taken: string | undefined,
  ): OutboxDelivery {
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
      if (taken && this.shell.closed) return unknown(taken);
      return { kind: 'retry', reason: 'The answer did not finish.' };
    }
    if (end.kind === 'refused') {
      const rpcCode = end.error.data?.rpcCode;
      if (rpcCode === -32001)
        this.#resetSession('The server no longer knows this task (expired or restarted).');
      const taskGone = rpcCode === -32001 || rpcCode === -32004;
      if (taken || (entry.sentBefore && taskGone)) return unknown(sentTo);
      if (rpcCode === -32004 && request.message?.taskId) {
        // The task ended meanwhile (e.g. with its session): the message goes in a new task.
        this.tasks.forget();
        return { kind: 'retry', reason: 'The task ended; sending in a new task of the context.' };
      }
      return { kind: 'answered', errors: new Map([[entry.id, end.error]]) };
    }
    const outcome = this.#settle(end);
    if (outcome && 'retry' in outcome)
      return { kind: 'retry', reason: describeTroubleCause(outcome.retry), cause: outcome.retry };
    // A reset refuses this attempt; one before it may have reached the session that is gone.
    if (outcome?.code === 'CONNECTION_CLOSED' && entry.sentBefore) return unknown(sentTo);
    return outcome
      ? { kind: 'answered', errors: new Map([[entry.id, outcome]]) }
      : { kind: 'answered' };
  }

  // ---- The link: open the conversation, then hold (a subscription while the task waits) ------

  #pushEnabled(): boolean {
    const serverPush = this.#options.serverPush ?? A2A_CLIENT_DEFAULTS.serverPush;
    return (
      (serverPush === true || (serverPush === 'auto' && this.harvester.sequenced)) &&
      this.#client !== undefined
    );
  }

  /** Reads the card and creates the SDK client; refusals a retry cannot fix are fatal. */
  async #createClient(signal: AbortSignal): Promise<LinkOutcome | undefined> {
    const opened = await openSdkClient({
      baseUrl: this.#baseUrl,
      card: this.#options.card,
      calls: this.#calls,
      requestTimeoutMs: this.#requestTimeoutMs,
      requireExtension: this.#options.requireExtension ?? A2A_CLIENT_DEFAULTS.requireExtension,
      offeredUris: this.#offeredUris,
      signal,
    });
    if ('kind' in opened) return opened;
    this.#client = opened.client;
    this.#streams = opened.streams;
    this.#a2uiVersion = opened.a2uiVersion;
    return undefined;
  }

  async #openConversation(attempt: LinkAttempt): Promise<LinkOutcome | undefined> {
    const request = this.#buildRequest(this.#openingMessageId, undefined);
    const { end } = await this.#runTurn(request, attempt.signal);
    if (end.kind === 'aborted') return { kind: 'closed', reason: 'Closed by the client.' };
    if (end.kind === 'cut')
      return { kind: 'dropped', reason: end.reason, retryAfterMs: end.retryAfterMs };
    if (end.kind === 'ended') return { kind: 'dropped', reason: 'The answer did not finish.' };
    if (end.kind === 'refused') {
      if (end.error.code === 'CONNECTION_CLOSED') {
        this.#resetSession(end.error.message);
        return { kind: 'dropped', reason: end.error.message };
      }
      return { kind: 'fatal', error: end.error };
    }
    const outcome = this.#settle(end);
    if (this.shell.closed) return { kind: 'closed', reason: 'The agent closed the connection.' };
    if (outcome && 'retry' in outcome)
      return { kind: 'dropped', reason: `${describeTroubleCause(outcome.retry)}.` };
    if (outcome) return { kind: 'dropped', reason: outcome.message };
    this.#opened = true;
    return undefined;
  }

  async #runLink(attempt: LinkAttempt): Promise<LinkOutcome> {
    this.#currentAttempt = attempt;
    try {
      if (!this.#client) {
        const refused = await this.#createClient(attempt.signal);
        if (refused) return refused;
      }
      while (!this.shell.closed && !attempt.signal.aborted) {
        if (!this.#opened) {
          this.outbox.pause();
          const refused = await this.#openConversation(attempt);
          if (refused) return refused;
          continue;
        }
        this.outbox.setConnection(this.#epoch);
        attempt.opened();
        const ended = await this.#hold(attempt);
        if (ended) return ended;
      }
      return { kind: 'closed', reason: 'Closed by the client.' };
    } finally {
      this.#currentAttempt = undefined;
    }
  }

  /** Waits for the next change (a message queued or answered, a reset) or the attempt's end. */
  #nextChange(attempt: LinkAttempt): Promise<void> {
    return new Promise<void>((resolve) => {
      // Removed once woken: the attempt lives as long as the link, and this waits once per change.
      const done = () => {
        attempt.signal.removeEventListener('abort', done);
        resolve();
      };
      this.#changed = done;
      attempt.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** While the session is open: hold a subscription when pushes can arrive, else wait. */
  async #hold(attempt: LinkAttempt): Promise<LinkOutcome | undefined> {
    while (!this.shell.closed && !attempt.signal.aborted && this.#opened) {
      const { waiting, taskId } = this.tasks;
      if (!this.#pushEnabled() || !waiting || this.#turnsInFlight > 0 || this.outbox.pending > 0) {
        await this.#nextChange(attempt);
        continue;
      }
      this.#idle = new AbortController();
      const progress = { events: 0 };
      let end: StepEnd;
      try {
        end = await this.#step(this.#subscribe(taskId!), this.#idle.signal, 'idle', progress);
      } finally {
        this.#idle = undefined;
      }
      if (end.kind === 'aborted') continue;
      if (end.kind === 'ended' && progress.events > 1) continue;
      if (end.kind === 'cut' || end.kind === 'ended') {
        // Also a stream that ends at once: resubscribing at once would be a request storm.
        this.outbox.pause();
        const reason = end.kind === 'cut' ? end.reason : 'The subscription ended at once.';
        return {
          kind: 'dropped',
          reason,
          retryAfterMs: end.kind === 'cut' ? end.retryAfterMs : undefined,
        };
      }
      if (end.kind === 'refused') {
        if (end.error.code === 'CONNECTION_CLOSED') this.#resetSession(end.error.message);
        else this.tasks.taskId = undefined;
        continue;
      }
      this.#settle(end);
    }
    return this.shell.closed ? { kind: 'closed', reason: 'Closed by the client.' } : undefined;
  }

  /** The agent sees onDisconnect('client-closed') at once: cancelling the task ends the session. */
  async #goodbye(): Promise<void> {
    const waiting = this.tasks.taskId;
    if (!this.#client || !waiting) return;
    const deadline = withDeadline(undefined, A2A_CLIENT_DEFAULTS.closeTimeoutMs);
    await this.#client
      .cancelTask(
        { tenant: '', id: waiting, metadata: undefined },
        { signal: deadline.signal, serviceParameters: this.#serviceParameters() },
      )
      .catch(() => {});
    deadline.clear();
  }
}
