/**
 * The link of `connectAgUi`: one AG-UI thread carrying an A2UI session. Every exchange is a run
 * (one at a time, `run-queue.ts`): the first run opens the thread, each client message is a run,
 * frontend tool results start the next run, a cut run is caught up at once by another, and between
 * runs the thread is polled or long-polled (`waiting-run.ts`) when asked. Reconnects (of the first
 * run), the outbox and the status are core's link kit; a run's events are read by
 * `run-subscriber.ts`, and its outcome judged by `run-outcome.ts`.
 */
import {
  A2uiError,
  type ClientMessage,
  type ClientMessageMetadata,
  createConnectionId,
  getFunctionCallKind,
  resolveOfferedVersions,
  type ServerMessage,
} from '@a2ui-ts/core';
import {
  createBackoff,
  createLinkTransport,
  errorOfHttpStatus,
  isRetryableStatus,
  type LinkAttempt,
  type LinkOutcome,
  type LinkTransport,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  resolveLinkOptions,
  sleep,
} from '@a2ui-ts/core/link';
import { type AbstractAgent, HttpAgent } from '@ag-ui/client';
import { FORWARDED_PROPS } from '../protocol/constants.js';
import { A2uiEventReader } from './a2ui-event-reader.js';
import {
  AGUI_CLIENT_DEFAULTS,
  type AgUiFrontendTool,
  type ConnectAgUiOptions,
} from './agui-client-options.js';
import { frontendToolCalls, runFrontendTool, toolParameters } from './frontend-tools.js';
import { guardRunFetch } from './guard-run-fetch.js';
import {
  failedRunOutcome,
  type RunOutcome,
  type ToolCall,
  threadResetError,
  toDelivery,
} from './run-outcome.js';
import { RunQueue } from './run-queue.js';
import { RunSeq } from './run-seq.js';
import { createRunSubscriber } from './run-subscriber.js';
import { sendRelease, WaitingRun } from './waiting-run.js';

/** A run's outcome, and the frontend tool calls it ended with. */
export interface RunResult {
  outcome: RunOutcome;
  toolCalls: ToolCall[];
}

type Outgoing = { message: ClientMessage; metadata: ClientMessageMetadata };

/** One AG-UI thread carrying an A2UI session, and the transport shell it runs in. */
export class AgUiClientLink {
  readonly #options: ConnectAgUiOptions;
  readonly #maxToolRounds: number;
  readonly #offeredVersions: readonly string[];
  readonly #tools: readonly AgUiFrontendTool[];
  readonly #pollIntervalMs: number;
  readonly #longPoll: boolean;

  readonly agent: AbstractAgent;
  readonly outbox: Outbox<Outgoing>;
  readonly shell: LinkTransport;
  readonly #reader = new A2uiEventReader();
  readonly #seq = new RunSeq();
  readonly #waiting: WaitingRun;
  readonly queue: RunQueue;

  /** The response of the last request each run made, for its status and `Retry-After`. */
  #lastResponse: Response | undefined;
  #generation = 0;
  #runs = 0;
  #opened = false;
  /** Resolves when the link must end (closed by either side, or a fatal refusal). */
  #endLink: ((outcome: LinkOutcome) => void) | undefined;
  #catchingUp = false;

