/**
 * The SDK's Streamable HTTP resumability (`EventStore`: event ids on every SSE event, replay
 * after `Last-Event-ID`) backed by the session host's replay log rather than a second copy of the
 * messages: an event that carries A2UI is remembered as the `seq`s it carried, and rebuilt from
 * the log when the client resumes; only JSON-RPC without A2UI (`initialize`, `tools/list`, a
 * tool error, a resource notification) is kept as it was sent. A resume also proves the client
 * has everything before its `Last-Event-ID`, which lets the log drop it.
 */
import { A2uiError } from '@a2ui-ts/core';
import type { ReplayEntry, SessionHost } from '@a2ui-ts/core/host';
import type {
  EventId,
  EventStore,
  StreamId,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { toToolErrorResult } from '../protocol/mcp-errors.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import { toProgressNotification, toPushNotification, toToolResult } from './tool-results.js';

/** The messages a tool result carried: `seq`s `afterSeq + 1`…`throughSeq`. */
export interface ResultDescription {
  readonly afterSeq: number;
  readonly throughSeq: number;
  /** Whether the result carried the A2UI resource (the client reads A2UI). */
  readonly a2ui: boolean;
  /** `_meta.a2ui.closed` of the result. */
  readonly closed?: string;
}

/** The message a progress notification carried. */
export interface ProgressDescription {
  readonly seq: number;
  readonly progressToken: string | number;
}

/** What a session tells the store about the payloads it is about to send. */
export interface McpEventDescriptions {
  /** This push notification's `params` carry `seq`s `afterSeq + 1`…`throughSeq`. */
  describePush(params: object, description: { afterSeq: number; throughSeq: number }): void;
  /** The result of request `requestId` carries these messages. */
  describeResult(requestId: RequestId, description: ResultDescription): void;
  /** This notification's `params` carry this message. */
  describeProgress(params: object, description: ProgressDescription): void;
}

/** Options of {@link createReplayEventStore}. */
export interface ReplayEventStoreOptions {
  readonly host: SessionHost;
  readonly connectionId: string;
  readonly principal: unknown;
  readonly ledger: DeliveryLedger;
  /** Most events remembered; the oldest are forgotten beyond it (and count as delivered). */
  readonly maxEvents: number;
  /**
   * A resumed standalone stream missed pushes the log no longer holds, and the host gave a
   * snapshot of the surfaces through `throughSeq` in their place: the session's cursor moves
   * past it, so that nothing the snapshot covers is pushed again.
   */
  readonly onSnapshot?: (throughSeq: number) => void;
  /**
   * A resumed standalone stream missed pushes the log no longer holds, and the host has no
   * snapshot (`snapshots: false`): the connection must be reset and the MCP session end, so
   * that the client starts a new one rather than go on with a hole.
   */
  readonly onReplayGap?: () => void;
}

type StoredEvent = { readonly streamId: StreamId; readonly index: number } & (
  | { readonly kind: 'verbatim'; readonly message: JSONRPCMessage }
  | { readonly kind: 'result'; readonly id: RequestId; readonly result: ResultDescription }
  | { readonly kind: 'progress'; readonly progress: ProgressDescription }
  | { readonly kind: 'push'; readonly afterSeq: number; readonly throughSeq: number }
);

/** The first `seq` of an event's messages, when it carried any (the ledger's key). */
const firstSeqOf = (event: StoredEvent): number | undefined => {
  if (event.kind === 'progress') return event.progress.seq;
  if (event.kind === 'result' && event.result.throughSeq > event.result.afterSeq)
    return event.result.afterSeq + 1;
  if (event.kind === 'push') return event.afterSeq + 1;
  return undefined;
};

const replayGap = () =>
  new A2uiError(
    'CONNECTION_CLOSED',
    'Messages of this session are no longer kept; start a new session.',
    { data: { reset: 'replay-gap' } },
  );

/**
 * Creates the event store of one MCP session. Event ids are `<streamId>/<n>` (`n` counts the
 * session's events), so the stream of an id is known without a lookup table per stream.
 */
export function createReplayEventStore(
  options: ReplayEventStoreOptions,
): EventStore & McpEventDescriptions {
  const { host, connectionId, principal, ledger } = options;
  const events = new Map<EventId, StoredEvent>();
  const results = new Map<RequestId, ResultDescription>();
  const progress = new WeakMap<object, ProgressDescription>();
  const pushes = new WeakMap<object, { afterSeq: number; throughSeq: number }>();
  let counter = 0;

  /** Entries `afterSeq + 1`…`throughSeq`, from the log or the closed-connection memory. */
  const readEntries = async (afterSeq: number, throughSeq: number): Promise<ReplayEntry[]> => {
    if (throughSeq <= afterSeq) return [];
    try {
      const read = await host.read(connectionId, {
        principal,
        afterSeq,
        limit: throughSeq - afterSeq,
      });
      if (read.ok && read.entries.length === throughSeq - afterSeq) return [...read.entries];
    } catch (error) {
      if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
      const closed = await host.closedConnection(connectionId, { principal });
      const kept = closed?.entries.filter((e) => e.seq > afterSeq && e.seq <= throughSeq) ?? [];
      if (kept.length === throughSeq - afterSeq) return kept;
    }
    throw replayGap();
  };

  /**
   * The JSON-RPC message of a stored event, as it was first sent; `undefined` for a progress
   * notification whose message is lost — or that comes after one (`lost`): the stream goes on
   * with no message out of order, and the call's result becomes `CONNECTION_CLOSED`
   * (`data.reset: 'replay-gap'`), so the client starts again rather than miss a message.
   */
  const rebuild = async (
    event: StoredEvent,
    lost: boolean,
  ): Promise<JSONRPCMessage | undefined> => {
    if (event.kind === 'verbatim') return event.message;
    if (event.kind === 'push') {
      const entries = lost
        ? undefined
        : await readEntries(event.afterSeq, event.throughSeq).catch(() => undefined);
      if (!entries) return undefined;
      return { jsonrpc: '2.0', ...toPushNotification(entries) };
    }
    if (event.kind === 'progress') {
      const { seq, progressToken } = event.progress;
      const entries = lost ? undefined : await readEntries(seq - 1, seq).catch(() => undefined);
      if (!entries) return undefined;
      return { jsonrpc: '2.0', ...toProgressNotification(entries[0]!, progressToken) };
    }
    const { afterSeq, throughSeq, a2ui, closed } = event.result;
    try {
      if (lost) throw replayGap();
      const entries = await readEntries(afterSeq, throughSeq);
      const result = toToolResult({ entries, ...(closed === undefined ? {} : { closed }) }, a2ui);
      return { jsonrpc: '2.0', id: event.id, result };
    } catch (error) {
      return { jsonrpc: '2.0', id: event.id, result: { ...toToolErrorResult(error) } };
    }
  };

  /**
   * What replaces pushes the log no longer holds, from `afterSeq` on: the host's snapshot of the
   * surfaces (and what follows it), or `undefined` when there is none.
   */
  const recoverPushes = async (afterSeq: number): Promise<readonly ReplayEntry[] | undefined> => {
    try {
      const read = await host.read(connectionId, { principal, afterSeq });
      return read.ok && read.entries.length > 0 ? read.entries : undefined;
    } catch {
      return undefined;
    }
  };

  const forgetOldest = () => {
    const [eventId, oldest] = events.entries().next().value as [EventId, StoredEvent];
    events.delete(eventId);
    // It can no longer be resent: its messages need not stay in the log for it.
    const first = firstSeqOf(oldest);
    if (first !== undefined) ledger.confirm(first);
  };

  return {
    describeResult(requestId, description) {
      results.set(requestId, description);
    },
    describeProgress(params, description) {
      progress.set(params, description);
    },
    describePush(params, description) {
      pushes.set(params, description);
    },

    async storeEvent(streamId, message) {
      const index = ++counter;
      const eventId = `${streamId}/${index}`;
      const id = 'id' in message ? message.id : undefined;
      const result = id === undefined ? undefined : results.get(id);
      const params = 'method' in message ? message.params : undefined;
      const streamed = params === undefined ? undefined : progress.get(params);
      const pushed = params === undefined ? undefined : pushes.get(params);
      let event: StoredEvent;
      if (result && id !== undefined && 'result' in message) {
        results.delete(id);
        event = { streamId, index, kind: 'result', id, result };
      } else if (streamed) event = { streamId, index, kind: 'progress', progress: streamed };
      else if (pushed) event = { streamId, index, kind: 'push', ...pushed };
      else event = { streamId, index, kind: 'verbatim', message };
      events.set(eventId, event);
      while (events.size > options.maxEvents) forgetOldest();
      return eventId;
    },

    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },

    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (!last) throw new A2uiError('VALIDATION_FAILED', 'Unknown Last-Event-ID.');
      const after: [EventId, StoredEvent][] = [];
      for (const [eventId, event] of events) {
        if (event.streamId !== last.streamId) continue;
        if (event.index > last.index) after.push([eventId, event]);
        else {
          // The client has this event: its messages may leave the log.
          const first = firstSeqOf(event);
          if (first !== undefined) ledger.confirm(first);
        }
      }
      let lost = false;
      /** Through which `seq` a snapshot sent in place of lost pushes covers the surfaces. */
      let coveredSeq = -1;
      for (const [eventId, event] of after) {
        if (event.kind === 'push' && event.throughSeq <= coveredSeq) continue;
        let message = await rebuild(event, lost);
        if (!message && event.kind === 'push') {
          // Pushes on the standalone stream have no call to fail: the client gets the surfaces
          // as they are now (a snapshot), or its session ends and it starts a new one.
          const entries = await recoverPushes(event.afterSeq);
          if (!entries) {
            options.onReplayGap?.();
            return last.streamId;
          }
          coveredSeq = entries.at(-1)!.seq;
          options.onSnapshot?.(coveredSeq);
          message = { jsonrpc: '2.0', ...toPushNotification(entries) };
        }
        if (!message) lost = true;
        // Priming events (`{}`) carry nothing to resend.
        else if (Object.keys(message).length > 0) await send(eventId, message);
      }
      return last.streamId;
    },
  };
}
