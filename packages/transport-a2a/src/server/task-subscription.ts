/**
 * `SubscribeToTask` (v0.3 `tasks/resubscribe`) over an A2UI session: the stored task first (A2A
 * v1.0 requires it, a2a-js#323), then every message of the session after the client's position
 * — its `Last-Event-ID`, else the highest `a2uiSeq` the stored task holds — live from the replay
 * log, so a stream cut in the middle of a turn resumes with nothing lost or repeated. It ends with
 * the turn running on the task, as the SDK's own subscription does; on a task waiting for input it
 * stays open and carries what the agent sends between turns (server push), until the next turn on
 * the task ends, the session ends, or the client leaves.
 */

import { type StreamResponse, type Task, TaskState, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { A2uiError, type DisconnectReason } from '@a2ui-ts/core';
import type { ReplayEntry, SessionFollow } from '@a2ui-ts/core/host';
import type { A2aBinding } from './a2a-binding.js';
import type { A2aSession, TaskRun } from './a2a-sessions.js';
import { followOrReset, resetOutcome, sessionEndOutcome } from './session-outcomes.js';
import { bytesOf, StreamBuffer } from './stream-buffer.js';
import {
  chunkEntries,
  entriesToParts,
  outcomeUpdate,
  statusUpdate,
  storeStatusUpdate,
  type TaskAddress,
} from './task-events.js';

/** What one subscription follows. */
export interface SubscriptionRequest {
  readonly task: Task;
  readonly sessionId: string;
  readonly principal: unknown;
  readonly afterSeq: number;
  readonly session: A2aSession;
  readonly context: ServerCallContext;
  readonly signal: AbortSignal | undefined;
}

/** A status update as a stream response. */
const statusEvent = (value: TaskStatusUpdateEvent): StreamResponse => ({
  payload: { $case: 'statusUpdate', value },
});

/** Streams `request.task`'s session (see the module comment). */
export async function* subscribeToTask(
  binding: A2aBinding,
  request: SubscriptionRequest,
): AsyncGenerator<StreamResponse, void, undefined> {
  const { task, session, signal } = request;
  const address: TaskAddress = { taskId: task.id, contextId: task.contextId };
  let queued: ReplayEntry[] = [];
  const buffered = new StreamBuffer();
  /** What the client would have had to hold, once that is past the bound. */
  let overflowed: number | undefined;
  let ended: DisconnectReason | undefined;
  let watched: TaskRun | undefined = session.runs.get(task.id);
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const stopWatching = session.onChange(() => {
    watched = session.runs.get(task.id) ?? watched;
    notify();
  });
  signal?.addEventListener('abort', notify);
  binding.streamBuffers.add(buffered);
  let follow: SessionFollow | undefined;
  const onEntries = (entries: readonly ReplayEntry[]) => {
    // Past the bound nothing more is held: the stream ends at its next read (below).
    if (overflowed !== undefined) return;
    const size = bytesOf(entries);
    // What the client missed comes in one go, before it could read anything: it always fits.
    if (!buffered.fits(size, binding.maxBufferedBytes)) {
      overflowed = buffered.bytes + size;
      queued = [];
      buffered.clear();
    } else {
      queued.push(...entries);
      buffered.hold('queued', size);
    }
    notify();
  };
  try {
    const followed = await followOrReset(binding.host, request.sessionId, {
      principal: request.principal,
      afterSeq: request.afterSeq,
      // Taken at once, so that what this stream holds is counted (and bounded) as it arrives.
      onReadable(followed) {
        const entries = followed.take();
        if (entries.length > 0) onEntries(entries);
        if (!followed.live && ended === undefined) {
          // The session's end, or this node's shutdown (which ends the server's streams).
          ended = followed.ended ?? 'server-closed';
          notify();
        }
      },
    });
    if (typeof followed === 'string') {
      // Its session is gone: the stored task ends (kept, not forgotten with the session), and
      // the client starts a new context.
      binding.sessions.release(request.sessionId, task.id);
      binding.host.session(request.sessionId)?.close('reset');
      const outcome = resetOutcome(followed);
      const update = outcomeUpdate(address, outcome);
      await storeStatusUpdate(binding.taskStore, request.context, update);
      yield { payload: { $case: 'task', value: task } };
      yield statusEvent(update);
      return;
    }
    follow = followed;
    yield { payload: { $case: 'task', value: task } };
    // No turn runs on the task: say so at once (after what it missed), so a client resuming a cut
    // turn knows the turn is over; the stream then carries pushes.
    let caughtUp = watched !== undefined;
    while (!signal?.aborted) {
      if (overflowed !== undefined) {
        throw new A2uiError(
          'LIMIT_EXCEEDED',
          `The client reads too slowly (${overflowed} bytes waiting); resubscribe with Last-Event-ID.`,
        );
      }
      if (queued.length > 0) {
        const entries = queued;
        queued = [];
        buffered.clear();
        const state =
          watched && !watched.outcome
            ? TaskState.TASK_STATE_WORKING
            : TaskState.TASK_STATE_INPUT_REQUIRED;
        for (const chunk of chunkEntries(entries, binding.maxUpdateBytes))
          yield statusEvent(statusUpdate(address, state, entriesToParts(chunk)));
        caughtUp = true;
        continue;
      }
      if (!caughtUp) {
        caughtUp = true;
        yield statusEvent(statusUpdate(address, TaskState.TASK_STATE_INPUT_REQUIRED));
        continue;
      }
      if (ended !== undefined) {
        yield statusEvent(outcomeUpdate(address, sessionEndOutcome(ended)));
        return;
      }
      if (watched?.outcome) {
        yield statusEvent(outcomeUpdate(address, watched.outcome));
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    binding.streamBuffers.delete(buffered);
    stopWatching();
    signal?.removeEventListener('abort', notify);
    follow?.stop();
  }
}
