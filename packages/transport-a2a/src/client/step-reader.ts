/**
 * How `connectA2a` reads one step — the stream of the answer to a message, of a resubscribe
 * after a cut, or of a subscription while the task waits — and what a failed call means: it
 * applies the A2UI messages as they arrive, follows the task, and says how the step ended.
 */
import type { StreamResponse, TaskState } from '@a2a-js/sdk';
import { A2AError } from '@a2a-js/sdk/errors';
import { A2uiError, describeError } from '@a2ui-ts/core';
import { errorOfHttpStatus, isRetryableStatus } from '@a2ui-ts/core/link';
import { fromA2aError } from '../protocol/a2a-errors.js';
import { A2UI_METADATA } from '../protocol/a2ui-extension.js';
import { type A2uiHarvester, type MutableHarvest, newHarvest } from './a2ui-harvester.js';
import type { CallRecord } from './call-watch.js';
import { INTERRUPTED, RUNNING, type TaskTracker } from './task-tracker.js';

/** How one step (the stream of a message, or of a subscription) ended. */
export type StepEnd =
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

/** A step that is over. */
export type FinalStep = Extract<StepEnd, { kind: 'final' }>;

/**
 * How a step's stream is read: `turn` (the answer to a message: over at the first state that is
 * not running), `resume` (a resubscribe after a cut answer: the same, after the stored task),
 * `idle` (a subscription while the task waits: pushes, until the stream ends or the task does).
 */
export type StepMode = 'turn' | 'resume' | 'idle';

/** What a step reads into. */
export interface StepContext {
  readonly harvester: A2uiHarvester;
  readonly tasks: TaskTracker;
  /** Applies what one event carried (A2UI messages, text). */
  deliver(harvest: MutableHarvest): void;
  /** True once the transport is closed: a failure then is the client stopping. */
  readonly closed: boolean;
}

/** Whether `state` ends a step of `mode`. */
function endsStep(
  mode: StepMode,
  state: TaskState | undefined,
  metadata: Record<string, unknown> | undefined,
): boolean {
  if (state === undefined || RUNNING.has(state)) return false;
  if (mode !== 'idle') return true;
  return (
    !INTERRUPTED.has(state) ||
    metadata?.[A2UI_METADATA.reset] !== undefined ||
    metadata?.[A2UI_METADATA.sessionClosed] !== undefined
  );
}

/** Reads a step's stream: applies its A2UI messages, follows its task, and says how it ended. */
export async function readStep(
  stream: AsyncIterable<StreamResponse>,
  call: { signal: AbortSignal; record: CallRecord },
  mode: StepMode,
  context: StepContext,
  progress: { events: number } = { events: 0 },
): Promise<StepEnd> {
  const { harvester, tasks } = context;
  /** The last task event, when nothing followed it. */
  let taskEnd: FinalStep | undefined;
  const isForeign = stepTaskGuard(mode === 'turn' ? tasks.continuedTaskId : (tasks.taskId ?? ''));
  try {
    for await (const event of stream) {
      const payload = event.payload;
      if (!payload) continue;
      // A stream that names another task (a proxy's mix-up, a forged answer) is not this step's:
      // applying it would show its surfaces and send the next message to a task never asked for.
      if (isForeign(taskIdOf(payload))) continue;
      const first = progress.events === 0;
      if (payload.$case !== 'task') taskEnd = undefined;
      progress.events++;
      const harvest = newHarvest();
      let end: StepEnd | undefined;
      switch (payload.$case) {
        case 'task': {
          const task = payload.value;
          const state = task.status?.state;
          tasks.note(task.id, task.contextId, state);
          harvester.task(task, harvest);
          // A stream's task event is the task as it starts the step (a continued task still says
          // `input-required`): it ends the step only as the last event (a blocking answer), or
          // as a resubscribe's first to an agent that is not ours (its stream of a finished turn
          // stays open).
          taskEnd = { kind: 'final', state, metadata: task.metadata };
          if (
            mode === 'resume' &&
            first &&
            !harvester.sequenced &&
            endsStep(mode, state, undefined)
          )
            end = taskEnd;
          break;
        }
        case 'statusUpdate': {
          const update = payload.value;
          const state = update.status?.state;
          tasks.note(update.taskId, update.contextId, state);
          harvester.message(update.status?.message, harvest);
          if (endsStep(mode, state, update.metadata))
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
      context.deliver(harvest);
      if (harvest.gap)
        return {
          kind: 'cut',
          reason: `Messages after ${harvester.sequence.last} are missing; resuming.`,
        };
      if (end) return end;
    }
  } catch (error) {
    return stopped(call, context) ?? classifyFailure(error, call.record);
  }
  const end = stopped(call, context);
  if (end) return end;
  if (mode === 'idle') return { kind: 'ended' };
  if (taskEnd && endsStep(mode, taskEnd.state, taskEnd.metadata)) return taskEnd;
  return { kind: 'cut', reason: 'The stream ended before the step was over.' };
}

/** The task an event is about, if it names one. */
function taskIdOf(payload: NonNullable<StreamResponse['payload']>): string | undefined {
  switch (payload.$case) {
    case 'task':
      return payload.value.id;
    case 'statusUpdate':
    case 'artifactUpdate':
      return payload.value.taskId;
    case 'message':
      return payload.value.taskId;
  }
}

/**
 * Whether a task id is foreign to the step: one other than the task the step continues or
 * follows (`stepTask`), or, for a step that opens a task, other than the first one it names.
 */
function stepTaskGuard(stepTask: string): (taskId: string | undefined) => boolean {
  let expected = stepTask;
  return (taskId) => {
    if (!taskId) return false;
    if (!expected) expected = taskId;
    return taskId !== expected;
  };
}

/** A deadline expired (a dead link), or the client stopped reading. */
function stopped(
  call: { signal: AbortSignal; record: CallRecord },
  context: StepContext,
): StepEnd | undefined {
  if (call.record.expired && !context.closed) return { kind: 'cut', reason: call.record.expired };
  if (call.signal.aborted || context.closed) return { kind: 'aborted' };
  return undefined;
}

/** What a failed call means: a retry (network, 5xx, a busy agent) or a refusal. */
export function classifyFailure(error: unknown, record: CallRecord): StepEnd {
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
}

/** {@link errorOfHttpStatus}, and what a 413 or a 404 means to an A2A client. */
export function httpError(status: number, message: string): A2uiError {
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
