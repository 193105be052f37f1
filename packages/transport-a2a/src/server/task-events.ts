/**
 * The A2A events the server emits for an A2UI session, in `@a2a-js/sdk`'s in-memory form: agent
 * messages whose data parts carry the session's messages (one per part, with their `a2uiSeq`), and
 * status updates — `working` while a turn streams, `input-required` when it is over (the task
 * stays open for the next action), a terminal state when the session ends.
 */

import {
  type Message,
  type Part,
  Role,
  type Task,
  TaskState,
  type TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  ResultManager,
  type ServerCallContext,
  type TaskStore,
} from '@a2a-js/sdk/server';
import type { ReplayEntry } from '@a2ui-ts/core/host';
import { createA2uiDataPart, createTextPart } from '../protocol/a2ui-parts.js';

/** How a task's current step ends: its state, an optional text for people, and A2UI metadata. */
export interface TaskOutcome {
  readonly state: TaskState;
  readonly text?: string;
  readonly metadata?: Record<string, unknown>;
}

/** Where events go: the task and its context. */
export interface TaskAddress {
  readonly taskId: string;
  readonly contextId: string;
}

/** The terminal and interrupted states (A2A v1.0 §4.1.3). */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export const isTerminalState = (state: TaskState | undefined): boolean =>
  state !== undefined && TERMINAL_STATES.has(state);

/** The data parts of `entries`, one A2UI message each. */
export function entriesToParts(entries: readonly ReplayEntry[]): Part[] {
  return entries.map((entry) =>
    createA2uiDataPart(entry.message ?? JSON.parse(entry.data), { seq: entry.seq }),
  );
}

/**
 * Splits `entries` into runs of at most `maxBytes` of JSON each (at least one entry per run), so
 * that no event exceeds what an A2A client reads in one go (`@a2a-js/sdk`: 4 MiB per SSE event).
 */
export function chunkEntries(entries: readonly ReplayEntry[], maxBytes: number): ReplayEntry[][] {
  const chunks: ReplayEntry[][] = [];
  let current: ReplayEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (current.length > 0 && bytes + entry.data.length > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += entry.data.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** An agent message of the task. */
export function agentMessage(address: TaskAddress, parts: Part[]): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: address.contextId,
    taskId: address.taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A status update of the task, with a message when `parts` is not empty. */
export function statusUpdate(
  address: TaskAddress,
  state: TaskState,
  parts: Part[] = [],
  metadata?: Record<string, unknown>,
): TaskStatusUpdateEvent {
  return {
    taskId: address.taskId,
    contextId: address.contextId,
    status: {
      state,
      message: parts.length > 0 ? agentMessage(address, parts) : undefined,
      timestamp: new Date().toISOString(),
    },
    metadata,
  };
}

/** The status update that ends a step with `outcome` (its text as a text part). */
export function outcomeUpdate(
  address: TaskAddress,
  outcome: TaskOutcome,
  parts: Part[] = [],
): TaskStatusUpdateEvent {
  const all = outcome.text === undefined ? parts : [...parts, createTextPart(outcome.text)];
  return statusUpdate(address, outcome.state, all, outcome.metadata);
}

/**
 * Stores `update` as the SDK stores a published one (the task's status, its message added to the
 * history), for an update no request's consumer reads: a session's end, a cancel, a reset.
 */
export function storeStatusUpdate(
  store: TaskStore,
  context: ServerCallContext,
  update: TaskStatusUpdateEvent,
): Promise<void> {
  return new ResultManager(store, context).processEvent(AgentEvent.statusUpdate(update));
}

/** The task as the first event of an execution: the stored one, now working, or a new one. */
export function workingTask(
  address: TaskAddress,
  stored: Task | undefined,
  userMessage: Message,
): Task {
  const status = {
    state: TaskState.TASK_STATE_WORKING,
    message: undefined,
    timestamp: new Date().toISOString(),
  };
  if (stored) return { ...stored, status };
  return {
    id: address.taskId,
    contextId: address.contextId,
    status,
    artifacts: [],
    history: [userMessage],
    metadata: undefined,
  };
}

/** The highest `a2uiSeq` among the parts of a task's messages (0 when none). */
export function highestSeqOf(task: Task): number {
  let highest = 0;
  const visit = (message: Message | undefined) => {
    for (const part of message?.parts ?? []) {
      const seq = part.metadata?.a2uiSeq;
      if (typeof seq === 'number' && seq > highest) highest = seq;
    }
  };
  for (const message of task.history ?? []) visit(message);
  visit(task.status?.message);
  return highest;
}
