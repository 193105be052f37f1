/**
 * The client connector (ARCHITECTURE §4 "AG-UI"): a `ClientTransport` on `@ag-ui/client`'s
 * `HttpAgent`, so any AG-UI agent's A2UI — ours in any mode, or one we did not write — renders in
 * `<A2UIRenderer>`. Each A2UI action becomes a run with `forwardedProps.a2uiAction` and the client
 * metadata; the first run opens the thread; frontend tools the page declares are run when a run
 * ends with calls to them, and their results start the next run. There is no server push in
 * AG-UI: what an agent sends between runs arrives with the next one.
 *
 * Reconnects (of the first run), the outbox (one run at a time, each action retried with the same
 * `runId` until answered, backoff on refusal) and the status are core's link kit.
 *
 * Nothing is lost when a run is cut: the thread's `a2uiSeq` travels in the state the client sends
 * back (this keeps it current also for what arrives in activity messages), so a run that ends
 * without `RUN_FINISHED` — cut, or silent past `idleTimeoutMs` — is caught up at once by another
 * run, which the server answers with exactly the messages after that seq.
 */
import {
  A2uiError,
  type A2uiErrorCode,
  type ClientMessage,
  type ClientMessageMetadata,
  type ClientTransport,
  type ConnectionStatus,
  createConnectionId,
  describeError,
  type HostContextEntry,
  resolveOfferedVersions,
  type SendOptions,
  type ServerMessage,
} from '@a2ui-ts/core';
import {
  createBackoff,
  createLinkTransport,
  errorOfHttpStatus,
  isRetryableStatus,
  LINK_DEFAULTS,
  type LinkAttempt,
  type LinkOptions,
  type LinkOutcome,
  Outbox,
  type OutboxDelivery,
  parseRetryAfter,
  type ReconnectOptions,
  resolveLinkOptions,
  sleep,
} from '@a2ui-ts/core/link';
import { type AbstractAgent, type AgentSubscriber, HttpAgent } from '@ag-ui/client';
import { CUSTOM_EVENTS, FORWARDED_PROPS, STATE_VERSION_KEY } from '../protocol/constants.js';
import { A2uiEventReader } from './a2ui-event-reader.js';
import { guardRunFetch, RunCutError } from './guard-run-fetch.js';
import { RunSeq } from './run-seq.js';

/** A tool the page offers the agent (AG-UI's frontend tool), with the code that runs it. */
export interface AgUiFrontendTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. @default `{type: 'object'}` */
  readonly parameters?: Record<string, unknown>;
  /**
   * Runs the tool. Its result (a string, or JSON) is the `tool` message's content; a throw sends
   * `Error: <message>` with `error` set.
   */
  handler(args: unknown, context: { readonly signal: AbortSignal }): unknown;
}

/**
 * Options of {@link connectAgUi}. Durations in milliseconds. `signal`, `random` and
 * `maxQueuedMessages` are core's {@link LinkOptions}; each client message is one run, whose
 * `runId` is its idempotency key.
 */
