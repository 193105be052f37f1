/**
 * One AG-UI run: its sink on the thread's connection (the session host delivers the thread's
 * messages to it), the turns it delivers to the agent, and its end (`RUN_FINISHED` once, or one
 * `RUN_ERROR`).
 */
import {
  A2uiError,
  COPILOTKIT_CATALOG_IDS,
  getFunctionCallKind,
  type HostToolCall,
  isRecord,
  type ServerMessage,
} from '@a2ui-ts/core';
import type {
  HostLink,
  ReplayEntry,
  SessionHost,
  SessionSink,
  TurnResult,
} from '@a2ui-ts/core/host';
import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core';
import {
  CUSTOM_EVENTS,
  STATE_SEQ_KEY,
  STATE_SURFACES_KEY,
  STATE_VERSION_KEY,
} from '../protocol/constants.js';
import type { RunHold } from './run-hold.js';
import type { RunRequest } from './run-input.js';
import type { RunStream } from './run-stream.js';
import {
  asV09,
  clientMessageOf,
  functionCallEvents,
  noteSurfaceVersion,
  operationsWriter,
} from './run-versions.js';
import {
  type AgUiOutputMode,
  createSurfaceEmitter,
  type SurfaceEmitter,
} from './surface-emitter.js';
import type { ThreadState } from './thread-state.js';

/** True when a request continues a thread the client already had (so a new one is a reset). */
export function isContinuation(request: RunRequest, mode: AgUiOutputMode): boolean {
  if (request.clientMessage || request.toolResults.length > 0) return true;
  // A client that was sent messages of this thread (a server restart lost it): in every mode.
  if (request.clientSeq !== undefined && request.clientSeq > 0) return true;
  if (mode !== 'state') return false;
  const surfaces = isRecord(request.input.state)
    ? request.input.state[STATE_SURFACES_KEY]
    : undefined;
  return isRecord(surfaces) && Object.keys(surfaces).length > 0;
}

/** Where a run binds to its thread's connection. */
export interface AttachPoint {
  /** The messages after this `seq` are delivered to the run. */
  lastSeq: number;
  /** The thread is new although the client continued an old one. */
  reset: boolean;
  /** The client's `a2uiSeq`, when the run resumes from it. */
  resumeFrom?: number;
  /** Every surface goes whole (the client's seq could not be placed). */
  whole?: boolean;
}

/** What a {@link Run} works with. */
export interface RunOptions {
  host: SessionHost;
  mode: AgUiOutputMode;
  principal: unknown;
  threadId: string;
  input: RunAgentInput;
  request: RunRequest;
  stream: RunStream;
  controller: AbortController;
  compactAfterBytes: number | undefined;
  /** Rename the spec catalogs in `createSurface` as CopilotKit registers them. */
  copilotKitCatalogIds: boolean;
  /** A waiting run's hold: the run stays open after its turns until it ends. */
  hold: RunHold | undefined;
  /** The negotiated version, answered in state (`a2uiVersion`); none without an offer. */
  a2uiVersion: string | undefined;
}

/** One run: its sink on the thread's connection, and the turns it delivers. */
export class Run implements SessionSink {
  readonly #options: RunOptions;
  #thread: ThreadState | undefined;
  #emitter: SurfaceEmitter | undefined;
  #versionAnswered = false;
  #link: HostLink | undefined;
  /** The thread is new although the client continued an old one: its client message is void. */
  #reset = false;
  /** Why the connection ended during the run. */
  #closed: string | undefined;
  /** The host replaced this run's connection (a replay gap). */
  replaced = false;

  constructor(options: RunOptions) {
    this.#options = options;
  }

  /** Refuses an action on a surface the thread does not hold (before the stream is handed out). */
  checkSurface(thread: ThreadState): void {
    const message = this.#options.request.clientMessage;
    if (message?.kind !== 'action' || !isRecord(message.body)) return;
    const surfaceId = message.body.surfaceId;
    if (typeof surfaceId === 'string' && !Object.hasOwn(thread.surfaces, surfaceId)) {
      throw new A2uiError('VALIDATION_FAILED', `Unknown surface "${surfaceId}" in the action.`, {
        path: `${this.#options.request.clientMessagePath}/surfaceId`,
        surfaceId,
      });
    }
  }

