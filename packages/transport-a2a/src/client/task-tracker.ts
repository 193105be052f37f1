/**
 * The A2A context and task an A2UI session of `connectA2a` is in: which task the next message
 * continues (one that waits for input), and when a step's final state ends it. A2A continues a
 * task only while it is `input-required` or `auth-required`; any other final state ends it, and the
 * next message opens a new task of the same context.
 */
import { TaskState } from '@a2a-js/sdk';
import { createConnectionId } from '@a2ui-ts/core';

/** States in which a task waits for the client: the next message continues it. */
export const INTERRUPTED: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/** States of a task still at work: they end no step. */
export const RUNNING: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
  TaskState.TASK_STATE_UNSPECIFIED,
]);

/** The context and task of one session. */
export class TaskTracker {
  /** The A2A context of the session. */
  contextId: string;
  /** The task of the last step, while it is not over. */
  taskId: string | undefined;
  /** Its last known state. */
  taskState: TaskState | undefined;

  /** @param contextId - the context to continue @default a new one */
  constructor(contextId?: string) {
    this.contextId = contextId ?? createConnectionId();
  }

  /** True while the task waits for input: the next message continues it. */
  get waiting(): boolean {
    return (
      this.taskId !== undefined && this.taskState !== undefined && INTERRUPTED.has(this.taskState)
    );
  }

  /** The id a message continues (the waiting task), or `''` for a new task. */
  get continuedTaskId(): string {
    return this.taskId && this.waiting ? this.taskId : '';
  }

  /** A task event or status update said where the task is (an event without a task id says nothing). */
  note(taskId: string, contextId: string, state: TaskState | undefined): void {
    if (!taskId) return;
    this.taskId = taskId;
    if (contextId) this.contextId = contextId;
    this.taskState = state;
  }

  /** A step ended in `state`: a task that neither waits nor runs is over. */
  settle(state: TaskState | undefined): void {
    if (state !== undefined && INTERRUPTED.has(state)) return;
    if (state !== undefined) this.taskId = undefined;
    this.taskState = state;
  }

  /** The task is gone (ended meanwhile): the next message opens a new one. */
  forget(): void {
    this.taskId = undefined;
    this.taskState = undefined;
  }

  /** A new session: a new context, no task. */
  reset(): void {
    this.contextId = createConnectionId();
    this.forget();
  }
}
