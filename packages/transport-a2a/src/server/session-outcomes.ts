/**
 * How a task's step ends for each thing that can happen to its A2UI session (`docs/wire-formats.md`,
 * "A2A"): a turn that is over leaves the task `input-required`; a failed hook, a refusal or a lost
 * session fail it; the end of the session completes (the agent closed it) or cancels it.
 */

import { type Task, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { A2uiError, type DisconnectReason } from '@a2ui-ts/core';
import type { ResetReason, SessionFollow, SessionHost, TurnResult } from '@a2ui-ts/core/host';
import { A2UI_METADATA } from '../protocol/a2ui-extension.js';
import { outcomeUpdate, storeStatusUpdate, type TaskOutcome } from './task-events.js';

/** The turn is over: the task waits for the next action. */
export const INPUT_REQUIRED: TaskOutcome = { state: TaskState.TASK_STATE_INPUT_REQUIRED };

const SESSION_END_TEXT: Record<DisconnectReason, string> = {
  'server-closed': 'The agent ended the session.',
  'client-closed': 'The client ended the session.',
  'grace-expired': 'The session expired.',
  reset: 'The session was replaced by a new one.',
};

/** The session ended with `reason`: `completed` when the agent closed it, else `canceled`. */
export function sessionEndOutcome(reason: DisconnectReason): TaskOutcome {
  return {
    state:
      reason === 'server-closed' ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_CANCELED,
    text: SESSION_END_TEXT[reason],
    metadata: { [A2UI_METADATA.sessionClosed]: reason },
  };
}

/** Stores that `task`, on which no turn runs, ended with its session (`reason`). */
export function storeSessionEnd(
  store: TaskStore,
  context: ServerCallContext,
  task: Task,
  reason: DisconnectReason,
): Promise<void> {
  const update = outcomeUpdate(
    { taskId: task.id, contextId: task.contextId },
    sessionEndOutcome(reason),
  );
  return storeStatusUpdate(store, context, update);
}

/** The client's session cannot be continued: it must start a new context. */
export function resetOutcome(reason: ResetReason): TaskOutcome {
  return {
    state: TaskState.TASK_STATE_FAILED,
    text:
      reason === 'replay-gap'
        ? 'The messages this client missed are no longer kept; start a new session.'
        : 'This session is unknown (expired, or the server restarted); start a new session.',
    metadata: { [A2UI_METADATA.reset]: reason },
  };
}

/** A request the session host refused after the A2A request was accepted (a busy agent, closing). */
export function refusalOutcome(error: unknown): TaskOutcome {
  const known = A2uiError.isInstance(error)
    ? error
    : new A2uiError('INTERNAL_ERROR', 'The server failed to handle the message.');
  const detail: Record<string, unknown> = { code: known.code, message: known.message };
  if (typeof known.data?.retryAfterMs === 'number') detail.retryAfterMs = known.data.retryAfterMs;
  // Why it is refused for now (`store-unavailable`), so that a status bar says what happened.
  if (typeof known.data?.reason === 'string') detail.reason = known.data.reason;
  return {
    state: TaskState.TASK_STATE_FAILED,
    text: known.message,
    metadata: { [A2UI_METADATA.error]: detail },
  };
}

/**
 * The request's turns did not run: refused (a busy agent), or their session ended first
 * (`ended`), in which case the step says that too — the message failed, it was not applied.
 */
export function notRunOutcome(error: unknown, ended: DisconnectReason | undefined): TaskOutcome {
  const refusal = refusalOutcome(error);
  if (ended === undefined) return refusal;
  return {
    ...refusal,
    metadata: { ...refusal.metadata, [A2UI_METADATA.sessionClosed]: ended },
  };
}

/** How the step ends after its last turn (`undefined`: the request carried no input). */
export function turnOutcome(
  turn: TurnResult | undefined,
  ended: DisconnectReason | undefined,
): TaskOutcome {
  if (ended !== undefined) return sessionEndOutcome(ended);
  if (turn?.outcome === 'closed') return sessionEndOutcome('server-closed');
  if (turn?.outcome === 'failed') {
    return refusalOutcome(
      new A2uiError('INTERNAL_ERROR', 'The agent failed to handle the message.'),
    );
  }
  return INPUT_REQUIRED;
}

/**
 * Follows session `sessionId` after `afterSeq` (`SessionHost.follow`: live, and present, so the
 * session stays out of its grace period while a request streams it), or says why the client must
 * reset: the session is gone, or no longer holds what comes after `afterSeq`.
 * @throws A2uiError `FORBIDDEN` for another principal's session
 */
export async function followOrReset(
  host: SessionHost,
  sessionId: string,
  options: { principal: unknown; afterSeq: number; onReadable?: (follow: SessionFollow) => void },
): Promise<SessionFollow | ResetReason> {
  try {
    // Its readers take every batch as it comes and bound what they hold themselves.
    return await host.follow(sessionId, { ...options, maxBufferedBytes: Number.POSITIVE_INFINITY });
  } catch (error) {
    if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
    return (error.data as { reset?: ResetReason } | undefined)?.reset ?? 'unknown-connection';
  }
}
