/** Reads a `ClientTransport`'s events into an array, with an event-driven `until`. */
import type { ClientTransport, TransportEvent } from '@a2ui-ts/core';

export interface TransportRecording {
  readonly events: TransportEvent[];
  /** Status events as `status` or `status: reason`. */
  statuses(): string[];
  /** Every message of every `messages` event, in order: JSON text parsed, arrays flattened. */
  messages(): unknown[];
  until(condition: (events: readonly TransportEvent[]) => boolean): Promise<void>;
  /** Settles when the iteration ends (rejects with the transport's failure). */
  readonly done: Promise<void>;
}

export function recordTransport(
  transport: ClientTransport,
  signal?: AbortSignal,
): TransportRecording {
  const events: TransportEvent[] = [];
  const waiters = new Set<() => void>();
  let finished = false;
  const done = (async () => {
    try {
      for await (const event of transport.events({ signal })) {
        events.push(event);
        for (const waiter of [...waiters]) waiter();
      }
    } finally {
      finished = true;
      for (const waiter of [...waiters]) waiter();
    }
  })();
  done.catch(() => {});
  return {
    events,
    statuses: () =>
      events.flatMap((event) =>
        event.type === 'status'
          ? [event.reason ? `${event.status}: ${event.reason}` : event.status]
          : [],
      ),
    messages: () =>
      events.flatMap((event) => {
        if (event.type !== 'messages') return [];
        const input =
          typeof event.messages === 'string' ? JSON.parse(event.messages) : event.messages;
        return Array.isArray(input) ? input : [input];
      }),
    until(condition) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (condition(events)) {
            waiters.delete(check);
            resolve();
          } else if (finished) {
            waiters.delete(check);
            reject(new Error(`The transport ended first. Events: ${JSON.stringify(events)}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    done,
  };
}