  constructor(options: ConnectAgUiOptions) {
    const defaults = AGUI_CLIENT_DEFAULTS;
    this.#options = options;
    const kit = resolveLinkOptions(options, defaults);
    this.#maxToolRounds = options.maxToolRounds ?? defaults.maxToolRounds;
    this.#offeredVersions = resolveOfferedVersions(options.offeredVersions);
    this.#tools = options.tools ?? [];
    this.#pollIntervalMs = options.pollIntervalMs ?? defaults.pollIntervalMs;
    const baseFetch: typeof fetch =
      options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#waiting = new WaitingRun(() =>
      sendRelease(baseFetch, options, () => this.agent.threadId),
    );
    this.queue = new RunQueue(() => this.#waiting.release());
    this.agent = options.agent ?? this.#createAgent(baseFetch);
    if (options.agent && options.threadId) this.agent.threadId = options.threadId;
    if (!options.agent && options.url === undefined)
      throw new A2uiError('VALIDATION_FAILED', 'connectAgUi needs a url or an agent.');
    this.#longPoll = options.longPoll ?? defaults.longPoll;
    if (this.#longPoll && options.url === undefined)
      throw new A2uiError('VALIDATION_FAILED', 'connectAgUi’s longPoll needs a url.');
    this.outbox = new Outbox<Outgoing>({
      ...kit.outbox,
      maxBatchLength: 1,
      createId: createConnectionId,
      onTrouble: (trouble) => this.shell.status.trouble(trouble),
      deliver: ([entry]) => this.#deliver(entry!),
    });
    this.shell = createLinkTransport({
      name: 'AG-UI',
      connect: (attempt) => this.#runLink(attempt),
      ...kit.shell,
      goodbye: () => this.#goodbye(),
      onClose: (error) => this.outbox.close(error),
    });
  }

  /** Runs started so far. */
  get runs(): number {
    return this.#runs;
  }

  #createAgent(baseFetch: typeof fetch): HttpAgent {
    const options = this.#options;
    const runFetch = guardRunFetch(baseFetch, {
      idleTimeoutMs: options.idleTimeoutMs ?? AGUI_CLIENT_DEFAULTS.idleTimeoutMs,
    });
    return new HttpAgent({
      url: String(options.url ?? ''),
      threadId: options.threadId ?? createConnectionId(),
      fetch: async (url, init) => {
        const response = await runFetch(url, init);
        this.#lastResponse = response;
        // The server holds a waiting run from the moment it answers: a release may go out now.
        this.#waiting.responded();
        return response;
      },
    });
  }