  /**
   * Answers the negotiated version in state (`a2uiVersion`), once per run, before any surface:
   * a delta on the client's state object, or a snapshot when it has none. Returns the client's
   * state as it then is, for the surface emitter to build on.
   */
  #answerVersion(): unknown {
    const { input, stream, a2uiVersion } = this.#options;
    if (a2uiVersion === undefined) return input.state;
    const state = isRecord(input.state) ? input.state : undefined;
    const answered = { ...(state ?? {}), [STATE_VERSION_KEY]: a2uiVersion };
    if (this.#versionAnswered || state?.[STATE_VERSION_KEY] === a2uiVersion) return answered;
    this.#versionAnswered = true;
    if (state)
      stream.emit({
        type: EventType.STATE_DELTA,
        delta: [{ op: 'add', path: `/${STATE_VERSION_KEY}`, value: a2uiVersion }],
      } as BaseEvent);
    else stream.emit({ type: EventType.STATE_SNAPSHOT, snapshot: answered } as BaseEvent);
    return answered;
  }

  /** Binds the run to the thread's connection, from `point.lastSeq` on. */
  async attach(thread: ThreadState, point: AttachPoint): Promise<void> {
    const { host, principal, threadId, stream, mode, input, request } = this.#options;
    const { lastSeq, reset } = point;
    this.#link?.detach();
    this.#thread = thread;
    if (reset && !this.#reset) {
      this.#reset = true;
      stream.emit({
        type: EventType.CUSTOM,
        name: CUSTOM_EVENTS.reset,
        value: { reason: 'unknown-connection' },
      } as BaseEvent);
    }
    this.#emitter = createSurfaceEmitter(mode, {
      thread,
      runId: input.runId,
      clientState: this.#answerVersion(),
      resync: request.resync || reset || point.whole === true,
      resumeFrom: reset ? undefined : point.resumeFrom,
      replayUntil: thread.deliveredSeq,
      stampSeq: request.clientSeq === undefined || reset,
      compactAfterBytes: this.#options.compactAfterBytes,
      writeOperations: operationsWriter(thread.v10Surfaces),
      emit: (event) => stream.emit(event),
      emitJson: (json) => stream.emitJson(json),
    });
    this.#emitter.begin();
    this.replaced = false;
    const link = await host.connect({ principal, connectionId: threadId, lastSeq, sink: this });
    this.#link = link;
    if (link.connectionId !== threadId) {
      this.replaced = true;
      link.detach();
      await host.disconnect(link.connectionId, { principal }).catch(() => {});
    }
  }

  // ---- SessionSink ---------------------------------------------------------------------------

  deliver(entry: ReplayEntry): void {
    const thread = this.#thread;
    if (!thread || this.#options.stream.ended) return;
    if (getFunctionCallKind(entry.message) !== undefined) {
      this.#deliverFunctionCall(thread, entry);
      return;
    }
    const message = ownCopy(entry);
    if ('createSurface' in message) noteSurfaceVersion(thread.v10Surfaces, message);
    for (const read of asV09(thread.v09Reader, message, entry.data)) {
      const renamed = this.#options.copilotKitCatalogIds
        ? withCopilotKitCatalogId(read.message)
        : undefined;
      if (renamed) this.#emitter?.deliver(renamed, JSON.stringify(renamed), entry.seq);
      else this.#emitter?.deliver(read.message, read.data, entry.seq);
    }
    if ('deleteSurface' in message) noteSurfaceVersion(thread.v10Surfaces, message);
    thread.deliveredSeq = Math.max(thread.deliveredSeq, entry.seq);
    // `tool-result` carries the surfaces at the run's end: a waiting run ends once the agent's
    // messages of this tick are in.
    const hold = this.#options.hold;
    if (hold && this.#options.mode === 'tool-result') setTimeout(() => hold.release(), 0);
  }

  /**
   * An agent's v1.0 function call: its events (a renderer function is a frontend-tool call the
   * run ends with, as `callRendererFunction` ends the agent's turn), then the seq in state, so
   * the next run does not send it again (a cut run's catch-up does).
   */
  #deliverFunctionCall(thread: ThreadState, entry: ReplayEntry): void {
    const { stream } = this.#options;
    this.#emitter?.flush();
    const toolCallId = functionCallEvents(entry.message, (event) => stream.emit(event));
    if (toolCallId !== undefined) thread.pendingFunctionCalls.add(toolCallId);
    thread.deliveredSeq = Math.max(thread.deliveredSeq, entry.seq);
    if (isRecord(this.#options.input.state) || this.#versionAnswered)
      stream.emit({
        type: EventType.STATE_DELTA,
        delta: [{ op: 'add', path: `/${STATE_SEQ_KEY}`, value: entry.seq }],
      } as BaseEvent);
    // The client runs a frontend tool when the run ends.
    if (toolCallId !== undefined) this.#options.hold?.release();
  }

  deliverToolCall(call: HostToolCall): void {
    const { stream } = this.#options;
    if (stream.ended) return;
    this.#emitter?.flush();
    this.#thread?.pendingToolCalls.add(call.id);
    stream.emit({
      type: EventType.TOOL_CALL_START,
      toolCallId: call.id,
      toolCallName: call.name,
    } as BaseEvent);
    stream.emit({
      type: EventType.TOOL_CALL_ARGS,
      toolCallId: call.id,
      delta: JSON.stringify(call.args ?? {}),
    } as BaseEvent);
    stream.emit({ type: EventType.TOOL_CALL_END, toolCallId: call.id } as BaseEvent);
    // The client runs a frontend tool when the run ends.
    this.#options.hold?.release();
  }

  close(reason: string): void {
    // `reset`: a newer link replaced this one; otherwise the connection ended.
    if (reason !== 'reset') {
      this.#closed = reason;
      this.#options.hold?.release();
    }
  }

  // ---- The run -------------------------------------------------------------------------------

  /** Delivers the run's input, turn after turn, then ends the run. */
  async execute(onConnect: Promise<TurnResult | undefined> | undefined): Promise<void> {
    const { host, principal, threadId, input, request, controller } = this.#options;
    const signal = controller.signal;
    const thread = this.#thread!;
    const turns: Array<TurnResult | undefined> = [];
    if (onConnect) turns.push(await onConnect);
    const context = { principal, awaitTurn: true, signal };
    for (const result of request.toolResults) {
      if (this.#stopped) break;
      thread.pendingToolCalls.delete(result.toolCallId);
      try {
        turns.push((await host.toolResult(threadId, { ...context, result })).turn);
      } catch (error) {
        // The agent stopped waiting for it (its signal aborted): the result answers nothing.
        if (!(A2uiError.isInstance(error) && error.code === 'VALIDATION_FAILED')) throw error;
      }
    }
    const digest = JSON.stringify([request.tools, request.context, request.hostState ?? null]);
    if (!this.#stopped && (request.text !== undefined || digest !== thread.lastInputDigest)) {
      thread.lastInputDigest = digest;
      thread.rememberMessages(request.userMessageIds);
      const agentInput = {
        ...(request.text !== undefined ? { text: request.text } : {}),
        tools: request.tools,
        context: request.context,
        ...(request.hostState ? { state: request.hostState } : {}),
        ...(request.extras ? { extras: request.extras } : {}),
      };
      turns.push(
        (
          await host.input(threadId, {
            ...context,
            input: agentInput,
            metadata: request.metadata,
            requestId: `${input.runId}:input`,
          })
        ).turn,
      );
    }
    for (const call of request.functionCalls) {
      if (this.#stopped || this.#reset) break;
      turns.push(await this.#receiveFunctionCall(thread, call));
    }
    const message = request.clientMessage;
    if (message && !this.#stopped && !this.#reset) {
      if (request.logEventCallId) thread.rememberMessages([request.logEventCallId]);
      const body = clientMessageOf(message);
      const bytes = JSON.stringify(body).length;
      turns.push(
        (
          await host.receive(threadId, {
            ...context,
            message: body,
            metadata: request.metadata,
            requestId: input.runId,
            bytes,
          })
        ).turn,
      );
    }
    const failed = turns.some((turn) => turn?.outcome === 'failed');
    // A waiting run streams what the agent sends until the client needs the thread back.
    if (this.#options.hold && !failed && !this.#stopped) await this.#options.hold.wait(signal);
    this.#finish(failed);
  }

  /**
   * A function-call message of the client, to the session host: a `rendererFunctionResponse`
   * settles the agent's waiting call (its continuation turn is this run's), a `callAgentFunction`
   * runs once per `functionCallId` (a retransmission is answered again, not run again). The
   * request id (the run's, and the call's id) makes a retried run deliver it once.
   */
  async #receiveFunctionCall(
    thread: ThreadState,
    message: Record<string, unknown>,
  ): Promise<TurnResult | undefined> {
    const { host, principal, threadId, input, request, controller } = this.#options;
    const response = message.rendererFunctionResponse as { functionCallId?: unknown } | undefined;
    const call = message.callAgentFunction as { functionCallId?: unknown } | undefined;
    const functionCallId = String(response?.functionCallId ?? call?.functionCallId ?? '');
    thread.pendingFunctionCalls.delete(functionCallId);
    const received = await host.receive(threadId, {
      principal,
      awaitTurn: true,
      signal: controller.signal,
      message: message as never,
      metadata: request.metadata,
      requestId: `${input.runId}:fn:${functionCallId}`,
      bytes: JSON.stringify(message).length,
    });
    return received.turn;
  }

  /** A failure after the stream started: one `RUN_ERROR`. */
  fail(error: unknown): void {
    const { stream } = this.#options;
    this.#emitter?.end();
    this.#detach();
    if (this.#thread) this.#thread.dirty = true;
    const known = A2uiError.isInstance(error)
      ? error
      : new A2uiError('INTERNAL_ERROR', 'The server failed while running the agent.');
    stream.fail(known.code, known.message);
  }

  get #stopped(): boolean {
    return this.#closed !== undefined || this.#options.stream.ended;
  }

  #finish(failed: boolean): void {
    const { stream, input, host, principal, threadId } = this.#options;
    const thread = this.#thread!;
    this.#emitter?.end();
    this.#detach();
    if (stream.ended) {
      // The client went away before the run's end: it may lack what the run carried.
      thread.dirty = true;
      return;
    }
    thread.dirty = false;
    // A client that sends `a2uiSeq` back acknowledges with its next run: until then, the log
    // keeps what this run carried, in case the client never read it.
    if (thread.deliveredSeq > 0 && this.#options.request.clientSeq === undefined)
      void host.acknowledge(threadId, { principal, seq: thread.deliveredSeq }).catch(() => {});
    if (this.#closed !== undefined)
      stream.emit({
        type: EventType.CUSTOM,
        name: CUSTOM_EVENTS.closed,
        value: { reason: this.#closed },
      } as BaseEvent);
    if (failed) stream.fail('INTERNAL_ERROR', 'The agent failed while handling this run.');
    else stream.finish(input.threadId, input.runId);
  }

  #detach(): void {
    this.#link?.detach();
    this.#link = undefined;
  }
}

/**
 * The message of `entry` as the emitters may keep it: the agent's own object may change after
 * `send`, so anything holding objects is a copy parsed from the JSON that was sent; an update of a
 * primitive value (the common case) is read as it is.
 */
function ownCopy(entry: ReplayEntry): ServerMessage {
  const message = entry.message as { updateDataModel?: { value?: unknown } } | undefined;
  const value = message?.updateDataModel?.value;
  if (message?.updateDataModel && (value === null || typeof value !== 'object'))
    return message as ServerMessage;
  return JSON.parse(entry.data) as ServerMessage;
}

/** `message` with its catalog named as CopilotKit names it, or `undefined` when that changes nothing. */
function withCopilotKitCatalogId(message: ServerMessage): ServerMessage | undefined {
  if (!('createSurface' in message)) return undefined;
  const alias = COPILOTKIT_CATALOG_IDS[message.createSurface.catalogId];
  if (alias === undefined) return undefined;
  return { ...message, createSurface: { ...message.createSurface, catalogId: alias } };
}
