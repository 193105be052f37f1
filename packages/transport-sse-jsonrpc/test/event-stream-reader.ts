/**
 * Reads a `text/event-stream` response in tests: every parsed event and comment, the raw text,
 * and `next(predicate)` to await the next matching event — driven by the bytes, never by a clock.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface EventStreamReader {
  readonly response: Response;
  readonly events: EventSourceMessage[];
  readonly comments: string[];
  /** Every byte received, decoded. */
  readonly text: string;
  readonly ended: boolean;
  /** Resolves with the first event (from the start) matching `predicate` that was not taken yet. */
  next(predicate?: (event: EventSourceMessage) => boolean): Promise<EventSourceMessage>;
  /** Resolves once `condition` holds, re-checked on every chunk. */
  until(condition: () => boolean): Promise<void>;
  /** Resolves when the stream ends. */
  end(): Promise<void>;
  close(): void;
}

export async function openEventStream(
  url: string,
  init: RequestInit = {},
): Promise<EventStreamReader> {
  const abort = new AbortController();
  const response = await fetch(url, { ...init, signal: abort.signal });
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const taken = new Set<EventSourceMessage>();
  let text = '';
  let ended = false;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const parser = createParser({
    onEvent: (event) => {
      events.push(event);
    },
    onComment: (comment) => {
      comments.push(comment);
    },
  });
  const done = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        parser.feed(chunk);
        notify();
      }
    } catch {
      // Aborted or reset: the stream is over either way.
    } finally {
      ended = true;
      notify();
    }
  })();
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (condition()) {
          waiters.delete(check);
          resolve();
        } else if (ended) {
          waiters.delete(check);
          reject(new Error(`The stream ended first. Received:\n${text}`));
        }
      };
      waiters.add(check);
      check();
    });
  return {
    response,
    events,
    comments,
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    async next(predicate = () => true) {
      let found: EventSourceMessage | undefined;
      await until(() => {
        found = events.find((event) => !taken.has(event) && predicate(event));
        return found !== undefined;
      });
      taken.add(found!);
      return found!;
    },
    until,
    end: () => done,
    close: () => abort.abort(),
  };
}
