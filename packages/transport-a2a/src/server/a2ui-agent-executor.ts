/**
 * The `AgentExecutor` that hosts an `A2uiAgent` (`a2a-mcp-lavs.md` §1.7, §2.6): for each A2A
 * message it runs the turns the request handler prepared — the `onConnect` of a new context, one
 * turn per A2UI client message, one for the user's text — and streams the session's messages as
 * data parts in `working` status updates while they are sent (a blocking `SendMessage` gets them
 * all in its final status). The turn ends the step in `input-required`, so the task stays open
 * for the next action; the end of the session ends it.
 */

import { TaskState, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { AgentInput, DisconnectReason } from '@a2ui-ts/core';
import type { ReplayEntry, ResetReason, SessionFollow, TurnResult } from '@a2ui-ts/core/host';
import { type A2aBinding, STATE_KEYS } from './a2a-binding.js';
import type { A2aSession } from './a2a-sessions.js';
import type { ParsedClientMessage } from './parse-a2ui-request.js';
import { notRunOutcome, resetOutcome, turnOutcome } from './session-outcomes.js';
import { bytesOf, type StreamBuffer } from './stream-buffer.js';
import {
  chunkEntries,
  entriesToParts,
  outcomeUpdate,
  statusUpdate,
  storeStatusUpdate,
  type TaskAddress,
  type TaskOutcome,
  workingTask,
} from './task-events.js';

/** A request, as the handler prepared it for the executor. */
export interface PreparedRequest {
  readonly sessionId: string;
  readonly principal: unknown;
  readonly session: A2aSession;
  /** `SendStreamingMessage`: updates stream live; `SendMessage`: one final status holds them all. */
  readonly streaming: boolean;
  /** Deliver the session's messages after this `seq`. */
  readonly afterSeq: number;
  readonly items: readonly ParsedClientMessage[];
  readonly metadata: Record<string, unknown> | undefined;
  readonly input: AgentInput | undefined;
  /** The A2A `messageId`: the idempotency key of the turns. */
  readonly requestId: string;
  /** The `onConnect` turn, when this request created the session. */
  readonly connectTurn: Promise<TurnResult> | undefined;
  /** Set when the client's session cannot be continued. */
  readonly reset: ResetReason | undefined;
  /** Follows the session from `afterSeq` since before its turns started; the executor reads it. */
  readonly follow: SessionFollow | undefined;
  /** Set once the executor took the follow over (until then the handler stops it on failure). */
  claimed: boolean;
  /** What the step published and its client has not read yet (streaming). */
  readonly buffered: StreamBuffer;
  /** Lets the next message on the task execute: called once this one published its last update. */
  readonly executed: () => void;
}

/**
 * Publishes a step's messages: live updates while streaming, or one final status. Either way it
 * holds about `maxBufferedBytes` for a client that does not read (at least one update, and the
 * final status one message more): past it messages are left out — while streaming, those sent
 * while the client's unread updates fill the bound; in a blocking answer, the oldest — and the
 * client, seeing their `a2uiSeq` missing from what follows, fetches them with `SubscribeToTask`
 * from its `Last-Event-ID` (the session's replay log keeps them, within `replayBuffer`).
 */
class StepPublisher {
  readonly #bus: ExecutionEventBus;
  readonly #address: TaskAddress;
  readonly #streaming: boolean;
  readonly #maxBytes: number;
  readonly #maxBufferedBytes: number;
  readonly #buffered: StreamBuffer;
  #pending: ReplayEntry[] = [];
  /** Bytes of {@link #pending} in a blocking answer (a stream hands them on at once). */
  #pendingBytes = 0;
  #scheduled = false;
  /** The last message left out while streaming, when nothing published after it shows the gap. */
  #unseen: ReplayEntry | undefined;

  constructor(
    bus: ExecutionEventBus,
    address: TaskAddress,
    options: {
      streaming: boolean;
      maxBytes: number;
      maxBufferedBytes: number;
      buffered: StreamBuffer;
    },
  ) {
    this.#bus = bus;
    this.#address = address;
    this.#streaming = options.streaming;
    this.#maxBytes = options.maxBytes;
    this.#maxBufferedBytes = options.maxBufferedBytes;
    this.#buffered = options.buffered;
  }

  add(entries: readonly ReplayEntry[]): void {
    for (const entry of entries) this.#pending.push(entry);
    if (!this.#streaming) {
      // A blocking answer holds the step's messages until its end: keep the latest that fit.
      this.#pendingBytes += bytesOf(entries);
      let drop = 0;
      while (drop < this.#pending.length - 1 && this.#pendingBytes > this.#maxBufferedBytes)
        this.#pendingBytes -= this.#pending[drop++]!.data.length;
      if (drop > 0) this.#pending.splice(0, drop);
      return;
    }
    if (this.#scheduled) return;
    // Messages sent in one go (one tick) travel in one update.
    this.#scheduled = true;
    queueMicrotask(() => this.#flush());
  }

  /** Publishes the step's last update and returns it. */
  finish(outcome: TaskOutcome): TaskStatusUpdateEvent {
    let update: TaskStatusUpdateEvent;
    if (this.#streaming) {
      this.#flush();
      // The last message, if it was left out, so that the client sees what it misses.
      const unseen = this.#unseen ? entriesToParts([this.#unseen]) : [];
      this.#unseen = undefined;
      update = outcomeUpdate(this.#address, outcome, unseen);
    } else {
      update = outcomeUpdate(this.#address, outcome, entriesToParts(this.#pending));
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    this.#bus.publish(AgentEvent.statusUpdate(update));
    return update;
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    for (const chunk of chunkEntries(pending, this.#maxBytes)) {
      const size = bytesOf(chunk);
      if (!this.#buffered.fits(size, this.#maxBufferedBytes)) {
        this.#unseen = chunk.at(-1);
        continue;
      }
      this.#unseen = undefined;
      const update = statusUpdate(
        this.#address,
        TaskState.TASK_STATE_WORKING,
        entriesToParts(chunk),
      );
      this.#buffered.hold(update.status!.message!.messageId, size);
      this.#bus.publish(AgentEvent.statusUpdate(update));
    }
  }
}

/**
 * The executor. It runs only behind `A2uiRequestHandler`, which prepares every request (parses
 * and checks it, opens the session) before the SDK creates the task.
 */
export class A2uiAgentExecutor implements AgentExecutor {
  readonly #binding: A2aBinding;
  /** Tasks being executed, for the SDK's own cancel path. */
  readonly #running = new Map<string, TaskAddress>();

  constructor(binding: A2aBinding) {
    this.#binding = binding;
  }

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const prepared = context.context.state.get(STATE_KEYS.prepared) as PreparedRequest | undefined;
    if (!prepared) throw new Error('A2uiAgentExecutor runs behind A2uiRequestHandler only.');
    const address: TaskAddress = { taskId: context.taskId, contextId: context.contextId };
    bus.publish(AgentEvent.task(workingTask(address, context.task, context.userMessage)));
    this.#running.set(address.taskId, address);
    try {
      await this.#execute(prepared, address, bus, context.context);
    } finally {
      this.#running.delete(address.taskId);
      prepared.executed();
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    // A2uiRequestHandler ends the session instead (the agent's onDisconnect); this answers the
    // SDK's own cancel path, should anything take it.
    const address = this.#running.get(taskId);
    if (address)
      bus.publish(AgentEvent.statusUpdate(statusUpdate(address, TaskState.TASK_STATE_CANCELED)));
  };

  /**
   * Stores the step's last update even when no client reads the stream any more (the SDK stores
   * what the request's consumer reads, and a cut stream has none), so the task's state is right
   * for `GetTask`, the next message and a resubscribe. Storing it twice is harmless: it is the
   * same update (same message id).
   */
  async #persist(context: ServerCallContext, address: TaskAddress, update: TaskStatusUpdateEvent) {
    const store = this.#binding.taskStore;
    try {
      if (!(await store.load(address.taskId, context))) return;
      await storeStatusUpdate(store, context, update);
    } catch (error) {
      this.#binding.reportError(error, address.contextId);
    }
  }

  async #execute(
    prepared: PreparedRequest,
    address: TaskAddress,
    bus: ExecutionEventBus,
    context: ServerCallContext,
  ): Promise<void> {
    const publisher = new StepPublisher(bus, address, {
      streaming: prepared.streaming,
      maxBytes: this.#binding.maxUpdateBytes,
      maxBufferedBytes: this.#binding.maxBufferedBytes,
      buffered: prepared.buffered,
    });
    const { session, follow } = prepared;
    prepared.claimed = true;
    if (prepared.reset || !follow) {
      const reset = resetOutcome(prepared.reset ?? 'unknown-connection');
      await this.#persist(context, address, publisher.finish(reset));
      return;
    }
    const run = session.startRun(address.taskId);
    session.openTasks.delete(address.taskId);
    // Taken as they arrive, so the step's updates are published while its turns run.
    follow.onReadable = (followed) => {
      const entries = followed.take();
      if (entries.length > 0) publisher.add(entries);
    };
    let outcome: TaskOutcome;
    const progress = { ran: 0 };
    try {
      outcome = turnOutcome(await this.#runTurns(prepared, progress), follow.ended);
    } catch (error) {
      // A message whose turn never ran (its session closed first) was not applied: say so.
      const ended: DisconnectReason | undefined = follow.ended;
      outcome =
        ended === undefined || progress.ran === 0
          ? notRunOutcome(error, ended)
          : turnOutcome(undefined, ended);
    }
    follow.stop();
    session.deliveredSeq = Math.max(session.deliveredSeq, follow.lastSeq);
    // Stored before the run is over, so a cancel waiting for it answers with the final state.
    await this.#persist(context, address, publisher.finish(outcome));
    session.endRun(run, outcome, outcome.state === TaskState.TASK_STATE_INPUT_REQUIRED);
  }

  /** Runs the request's turns in order, counting those that ran; returns the last one. */
  async #runTurns(
    prepared: PreparedRequest,
    progress: { ran: number },
  ): Promise<TurnResult | undefined> {
    const { host } = this.#binding;
    const { sessionId, principal, metadata, requestId } = prepared;
    let last = prepared.connectTurn ? await prepared.connectTurn : undefined;
    const single = prepared.items.length === 1;
    for (const [index, item] of prepared.items.entries()) {
      const result = await host.receive(sessionId, {
        principal,
        message: item.message,
        metadata,
        requestId: single ? requestId : `${requestId}#${index}`,
        bytes: item.bytes,
        awaitTurn: true,
      });
      progress.ran++;
      last = result.turn ?? last;
    }
    if (prepared.input) {
      const result = await host.input(sessionId, {
        principal,
        input: prepared.input,
        metadata,
        requestId: `${requestId}#input`,
        awaitTurn: true,
      });
      progress.ran++;
      last = result.turn ?? last;
    }
    return last;
  }
}