  #connectionName(): string {
    return `${this.agent.threadId}#${this.#generation}`;
  }

  #push(messages: ServerMessage[]): void {
    if (messages.length > 0) this.shell.push({ type: 'messages', messages });
  }

  async #applyHeaders(): Promise<void> {
    const { headers } = this.#options;
    if (headers === undefined || !(this.agent instanceof HttpAgent)) return;
    (this.agent as HttpAgent).headers =
      typeof headers === 'function' ? await headers() : { ...headers };
  }

  // ---- Runs -----------------------------------------------------------------------------------

  /** One run through the agent, with its events turned into A2UI messages as they arrive. */
  async runOnce(forwardedProps: Record<string, unknown>, runId?: string): Promise<RunResult> {
    const result = await this.#runAgentOnce(forwardedProps, runId);
    // A cut run: what it carried and the client lacks comes with another run, at once.
    if (result.outcome.kind === 'incomplete' || result.outcome.kind === 'network-error')
      this.#catchUp();
    return result;
  }

  async #runAgentOnce(forwardedProps: Record<string, unknown>, runId?: string): Promise<RunResult> {
    this.#runs++;
    const { subscriber, record } = createRunSubscriber({
      reader: this.#reader,
      seq: this.#seq,
      threadId: this.agent.threadId,
      push: (messages) => this.#push(messages),
      reset: (reason) => this.#resetSession(reason),
    });
    this.#lastResponse = undefined;
    try {
      await this.#applyHeaders();
      this.#seq.stamp(this.agent);
      await this.agent.runAgent(
        {
          ...(runId ? { runId } : {}),
          tools: toolParameters(this.#tools),
          context: [...(this.#options.context ?? [])],
          forwardedProps: {
            ...forwardedProps,
            [FORWARDED_PROPS.versions]: [...this.#offeredVersions],
          },
        },
        subscriber,
      );
      if (record.failure) throw record.failure;
    } catch (error) {
      return { outcome: failedRunOutcome(error, this.#lastResponse), toolCalls: [] };
    }
    const outcome = record.outcome();
    if (outcome.kind !== 'finished') return { outcome, toolCalls: [] };
    const calls = [...record.calls.values()].filter((call) => !record.functionCallIds.has(call.id));
    return { outcome, toolCalls: frontendToolCalls(calls, this.#tools) };
  }

  /**
   * Catches up a cut run: runs without input, one after another (backing off while they fail),
   * until one finishes. One catch-up at a time; other runs catch up as well, as they go.
   */
  #catchUp(): void {
    if (this.#catchingUp || !this.#opened || this.shell.closed) return;
    this.#catchingUp = true;
    const backoff = createBackoff(this.#options.reconnect);
    void (async () => {
      try {
        while (!this.shell.closed && this.#endLink) {
          const result = await this.queue
            .exclusive(() => this.#runAgentOnce({}))
            .catch(() => undefined);
          if (this.shell.closed) return;
          const outcome = result?.outcome;
          if (outcome && outcome.kind !== 'incomplete' && outcome.kind !== 'network-error') {
            this.handleEnd(outcome);
            if (outcome.kind === 'finished') await this.followUp(result!);
            if (outcome.kind !== 'http-error' || !isRetryableStatus(outcome.status)) return;
          }
          await sleep(backoff.fail(), this.shell.signal);
        }
      } finally {
        this.#catchingUp = false;
      }
    })().catch(() => {});
  }

  /** Runs the frontend tools a run called, then the runs their results start. */
  async #followToolCalls(toolCalls: ToolCall[]): Promise<void> {
    let pending = toolCalls;
    for (
      let round = 0;
      round < this.#maxToolRounds && pending.length > 0 && !this.shell.closed;
      round++
    ) {
      for (const call of pending) {
        const tool = this.#tools.find((candidate) => candidate.name === call.name)!;
        this.agent.addMessage(await runFrontendTool(tool, call, this.shell.signal));
      }
      const next = await this.runOnce({});
      this.handleEnd(next.outcome);
      pending = next.toolCalls;
    }
  }

  /** Runs the frontend tools `result` called (only a finished run has any), after the run under way. */
  followUp(result: { toolCalls: ToolCall[] }): Promise<void> {
    return result.toolCalls.length > 0
      ? this.queue.exclusive(() => this.#followToolCalls(result.toolCalls))
      : Promise.resolve();
  }

  /** What every run's end means for the link. */
  handleEnd(outcome: RunOutcome): void {
    if (outcome.kind === 'finished' && outcome.closed !== undefined)
      this.#endLink?.({
        kind: 'closed',
        reason: `The server closed the thread (${outcome.closed}).`,
      });
    if (outcome.kind === 'http-error' && (outcome.status === 401 || outcome.status === 403))
      this.#endLink?.({ kind: 'fatal', error: errorOfHttpStatus(outcome.status, outcome.message) });
  }

  #resetSession(reason: string): void {
    this.#generation++;
    this.#reader.clear();
    this.#seq.clear();
    this.outbox.reset();
    this.outbox.setConnection(this.#connectionName());
    this.shell.push({ type: 'reset', reason });
  }

  // ---- Client → server: each client message is a run --------------------------------------

  async #deliver(entry: OutboxEntry<Outgoing>): Promise<OutboxDelivery> {
    const { message, metadata } = entry.item;
    const forwardedProps: Record<string, unknown> = {
      [getFunctionCallKind(message)
        ? FORWARDED_PROPS.functionCall
        : 'action' in message
          ? FORWARDED_PROPS.action
          : FORWARDED_PROPS.error]: message,
    };
    if (metadata?.a2uiClientCapabilities)
      forwardedProps[FORWARDED_PROPS.capabilities] = metadata.a2uiClientCapabilities;
    if (metadata?.a2uiClientDataModel)
      forwardedProps[FORWARDED_PROPS.dataModel] = metadata.a2uiClientDataModel;
    const bound = entry.connectionId;
    const result = await this.queue.exclusive(async () =>
      // A run before this one reset the thread: the message belongs to the one that is gone.
      bound !== undefined && bound !== this.#connectionName()
        ? undefined
        : this.runOnce(forwardedProps, entry.id),
    );
    if (!result)
      return {
        kind: 'answered',
        errors: new Map([[entry.id, threadResetError()]]),
      };
    const { outcome, toolCalls } = result;
    this.handleEnd(outcome);
    const delivery = toDelivery(outcome, entry.id);
    void this.followUp({ toolCalls }).catch(() => {});
    return delivery;
  }

  // ---- The link: the first run opens the thread ---------------------------------------------

  async #runLink(attempt: LinkAttempt): Promise<LinkOutcome> {
    if (this.shell.closed) return { kind: 'closed', reason: 'Closed by the client.' };
    const first = await this.queue.exclusive(() =>
      this.runOnce(this.#opened ? {} : { [FORWARDED_PROPS.resync]: true }),
    );
    const outcome = first.outcome;
    if (outcome.kind !== 'finished') return openingFailure(outcome);
    this.#opened = true;
    attempt.delivered();
    attempt.opened();
    this.outbox.setConnection(this.#connectionName());
    if (outcome.closed !== undefined)
      return { kind: 'closed', reason: `The server closed the thread (${outcome.closed}).` };
    void this.followUp(first).catch(() => {});
    // AG-UI has no link between runs: the thread stays open until one side closes it.
    return new Promise<LinkOutcome>((resolve) => {
      this.#endLink = (end) => {
        this.#endLink = undefined;
        resolve(end);
      };
      if (this.#longPoll) void this.#waitForUpdates(attempt.signal);
      else if (this.#pollIntervalMs > 0) void this.#poll(attempt.signal);
      const stop = () => this.#endLink?.({ kind: 'closed', reason: 'Closed by the client.' });
      if (attempt.signal.aborted) stop();
      else attempt.signal.addEventListener('abort', stop, { once: true });
    });
  }

  /** Starts a run without input whenever the thread was idle for `pollIntervalMs`. */
  async #poll(signal: AbortSignal): Promise<void> {
    const pollIntervalMs = this.#pollIntervalMs;
    while (!this.shell.closed && !signal.aborted && this.#endLink) {
      const { running } = this.queue;
      const idleMs = Date.now() - this.queue.lastActivity;
      if (running > 0 || idleMs < pollIntervalMs) {
        await sleep(Math.max(1, pollIntervalMs - (running > 0 ? 0 : idleMs)), signal);
        continue;
      }
      const polled = await this.queue.exclusive(() => this.runOnce({})).catch(() => undefined);
      if (!polled) continue;
      this.handleEnd(polled.outcome);
      await this.followUp(polled).catch(() => {});
    }
  }

  /**
   * Long polling: keeps a waiting run open whenever the thread is idle. Without a run of another
   * kind between two waiting runs, they start `pollIntervalMs` (at least 1 s) apart, so a server
   * that answers them at once is polled, not flooded.
   */
  async #waitForUpdates(signal: AbortSignal): Promise<void> {
    const minGapMs = Math.max(this.#pollIntervalMs, 1_000);
    let lastStart = Number.NEGATIVE_INFINITY;
    let runsAfterLast = -1;
    while (!this.shell.closed && !signal.aborted && this.#endLink) {
      await this.queue.idle();
      if (this.shell.closed || signal.aborted || !this.#endLink) return;
      const gapMs = this.#runs === runsAfterLast ? minGapMs - (Date.now() - lastStart) : 0;
      if (gapMs > 0) {
        await sleep(gapMs, signal);
        continue;
      }
      const result = await this.queue
        .exclusive(async () => {
          // An action queued meanwhile goes first; the loop comes back once it is done.
          if (this.queue.wanted > 0) return undefined;
          lastStart = Date.now();
          this.#waiting.begin();
          try {
            return await this.runOnce({ [FORWARDED_PROPS.wait]: true });
          } finally {
            this.#waiting.end();
            runsAfterLast = this.#runs;
          }
        }, true)
        .catch(() => undefined);
      if (!result) continue;
      this.handleEnd(result.outcome);
      await this.followUp(result).catch(() => {});
    }
  }

  /**
   * Tells the server, so the agent sees `client-closed` at once: after the run under way (the
   * first one may still be opening the thread), within a deadline.
   */
  async #goodbye(): Promise<void> {
    if (!this.shell.started) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.queue
        .exclusive(() => this.runOnce({ [FORWARDED_PROPS.disconnect]: true }))
        .catch(() => {}),
      new Promise((resolve) => {
        timer = setTimeout(resolve, AGUI_CLIENT_DEFAULTS.closeTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

/** Why the first run failed to open the thread, as the reconnect loop reads it. */
function openingFailure(outcome: Exclude<RunOutcome, { kind: 'finished' }>): LinkOutcome {
  if (outcome.kind === 'http-error') {
    if (isRetryableStatus(outcome.status))
      return { kind: 'dropped', reason: outcome.message, retryAfterMs: outcome.retryAfterMs };
    return { kind: 'fatal', error: errorOfHttpStatus(outcome.status, outcome.message) };
  }
  const reason =
    outcome.kind === 'run-error'
      ? `The run failed: ${outcome.message}`
      : outcome.kind === 'network-error'
        ? `Could not reach the AG-UI endpoint: ${outcome.message}`
        : 'The run ended before RUN_FINISHED.';
  return { kind: 'dropped', reason };
}