export interface ConnectAgUiOptions
  extends Omit<LinkOptions, 'maxBatchLength' | 'createRequestId'> {
  /** The AG-UI endpoint (an `HttpAgent`'s `url`). Ignored with {@link agent}. */
  url?: string | URL;
  /**
   * An agent to run instead of a new `HttpAgent` (e.g. one with middleware such as
   * `A2UIMiddleware`). Its `threadId`, `messages` and `state` are used and updated.
   */
  agent?: AbstractAgent;
  /** The thread to continue. @default a fresh random id */
  threadId?: string;
  /**
   * Headers of every request (e.g. `Authorization`). A function is called before each run.
   * @default none
   */
  headers?:
    | Record<string, string>
    | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * A run whose response sends no byte for this long (no event, no keep-alive comment) counts as
   * stalled: it is aborted and caught up by a new run. Keep it above the server's keep-alive
   * interval (this adapter's server: `keepAliveIntervalMs`, 15 s). Applies to runs over {@link url}
   * (not to an {@link agent} given whole). 0 never aborts.
   * @default 45000
   */
  idleTimeoutMs?: number;
  /** Frontend tools offered with every run. @default none */
  tools?: readonly AgUiFrontendTool[];
  /** Context entries sent with every run (`RunAgentInput.context`). @default none */
  context?: readonly HostContextEntry[];
  /**
   * AG-UI has no server push: what an agent sends between runs arrives with the next run. With
   * this set, a run without input is started whenever the thread was idle this long, so such
   * updates show up anyway. 0 never polls.
   * @default 0
   */
  pollIntervalMs?: number;
  /**
   * Long polling: whenever the thread is idle, one waiting run (`forwardedProps.a2uiWait`) is
   * open, and what the agent sends streams in as it is sent (this adapter's server holds such a
   * run up to its `maxRunWaitMs`). Before any other run the client asks the server to end it
   * (`a2uiRelease`, answered `204`), so actions never wait behind it. A server that answers a
   * waiting run at once is polled every `pollIntervalMs` (at least 1 s). Needs {@link url}.
   * @default false
   */
  longPoll?: boolean;
  /** Most runs started in a row by frontend tool results, before waiting for the user. @default 10 */
  maxToolRounds?: number;
  /**
   * The A2UI versions this client reads, offered with every run as `forwardedProps.a2uiVersions`;
   * the server answers with the one it speaks in state (`state.a2uiVersion`,
   * {@link AgUiTransport.protocolVersion}; this adapter's server carries v0.9), or refuses the run
   * with 406 (`NOT_SUPPORTED`) when it speaks none of them.
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[];
  /** Backoff of the first run and of redeliveries. */
  reconnect?: ReconnectOptions;
  /** Subscribes to "retry now" signals. @default the browser's `online` and `visibilitychange` */
  wake?: (listener: () => void) => () => void;
}

/** The transport returned by {@link connectAgUi}. */
export interface AgUiTransport extends ClientTransport {
  /** The AG-UI agent the runs go through. */
  readonly agent: AbstractAgent;
  readonly threadId: string;
  readonly status: ConnectionStatus;
  /** Client messages not yet answered. */
  readonly pendingMessages: number;
  /** Runs started so far. */
  readonly runs: number;
  /**
   * The A2UI version the server answered in state (`state.a2uiVersion`); `undefined` before a
   * run, or from a server older than negotiation.
   */
  readonly protocolVersion: string | undefined;
  /**
   * Starts a run without a client message: with user `text` (a `user` message), or nothing (to
   * collect what the agent sent since the last run). Resolves when the run ended.
   */
  run(options?: { text?: string; signal?: AbortSignal }): Promise<void>;
}

/** Defaults of {@link ConnectAgUiOptions}, in one place. */
export const AGUI_CLIENT_DEFAULTS = {
  maxToolRounds: 10,
  pollIntervalMs: 0,
  idleTimeoutMs: 45_000,
  longPoll: false,
  maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
  /** How long `close()` waits for the run that ends the thread. */
  closeTimeoutMs: LINK_DEFAULTS.closeTimeoutMs,
} as const;

/** A call of a frontend tool that a run ended with. */
interface ToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** How one run went. */
type RunOutcome =
  | { kind: 'finished'; reset: boolean; closed: string | undefined }
  | { kind: 'run-error'; code: string | undefined; message: string; reset: boolean }
  | {
      kind: 'http-error';
      status: number;
      code: string | undefined;
      message: string;
      retryAfterMs?: number;
    }
  /** `unsent`: the request is known not to have reached the agent (the connection was refused). */
  | { kind: 'network-error'; message: string; unsent: boolean }
  /** The stream ended without `RUN_FINISHED` or `RUN_ERROR` (cut, stalled, or ag-ui#2300). */
  | { kind: 'incomplete' };

/**
 * Connects to an AG-UI agent. The first run starts when `A2uiClient` calls `events()`; `send`
 * may be called before, and waits for it.
 *
 * @param options - see {@link ConnectAgUiOptions}
 * @returns a `ClientTransport` with `agent`, `threadId`, `status`, `pendingMessages` and `run()`
 *
 * @example
 * ```ts
 * const client = new A2uiClient({
 *   transport: connectAgUi({ url: '/agent', tools: [{ name: 'getTimeZone', description: 'The user time zone',
 *     handler: () => Intl.DateTimeFormat().resolvedOptions().timeZone }] }),
 * });
 * client.connect();
 * ```
 */
export function connectAgUi(options: ConnectAgUiOptions): AgUiTransport {
  const defaults = AGUI_CLIENT_DEFAULTS;
  const kit = resolveLinkOptions(options, defaults);
  const maxToolRounds = options.maxToolRounds ?? defaults.maxToolRounds;
  const offeredVersions = resolveOfferedVersions(options.offeredVersions);
  const tools = options.tools ?? [];
  /** The response of the last request each run made, for its status and `Retry-After`. */
  let lastResponse: Response | undefined;
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const runFetch = guardRunFetch(baseFetch, {
    idleTimeoutMs: options.idleTimeoutMs ?? defaults.idleTimeoutMs,
  });
  const agent =
    options.agent ??
    new HttpAgent({
      url: String(options.url ?? ''),
      threadId: options.threadId ?? createConnectionId(),
      fetch: async (url, init) => {
        const response = await runFetch(url, init);
        lastResponse = response;
        // The server holds a waiting run from the moment it answers: a release may go out now.
        if (waiting && !waiting.responded) {
          waiting.responded = true;
          if (waiting.releaseDue) sendRelease();
        }
        return response;
      },
    });
  if (options.agent && options.threadId) agent.threadId = options.threadId;
  if (!options.agent && options.url === undefined)
    throw new A2uiError('VALIDATION_FAILED', 'connectAgUi needs a url or an agent.');
  const longPoll = options.longPoll ?? defaults.longPoll;
  if (longPoll && options.url === undefined)
    throw new A2uiError('VALIDATION_FAILED', 'connectAgUi’s longPoll needs a url.');

  const reader = new A2uiEventReader();
  const seq = new RunSeq();
  let generation = 0;
  let runs = 0;
  let opened = false;
  /** When the last run ended (or started, while one is under way), for polling. */
  let lastActivity = Date.now();
  let running = 0;
  const pollIntervalMs = options.pollIntervalMs ?? defaults.pollIntervalMs;
  /** Runs other than a waiting run, queued or under way: a waiting run gives way to them. */
  let wanted = 0;
  /** The waiting run under way: whether the server answered it, and whether it must end. */
  let waiting: { responded: boolean; releaseDue: boolean } | undefined;
  /** Resolves when the link must end (closed by either side, or a fatal refusal). */
  let endLink: ((outcome: LinkOutcome) => void) | undefined;
  /** Runs go one at a time, as an `HttpAgent` runs one at a time. */
  let chain: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>, waitingRun = false): Promise<T> => {
    if (!waitingRun) {
      wanted++;
      releaseWaitingRun();
    }
    const tracked = async () => {
      running++;
      try {
        return await task();
      } finally {
        running--;
        if (!waitingRun) wanted--;
        lastActivity = Date.now();
      }
    };
    const next = chain.then(tracked, tracked);
    chain = next.catch(() => {});
    return next;
  };
  /** Ends the waiting run under way (if any), once the server has answered it. */
  const releaseWaitingRun = () => {
    if (!waiting || waiting.releaseDue) return;
    waiting.releaseDue = true;
    if (waiting.responded) sendRelease();
  };

  /** Asks the server to end the thread's waiting run: a request of its own, answered 204. */
  const sendRelease = () => {
    void (async () => {
      const headers =
        typeof options.headers === 'function' ? await options.headers() : options.headers;
      await baseFetch(String(options.url), {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          threadId: agent.threadId,
          runId: createConnectionId(),
          state: {},
          messages: [],
          tools: [],
          context: [],
          forwardedProps: { [FORWARDED_PROPS.release]: true },
        }),
      });
    })().catch(() => {
      // The server ends the waiting run after its `maxRunWaitMs` anyway.
    });
  };

  const connectionName = () => `${agent.threadId}#${generation}`;

  const push = (messages: ServerMessage[]) => {
    if (messages.length > 0) shell.push({ type: 'messages', messages });
  };

  const applyHeaders = async () => {
    if (options.headers === undefined || !(agent instanceof HttpAgent)) return;
    (agent as HttpAgent).headers =
      typeof options.headers === 'function' ? await options.headers() : { ...options.headers };
  };

  const toolParameters = () =>
    tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters ?? { type: 'object' },
    }));

  /** One run through the agent, with its events turned into A2UI messages as they arrive. */
  const runOnce = async (
    forwardedProps: Record<string, unknown>,
    runId?: string,
  ): Promise<{
    outcome: RunOutcome;
    toolCalls: ToolCall[];
  }> => {
    const result = await runAgentOnce(forwardedProps, runId);
    // A cut run: what it carried and the client lacks comes with another run, at once.
    if (result.outcome.kind === 'incomplete' || result.outcome.kind === 'network-error') catchUp();
    return result;
  };

  const runAgentOnce = async (
    forwardedProps: Record<string, unknown>,
    runId?: string,
  ): Promise<{
    outcome: RunOutcome;
    toolCalls: ToolCall[];
  }> => {
    runs++;
    let terminal: 'finished' | 'error' | undefined;
    let runError: { code: string | undefined; message: string } | undefined;
    let reset = false;
    let closedReason: string | undefined;
    const calls = new Map<string, ToolCall>();
    const subscriber: AgentSubscriber = {
      onStateSnapshotEvent: ({ state }) => {
        reader.stateSnapshot(state);
      },
      onStateDeltaEvent: ({ event, state }) => {
        reader.stateDelta(state, event.delta);
      },
      onStateChanged: ({ state }) => push(reader.stateChanged(state)),
      onActivitySnapshotEvent: ({ event }) => {
        push(reader.activitySnapshot(event));
        seq.snapshot(event);
      },
      onActivityDeltaEvent: ({ event }) => {
        push(reader.activityDelta(event));
        seq.delta(event);
      },
      onToolCallEndEvent: ({ event, toolCallName, toolCallArgs }) => {
        calls.set(event.toolCallId, {
          id: event.toolCallId,
          name: toolCallName,
          args: toolCallArgs,
        });
      },
      onToolCallResultEvent: ({ event }) => {
        calls.delete(event.toolCallId);
        push(reader.toolResult(event.content));
      },
      onCustomEvent: ({ event }) => {
        if (event.name === CUSTOM_EVENTS.reset) {
          reset = true;
          const reason = (event.value as { reason?: unknown } | undefined)?.reason;
          resetSession(
            `The server no longer knew this thread (${typeof reason === 'string' ? reason : 'unknown reason'}); it started over.`,
          );
        } else if (event.name === CUSTOM_EVENTS.closed) {
          const reason = (event.value as { reason?: unknown } | undefined)?.reason;
          closedReason = typeof reason === 'string' ? reason : 'unknown reason';
        }
      },
      onRunFinishedEvent: () => {
        terminal = 'finished';
      },
      onRunErrorEvent: ({ event }) => {
        // The guard's cut (`@ag-ui/client` reports an aborted body as a RUN_ERROR): not the server's.
        if (RunCutError.isInstance(event.rawEvent)) return;
        terminal = 'error';
        runError = { code: event.code, message: event.message };
      },
    };
    let failure: Error | undefined;
    subscriber.onRunFailed = ({ error }) => {
      failure = error;
      // Handled here: no `console.error` from the agent, and `runAgent` resolves. The runtime
      // honours `stopPropagation` from `onRunFailed` although its type leaves it out.
      return { stopPropagation: true } as never;
    };
    lastResponse = undefined;
    try {
      await applyHeaders();
      seq.stamp(agent);
      await agent.runAgent(
        {
          ...(runId ? { runId } : {}),
          tools: toolParameters(),
          context: [...(options.context ?? [])],
          forwardedProps: { ...forwardedProps, [FORWARDED_PROPS.versions]: [...offeredVersions] },
        },
        subscriber,
      );
      if (failure) throw failure;
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      if (typeof status === 'number') {
        const payload = (error as { payload?: { error?: { code?: unknown; message?: unknown } } })
          .payload;
        return {
          outcome: {
            kind: 'http-error',
            status,
            code: typeof payload?.error?.code === 'string' ? payload.error.code : undefined,
            message:
              typeof payload?.error?.message === 'string'
                ? payload.error.message
                : `The AG-UI endpoint answered HTTP ${status}.`,
            retryAfterMs: parseRetryAfter(
              (lastResponse as Response | undefined)?.headers.get('retry-after'),
            ),
          },
          toolCalls: [],
        };
      }
      if (RunCutError.isInstance(error)) return { outcome: { kind: 'incomplete' }, toolCalls: [] };
      return {
        outcome: {
          kind: 'network-error',
          message: describeError(error),
          unsent: lastResponse === undefined && isRefusedConnection(error),
        },
        toolCalls: [],
      };
    }
    const toolCalls = [...calls.values()].filter((call) =>
      tools.some((tool) => tool.name === call.name),
    );
    if (terminal === 'finished')
      return { outcome: { kind: 'finished', reset, closed: closedReason }, toolCalls };
    if (terminal === 'error')
      return {
        outcome: {
          kind: 'run-error',
          code: runError?.code,
          message: runError?.message ?? 'RUN_ERROR',
          reset,
        },
        toolCalls: [],
      };
    return { outcome: { kind: 'incomplete' }, toolCalls: [] };
  };

  /**
   * Catches up a cut run: runs without input, one after another (backing off while they fail),
   * until one finishes. One catch-up at a time; other runs catch up as well, as they go.
   */
  let catchingUp = false;
  const catchUp = () => {
    if (catchingUp || !opened || shell.closed) return;
    catchingUp = true;
    const backoff = createBackoff(options.reconnect);
    void (async () => {
      try {
        while (!shell.closed && endLink) {
          const result = await exclusive(() => runAgentOnce({})).catch(() => undefined);
          if (shell.closed) return;
          const outcome = result?.outcome;
          if (outcome && outcome.kind !== 'incomplete' && outcome.kind !== 'network-error') {
            handleEnd(outcome);
            if (outcome.kind === 'finished') await followUp(result!);
            if (outcome.kind !== 'http-error' || !isRetryableStatus(outcome.status)) return;
          }
          await sleep(backoff.fail(), shell.signal);
        }
      } finally {
        catchingUp = false;
      }
    })().catch(() => {});
  };

  /** Runs the frontend tools a run called, then the runs their results start. */
  const followToolCalls = async (toolCalls: ToolCall[]) => {
    let pending = toolCalls;
    for (let round = 0; round < maxToolRounds && pending.length > 0 && !shell.closed; round++) {
      for (const call of pending) {
        const tool = tools.find((candidate) => candidate.name === call.name)!;
        let content: string;
        let error: string | undefined;
        try {
          const result = await tool.handler(call.args, { signal: shell.signal });
          content = typeof result === 'string' ? result : JSON.stringify(result ?? null);
        } catch (failure) {
          error = failure instanceof Error ? failure.message : String(failure);
          content = `Error: ${error}`;
        }
        agent.addMessage({
          id: createConnectionId(),
          role: 'tool',
          toolCallId: call.id,
          content,
          ...(error !== undefined ? { error } : {}),
        });
      }
      const next = await runOnce({});
      handleEnd(next.outcome);
      pending = next.toolCalls;
    }
  };

  /** Runs the frontend tools `result` called (only a finished run has any), after the run under way. */
  const followUp = (result: { toolCalls: ToolCall[] }) =>
    result.toolCalls.length > 0
      ? exclusive(() => followToolCalls(result.toolCalls))
      : Promise.resolve();

  /** What every run's end means for the link. */
  const handleEnd = (outcome: RunOutcome) => {
    if (outcome.kind === 'finished' && outcome.closed !== undefined)
      endLink?.({ kind: 'closed', reason: `The server closed the thread (${outcome.closed}).` });
    if (outcome.kind === 'http-error' && (outcome.status === 401 || outcome.status === 403))
      endLink?.({ kind: 'fatal', error: errorOfHttpStatus(outcome.status, outcome.message) });
  };

  const resetSession = (reason: string) => {
    generation++;
    reader.clear();
    seq.clear();
    outbox.reset();
    outbox.setConnection(connectionName());
    shell.push({ type: 'reset', reason });
  };

  // ---- Client → server: each client message is a run --------------------------------------

  const outbox = new Outbox<{ message: ClientMessage; metadata: ClientMessageMetadata }>({
    ...kit.outbox,
    maxBatchLength: 1,
    createId: createConnectionId,
    onTrouble: (trouble) => shell.status.trouble(trouble),
    deliver: async ([entry]) => {
      const { message, metadata } = entry!.item;
      const forwardedProps: Record<string, unknown> =
        'action' in message
          ? { [FORWARDED_PROPS.action]: message }
          : { [FORWARDED_PROPS.error]: message };
      if (metadata?.a2uiClientCapabilities)
        forwardedProps[FORWARDED_PROPS.capabilities] = metadata.a2uiClientCapabilities;
      if (metadata?.a2uiClientDataModel)
        forwardedProps[FORWARDED_PROPS.dataModel] = metadata.a2uiClientDataModel;
      const bound = entry!.connectionId;
      const result = await exclusive(async () =>
        // A run before this one reset the thread: the message belongs to the one that is gone.
        bound !== undefined && bound !== connectionName()
          ? undefined
          : runOnce(forwardedProps, entry!.id),
      );
      if (!result)
        return {
          kind: 'answered',
          errors: new Map([[entry!.id, threadResetError()]]),
        };
      const { outcome, toolCalls } = result;
      handleEnd(outcome);
      const delivery = toDelivery(outcome, entry!.id);
      void followUp({ toolCalls }).catch(() => {});
      return delivery;
    },
  });

  // ---- The link: the first run opens the thread ---------------------------------------------

  const runLink = async (attempt: LinkAttempt): Promise<LinkOutcome> => {
    if (shell.closed) return { kind: 'closed', reason: 'Closed by the client.' };
    const first = await exclusive(() => runOnce(opened ? {} : { [FORWARDED_PROPS.resync]: true }));
    const outcome = first.outcome;
    if (outcome.kind !== 'finished') {
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
    opened = true;
    attempt.delivered();
    attempt.opened();
    outbox.setConnection(connectionName());
    if (outcome.closed !== undefined)
      return { kind: 'closed', reason: `The server closed the thread (${outcome.closed}).` };
    void followUp(first).catch(() => {});
    // AG-UI has no link between runs: the thread stays open until one side closes it.
    return new Promise<LinkOutcome>((resolve) => {
      endLink = (end) => {
        endLink = undefined;
        resolve(end);
      };
      if (longPoll) void waitForUpdates(attempt.signal);
      else if (pollIntervalMs > 0) void poll(attempt.signal);
      const stop = () => endLink?.({ kind: 'closed', reason: 'Closed by the client.' });
      if (attempt.signal.aborted) stop();
      else attempt.signal.addEventListener('abort', stop, { once: true });
    });
  };

  /** Starts a run without input whenever the thread was idle for `pollIntervalMs`. */
  const poll = async (signal: AbortSignal): Promise<void> => {
    while (!shell.closed && !signal.aborted && endLink) {
      const idleMs = Date.now() - lastActivity;
      if (running > 0 || idleMs < pollIntervalMs) {
        await sleep(Math.max(1, pollIntervalMs - (running > 0 ? 0 : idleMs)), signal);
        continue;
      }
      const polled = await exclusive(() => runOnce({})).catch(() => undefined);
      if (!polled) continue;
      handleEnd(polled.outcome);
      await followUp(polled).catch(() => {});
    }
  };

  /** Resolves once no run is queued or under way. */
  const idle = async () => {
    for (;;) {
      const current = chain;
      await current;
      if (current === chain) return;
    }
  };

  /**
   * Long polling: keeps a waiting run open whenever the thread is idle. Without a run of another
   * kind between two waiting runs, they start `pollIntervalMs` (at least 1 s) apart, so a server
   * that answers them at once is polled, not flooded.
   */
  const waitForUpdates = async (signal: AbortSignal): Promise<void> => {
    const minGapMs = Math.max(pollIntervalMs, 1_000);
    let lastStart = Number.NEGATIVE_INFINITY;
    let runsAfterLast = -1;
    while (!shell.closed && !signal.aborted && endLink) {
      await idle();
      if (shell.closed || signal.aborted || !endLink) return;
      const gapMs = runs === runsAfterLast ? minGapMs - (Date.now() - lastStart) : 0;
      if (gapMs > 0) {
        await sleep(gapMs, signal);
        continue;
      }
      const result = await exclusive(async () => {
        // An action queued meanwhile goes first; the loop comes back once it is done.
        if (wanted > 0) return undefined;
        lastStart = Date.now();
        waiting = { responded: false, releaseDue: false };
        try {
          return await runOnce({ [FORWARDED_PROPS.wait]: true });
        } finally {
          waiting = undefined;
          runsAfterLast = runs;
        }
      }, true).catch(() => undefined);
      if (!result) continue;
      handleEnd(result.outcome);
      await followUp(result).catch(() => {});
    }
  };

  const shell = createLinkTransport({
    name: 'AG-UI',
    connect: runLink,
    ...kit.shell,
    // Tells the server, so the agent sees `client-closed` at once: after the run under way (the
    // first one may still be opening the thread), within a deadline.
    goodbye: async () => {
      if (!shell.started) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        exclusive(() => runOnce({ [FORWARDED_PROPS.disconnect]: true })).catch(() => {}),
        new Promise((resolve) => {
          timer = setTimeout(resolve, defaults.closeTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
    },
    onClose: (error) => outbox.close(error),
  });

  return {
    agent,
    get threadId() {
      return agent.threadId;
    },
    get status() {
      return shell.status.status;
    },
    get pendingMessages() {
      return outbox.pending;
    },
    get runs() {
      return runs;
    },
    get a2uiVersion() {
      return this.protocolVersion;
    },
    get protocolVersion() {
      const state = agent.state as Record<string, unknown> | undefined;
      const answered = state?.[STATE_VERSION_KEY];
      return typeof answered === 'string' ? answered : undefined;
    },
    events: shell.events,
    send: (
      message: ClientMessage,
      metadata: ClientMessageMetadata,
      sendOptions: SendOptions = {},
    ) => shell.sendWhileOpen(() => outbox.enqueue({ message, metadata }, sendOptions)),
    async run(runOptions = {}) {
      if (shell.closed) throw new A2uiError('CONNECTION_CLOSED', 'The transport is closed.');
      const result = await exclusive(() => {
        if (runOptions.text !== undefined)
          agent.addMessage({ id: createConnectionId(), role: 'user', content: runOptions.text });
        return runOnce({});
      });
      handleEnd(result.outcome);
      await followUp(result);
      const failure = toDelivery(result.outcome, '');
      if (failure.kind === 'retry') throw new A2uiError('TRANSPORT_ERROR', failure.reason);
      const error = failure.kind === 'answered' ? failure.errors?.get('') : undefined;
      if (error) throw error;
    },
    close: shell.close,
  };
}

/** What the outbox makes of a run's outcome. */
function toDelivery(outcome: RunOutcome, id: string): OutboxDelivery {
  switch (outcome.kind) {
    case 'finished':
      return outcome.reset
        ? { kind: 'answered', errors: new Map([[id, threadResetError()]]) }
        : { kind: 'answered' };
    case 'run-error':
      // A busy agent or a server shutting down: the same run again, later.
      if (outcome.code === 'LIMIT_EXCEEDED' || outcome.code === 'CONNECTION_CLOSED')
        return { kind: 'retry', reason: outcome.message };
      return {
        kind: 'answered',
        errors: new Map([[id, new A2uiError(knownCode(outcome.code), outcome.message)]]),
      };
    case 'http-error':
      if (isRetryableStatus(outcome.status))
        return {
          kind: 'retry',
          reason: outcome.message,
          retryAfterMs: outcome.retryAfterMs,
          // Refused before the run started (busy, shutting down, too slow a body): not delivered.
          unsent: REFUSED_BEFORE_RUN.has(outcome.status),
        };
      return {
        kind: 'answered',
        errors: new Map([
          [
            id,
            new A2uiError(knownCode(outcome.code), outcome.message, {
              data: { httpStatus: outcome.status },
            }),
          ],
        ]),
      };
    case 'network-error':
      return {
        kind: 'retry',
        reason: `Could not reach the AG-UI endpoint: ${outcome.message}`,
        unsent: outcome.unsent,
      };
    case 'incomplete':
      // It may have arrived: the same runId again, which the server de-duplicates.
      return { kind: 'retry', reason: 'The run ended before RUN_FINISHED.' };
  }
}

const threadResetError = () =>
  new A2uiError(
    'CONNECTION_CLOSED',
    'The thread was reset before this message could be delivered; its surfaces are gone.',
  );

/** Statuses this adapter's server answers only before a run starts, with nothing delivered. */
const REFUSED_BEFORE_RUN = new Set([408, 429, 503]);

/** The connection was refused: the request never left this machine (Node's `ECONNREFUSED`). */
function isRefusedConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if ((cause as { code?: unknown }).code === 'ECONNREFUSED') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const KNOWN_CODES = new Set([
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'CONNECTION_CLOSED',
  'TIMEOUT',
  'MESSAGE_TOO_LARGE',
  'LIMIT_EXCEEDED',
  'NOT_SUPPORTED',
  'ABORTED',
  'INTERNAL_ERROR',
]);

function knownCode(code: string | undefined): A2uiErrorCode {
  return code && KNOWN_CODES.has(code) ? (code as A2uiErrorCode) : 'TRANSPORT_ERROR';
}
