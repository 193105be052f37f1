/**
 * What `connectAgUi` listens to during one run: an `AgentSubscriber` that turns the run's events
 * into A2UI messages as they arrive (state, activity, tool results), follows the thread's seq,
 * collects the frontend tool calls the run ends with, and records how the run ended — finished,
 * a `RUN_ERROR`, the server's reset or close of the thread, or a failure of the run itself. A run
 * whose `RUN_STARTED` names another thread is dropped whole and ends as a retried run error.
 */
import { isRecord, type ServerMessage } from '@a2ui-ts/core';
import { type AgentSubscriber, EventType } from '@ag-ui/client';
import { CUSTOM_EVENTS } from '../protocol/constants.js';
import type { A2uiEventReader } from './a2ui-event-reader.js';
import { RunCutError } from './guard-run-fetch.js';
import type { RunOutcome, ToolCall } from './run-outcome.js';
import type { RunSeq } from './run-seq.js';

/** What a run's subscriber needs. */
export interface RunSubscriberContext {
  readonly reader: A2uiEventReader;
  readonly seq: RunSeq;
  /** The thread the run was sent for: a run that starts for another is dropped whole. */
  readonly threadId: string;
  /** Hands A2UI messages to the consumer (an empty list is nothing). */
  push(messages: ServerMessage[]): void;
  /** The server started the thread over (`reason` says why, for the `reset` event). */
  reset(reason: string): void;
}

/** The record of one run, filled in by its subscriber. */
export class RunRecord {
  terminal: 'finished' | 'error' | undefined;
  runError: { code: string | undefined; message: string } | undefined;
  reset = false;
  closedReason: string | undefined;
  /** The run itself failed (`onRunFailed`): re-thrown once `runAgent` resolved. */
  failure: Error | undefined;
  readonly calls = new Map<string, ToolCall>();
  /** The frontend-tool calls that are renderer functions (`a2ui.functionCall`): A2uiClient runs them. */
  readonly functionCallIds = new Set<string>();

  /** How the run ended, when it did not fail. */
  outcome(): RunOutcome {
    if (this.terminal === 'finished')
      return { kind: 'finished', reset: this.reset, closed: this.closedReason };
    if (this.terminal === 'error')
      return {
        kind: 'run-error',
        code: this.runError?.code,
        message: this.runError?.message ?? 'RUN_ERROR',
        reset: this.reset,
      };
    return { kind: 'incomplete' };
  }
}

/** The reason a custom event's `value` names, or `'unknown reason'`. */
function reasonOf(value: unknown): string {
  const reason = (value as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' ? reason : 'unknown reason';
}

/** A subscriber of one run, and the record it fills in. */
export function createRunSubscriber(context: RunSubscriberContext): {
  subscriber: AgentSubscriber;
  record: RunRecord;
} {
  const { reader, seq, push } = context;
  const record = new RunRecord();
  let foreign = false;
  const subscriber: AgentSubscriber = {
    // Before every event's own handler and its application to the agent's state and messages:
    // the events of a run that answers for another thread (a misrouted or mixed-up response)
    // are dropped, so they neither reach the surfaces nor the state the next run sends back.
    onEvent: ({ event }) => {
      if (!foreign && event.type === EventType.RUN_STARTED && event.threadId !== context.threadId) {
        foreign = true;
        record.terminal = 'error';
        // Retried like a server that closed the run: the same run again, later.
        record.runError = {
          code: 'CONNECTION_CLOSED',
          message: 'The run answered for another thread; its events were dropped.',
        };
      }
      return foreign ? { stopPropagation: true } : undefined;
    },
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
      record.calls.set(event.toolCallId, {
        id: event.toolCallId,
        name: toolCallName,
        args: toolCallArgs,
      });
    },
    onToolCallResultEvent: ({ event }) => {
      record.calls.delete(event.toolCallId);
      push(reader.toolResult(event.content));
    },
    onCustomEvent: ({ event }) => {
      if (event.name === CUSTOM_EVENTS.reset) {
        record.reset = true;
        context.reset(
          `The server no longer knew this thread (${reasonOf(event.value)}); it started over.`,
        );
      } else if (event.name === CUSTOM_EVENTS.closed) {
        record.closedReason = reasonOf(event.value);
      } else if (event.name === CUSTOM_EVENTS.functionCall && isRecord(event.value)) {
        // The v1.0 message whole: `A2uiClient` runs a renderer function and answers it.
        const call = event.value.callRendererFunction;
        if (isRecord(call) && typeof call.functionCallId === 'string')
          record.functionCallIds.add(call.functionCallId);
        push([event.value as unknown as ServerMessage]);
      }
    },
    onRunFinishedEvent: () => {
      record.terminal = 'finished';
    },
    onRunErrorEvent: ({ event }) => {
      // The guard's cut (`@ag-ui/client` reports an aborted body as a RUN_ERROR): not the server's.
      if (RunCutError.isInstance(event.rawEvent)) return;
      record.terminal = 'error';
      record.runError = { code: event.code, message: event.message };
    },
  };
  subscriber.onRunFailed = ({ error }) => {
    record.failure = error;
    // Handled here: no `console.error` from the agent, and `runAgent` resolves. The runtime
    // honours `stopPropagation` from `onRunFailed` although its type leaves it out.
    return { stopPropagation: true } as never;
  };
  return { subscriber, record };
}
