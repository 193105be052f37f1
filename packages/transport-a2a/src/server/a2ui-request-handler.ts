/**
 * The `@a2a-js/sdk` request handler of an A2UI agent: the SDK's `DefaultRequestHandler` (tasks,
 * their store, events, blocking and streaming sends), with the A2UI session rules added before the
 * SDK creates anything. A message is parsed and checked, its task and context resolved, and its
 * session opened first, so that every refusal is a JSON-RPC error of the request and nothing
 * reaches the agent; the executor then runs the turns. `SubscribeToTask` follows the session's
 * replay log (see `task-subscription.ts`), and `CancelTask` ends the session (the agent's
 * `onDisconnect('client-closed')`).
 */

import type {
  AgentCard,
  CancelTaskRequest,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import {
  ExtensionSupportRequiredError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import { A2uiError, createConnectionId, type WireNegotiation } from '@a2ui-ts/core';
import type { ResetReason } from '@a2ui-ts/core/host';
import { toA2aError } from '../protocol/a2a-errors.js';
import {
  A2UI_EXTENSION_URI,
  a2uiExtensionUriOf,
  isA2uiExtensionUri,
  LAST_EVENT_ID_HEADER,
  offeredVersionsOfExtensions,
} from '../protocol/a2ui-extension.js';
import {
  type A2aBinding,
  headerOf,
  MAX_CONTEXT_ID_LENGTH,
  principalOf,
  STATE_KEYS,
  sessionIdOf,
  signalOf,
} from './a2a-binding.js';
import { A2uiAgentExecutor, type PreparedRequest } from './a2ui-agent-executor.js';
import { parseA2uiRequest } from './parse-a2ui-request.js';
import { followOrReset, storeSessionEnd } from './session-outcomes.js';
import { StreamBuffer } from './stream-buffer.js';
import { highestSeqOf, isTerminalState } from './task-events.js';
import { TaskQueue } from './task-queue.js';
import { subscribeToTask } from './task-subscription.js';

/** Longest A2A `messageId` accepted (it is the idempotency key of the turns). */
const MAX_MESSAGE_ID_LENGTH = 200;

/**
 * The request handler. Mount it with `createA2aServer` (which also serves the agent card), or
 * with the SDK's own transports; it reads the principal from the route's state, else from the
 * SDK's authenticated user.
 *
 * @example
 * ```ts
 * const server = createA2aServer({ agent });
 * const handler = server.requestHandler; // an A2uiRequestHandler
 * ```
 */
export class A2uiRequestHandler extends DefaultRequestHandler {
  readonly #binding: A2aBinding;
  readonly #tasks = new TaskQueue();
  /** Messages taken and not answered yet (the server's `close()` lets them finish). */
  #active = 0;
  #draining = false;
  #drained: (() => void) | undefined;

  /** Messages waiting for an earlier message on their task to be answered (`stats()`). */
  get waitingMessages(): number {
    return this.#tasks.waiting;
  }

  constructor(card: AgentCard, binding: A2aBinding) {
    // No bus outlives its execution: subscriptions follow the session's log instead.
    super(
      card,
      binding.taskStore,
      new A2uiAgentExecutor(binding),
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { keepBusAliveStates: [] },
    );
    this.#binding = binding;
  }

  /**
   * Stops taking messages — they are refused as by a closed server (`CONNECTION_CLOSED`, HTTP 503,
   * which clients retry) — and resolves once every message taken was answered. Subscriptions and
   * `CancelTask` are still served.
   */
  drain(): Promise<void> {
    this.#draining = true;
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.#drained;
      this.#drained = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** Counts a message in, unless the server is draining. */
  async #take(context: ServerCallContext): Promise<void> {
    await this.#refuseAsA2a(context, async () => {
      if (this.#draining)
        throw new A2uiError('CONNECTION_CLOSED', 'The server is shutting down.', {
          data: { httpStatus: 503 },
        });
      this.#active++;
    });
  }

  #answered(): void {
    if (--this.#active > 0 || !this.#drained) return;
    const drained = this.#drained;
    this.#drained = undefined;
    drained();
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    await this.#take(context);
    try {
      const { request, prepared } = await this.#refuseAsA2a(context, () =>
        this.#prepare(params, context, false),
      );
      try {
        return await super.sendMessage(request, context);
      } finally {
        releaseUnclaimed(prepared);
      }
    } finally {
      this.#answered();
    }
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.#take(context);
    try {
      const { request, prepared } = await this.#refuseAsA2a(context, () =>
        this.#prepare(params, context, true),
      );
      this.#binding.streamBuffers.add(prepared.buffered);
      try {
        for await (const response of super.sendMessageStream(request, context)) {
          if (response.payload?.$case === 'statusUpdate')
            prepared.buffered.release(response.payload.value.status?.message?.messageId);
          yield response;
        }
      } finally {
        this.#binding.streamBuffers.delete(prepared.buffered);
        releaseUnclaimed(prepared);
      }
    } finally {
      this.#answered();
    }
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.#openTask(params.id, context);
    if (isTerminalState(task.status?.state)) {
      throw new UnsupportedOperationError(
        `Task ${task.id} is in a terminal state and cannot be subscribed to.`,
      );
    }
    const request = await this.#refuseAsA2a(context, async () => {
      const principal = principalOf(context);
      const sessionId = await sessionIdOf(this.#binding, principal, task.contextId);
      const lastEventId = readLastEventId(context);
      const live = this.#binding.host.session(sessionId);
      // A session that is gone is not remembered: the subscription only tells its client to reset.
      const session = live
        ? this.#binding.sessions.ensure(sessionId, context, live)
        : this.#binding.sessions.peek(sessionId, context);
      return {
        task,
        sessionId,
        principal,
        session,
        context,
        afterSeq: lastEventId ?? highestSeqOf(task),
        signal: signalOf(context),
      };
    });
    yield* subscribeToTask(this.#binding, request);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.#openTask(params.id, context);
    const state = task.status?.state;
    if (state === TaskState.TASK_STATE_CANCELED) return task;
    if (isTerminalState(state)) throw new TaskNotCancelableError(`Task not cancelable: ${task.id}`);
    const { host, sessions, taskStore } = this.#binding;
    const principal = principalOf(context);
    const sessionId = await sessionIdOf(this.#binding, principal, task.contextId);
    const session = sessions.get(sessionId);
    session?.openTasks.delete(task.id);
    const run = session?.runs.get(task.id);
    try {
      await host.disconnect(sessionId, { principal });
    } catch (error) {
      if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
    }
    if (run) await run.done;
    else await storeSessionEnd(taskStore, context, task, 'client-closed');
    return (await taskStore.load(task.id, context)) ?? task;
  }

  /** The stored task `taskId` of the caller (stores are scoped by user). */
  async #openTask(taskId: string | undefined, context: ServerCallContext): Promise<Task> {
    if (!taskId || taskId.trim() === '') throw new RequestMalformedError('Task ID is required');
    const task = await this.#binding.taskStore.load(taskId, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${taskId}`);
    return task;
  }

  /** Runs `prepare`; an `A2uiError` becomes the A2A error of {@link toA2aError}, and is noted for the route. */
  async #refuseAsA2a<T>(context: ServerCallContext, prepare: () => Promise<T>): Promise<T> {
    try {
      return await prepare();
    } catch (error) {
      if (!A2uiError.isInstance(error)) throw error;
      context.state.set(STATE_KEYS.refusal, error);
      throw toA2aError(error);
    }
  }

  /**
   * Checks the message, resolves its task and context, opens (or finds) its A2UI session, and
   * leaves the executor its plan. Returns the request with the context id it will run in.
   */
  async #prepare(
    params: SendMessageRequest,
    context: ServerCallContext,
    streaming: boolean,
  ): Promise<{ request: SendMessageRequest; prepared: PreparedRequest }> {
    const binding = this.#binding;
    const message = params.message;
    if (!message?.messageId) throw new RequestMalformedError('message.messageId is required.');
    if (message.messageId.length > MAX_MESSAGE_ID_LENGTH)
      throw invalid(
        `A messageId has at most ${MAX_MESSAGE_ID_LENGTH} characters.`,
        '/message/messageId',
      );
    const parsed = parseA2uiRequest(params, binding.limits);
    const executed = message.taskId
      ? await this.#tasks.enter(message.taskId, signalOf(context))
      : () => {};
    try {
      return await this.#prepareTurns(params, context, streaming, parsed, executed);
    } catch (error) {
      executed();
      throw error;
    }
  }

  async #prepareTurns(
    params: SendMessageRequest,
    context: ServerCallContext,
    streaming: boolean,
    parsed: ReturnType<typeof parseA2uiRequest>,
    executed: () => void,
  ): Promise<{ request: SendMessageRequest; prepared: PreparedRequest }> {
    const binding = this.#binding;
    const message = params.message!;
    let contextId = message.contextId;
    if (message.taskId) {
      const task = await this.#openTask(message.taskId, context);
      if (isTerminalState(task.status?.state)) {
        throw new UnsupportedOperationError(
          `Task ${task.id} is in a terminal state; send the message without its taskId to start a new task in context ${task.contextId}.`,
        );
      }
      if (contextId && contextId !== task.contextId) {
        throw new RequestMalformedError(
          `contextId mismatch: message contextId '${contextId}' does not match task '${task.id}' contextId '${task.contextId}'`,
        );
      }
      contextId = task.contextId;
    }
    contextId ||= createConnectionId();
    if (contextId.length > MAX_CONTEXT_ID_LENGTH)
      throw invalid(
        `A contextId has at most ${MAX_CONTEXT_ID_LENGTH} characters.`,
        '/message/contextId',
      );
    const capable =
      parsed.a2uiCapable || (context.requestedExtensions ?? []).some(isA2uiExtensionUri);
    if (!capable && binding.requireA2uiClient) {
      throw new ExtensionSupportRequiredError(
        `This agent answers with A2UI: activate ${A2UI_EXTENSION_URI} or send a2uiClientCapabilities.`,
      );
    }
    // The A2UI extension URIs requested (header, then `message.extensions`) are the offer; the one
    // of the negotiated version is activated. No A2UI URI: the v0.9 one, as before negotiation.
    let negotiated: WireNegotiation | undefined;
    try {
      negotiated = binding.host.negotiate(
        offeredVersionsOfExtensions(context.requestedExtensions, message.extensions),
      );
    } catch (error) {
      if (A2uiError.isInstance(error) && error.code === 'VALIDATION_FAILED')
        throw invalid(error.message, '/message/extensions');
      throw error;
    }
    if (capable)
      context.addActivatedExtension(
        negotiated ? a2uiExtensionUriOf(negotiated.version) : A2UI_EXTENSION_URI,
      );

    const principal = principalOf(context);
    const sessionId = await sessionIdOf(binding, principal, contextId);
    const lastEventId = readLastEventId(context);
    let reset =
      lastEventId !== undefined && lastEventId > 0
        ? await this.#checkResume(sessionId, principal, lastEventId, message.taskId || undefined)
        : undefined;
    let created = false;
    let connectTurn: PreparedRequest['connectTurn'];
    let follow: PreparedRequest['follow'];
    let session = reset
      ? binding.sessions.peek(sessionId, context)
      : binding.sessions.ensure(sessionId, context, undefined);
    let afterSeq = lastEventId ?? session.deliveredSeq;
    if (!reset) {
      // The new session's onConnect waits until its log is followed (see A2aSession.hold).
      const release = session.hold();
      try {
        const opened = await binding.host
          .open({ principal, id: sessionId, protocolVersions: negotiated?.versions })
          .catch((error: unknown) => {
            binding.sessions.discard(session);
            throw error;
          });
        created = opened.created;
        connectTurn = opened.connectTurn;
        session = binding.sessions.ensure(sessionId, context, binding.host.session(sessionId));
        if (created) afterSeq = 0;
        const followed = await followOrReset(binding.host, sessionId, { principal, afterSeq });
        if (typeof followed === 'string') reset = followed;
        else follow = followed;
      } finally {
        release();
      }
    }
    const extras = {
      ...(parsed.extras ?? {}),
      ...(parsed.data.length > 0 ? { data: parsed.data } : {}),
    };
    const hasExtras = Object.keys(extras).length > 0;
    const prepared: PreparedRequest = {
      sessionId,
      principal,
      session,
      streaming,
      afterSeq,
      items: parsed.items,
      metadata: parsed.metadata,
      input:
        parsed.text !== undefined || parsed.data.length > 0
          ? {
              ...(parsed.text !== undefined ? { text: parsed.text } : {}),
              ...(hasExtras ? { extras } : {}),
            }
          : undefined,
      requestId: message.messageId,
      connectTurn,
      reset,
      follow,
      claimed: false,
      buffered: new StreamBuffer(),
      executed,
    };
    context.state.set(STATE_KEYS.prepared, prepared);
    const resolved: Message = { ...message, contextId };
    return { request: { ...params, message: resolved }, prepared };
  }

  /**
   * A client that says it applied messages up to `lastEventId` continues its session only if the
   * session still exists and still holds what comes after; otherwise it must reset (its surfaces
   * are gone), and the old session, if any, ends with `reset`. A position ahead of what the
   * session sent is a gap too (core's rule: `SessionHost.read` says `ok: false`). The message's
   * own task (`taskId`) is not forgotten with the session: its step ends `failed` with the reset.
   */
  async #checkResume(
    sessionId: string,
    principal: unknown,
    lastEventId: number,
    taskId: string | undefined,
  ): Promise<ResetReason | undefined> {
    const { host } = this.#binding;
    try {
      const read = await host.read(sessionId, { principal, afterSeq: lastEventId, limit: 1 });
      if (read.ok) return undefined;
    } catch (error) {
      if (A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')
        return 'unknown-connection';
      throw error;
    }
    if (taskId) this.#binding.sessions.release(sessionId, taskId);
    const local = host.session(sessionId);
    if (local) local.close('reset');
    else await host.disconnect(sessionId, { principal }).catch(() => {});
    return 'replay-gap';
  }
}

/**
 * After the SDK answered: a request the executor never took over (refused, or its client left
 * first) stops its follower and lets the next message on its task in.
 */
function releaseUnclaimed(prepared: PreparedRequest): void {
  if (prepared.claimed) return;
  prepared.follow?.stop();
  prepared.executed();
}

const invalid = (message: string, path: string) =>
  new A2uiError('VALIDATION_FAILED', message, { path });

/** The client's `Last-Event-ID`: a non-negative integer, or `undefined` without the header. */
function readLastEventId(context: ServerCallContext): number | undefined {
  const value = headerOf(context, LAST_EVENT_ID_HEADER);
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value.trim()))
    throw invalid('Last-Event-ID must be a non-negative integer.', '/headers/Last-Event-ID');
  return Number(value.trim());
}
