/**
 * An unbounded-by-design single-consumer async queue: the bridge from push-style sources
 * (sockets, callbacks) to the `AsyncIterable` edges of this library.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/** A push/pull queue; iterate it once. */
export interface EventQueue<T> extends AsyncIterable<T> {
  /** Adds an item; ignored after `end`. */
  push(item: T): void;
  /** Ends the iteration after the queued items. */
  end(): void;
  /** Ends the iteration with `error` after the queued items. */
  fail(error: unknown): void;
  /** Items waiting to be read. */
  readonly size: number;
  readonly ended: boolean;
}

/**
 * Creates an {@link EventQueue}. When `signal` aborts, the iteration ends (without error).
 */
export function createEventQueue<T>(options: { signal?: AbortSignal } = {}): EventQueue<T> {
  // A read index instead of shift(): a burst of n queued events is read in O(n), not O(n²).
  let items: T[] = [];
  let head = 0;
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  let iterated = false;

  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const end = () => {
    ended = true;
    notify();
  };
  options.signal?.addEventListener('abort', end, { once: true });
  if (options.signal?.aborted) ended = true;

  return {
    push(item) {
      if (ended) return;
      items.push(item);
      notify();
    },
    end,
    fail(error) {
      if (ended) return;
      failure = error;
      end();
    },
    get size() {
      return items.length - head;
    },
    get ended() {
      return ended;
    },
    async *[Symbol.asyncIterator]() {
      if (iterated) throw new A2uiError('INTERNAL_ERROR', 'An event queue can be iterated once.');
      iterated = true;
      try {
        while (true) {
          if (head < items.length) {
            const item = items[head]!;
            items[head] = undefined as T;
            head++;
            if (head === items.length) {
              items = [];
              head = 0;
            } else if (head > 1024 && head * 2 > items.length) {
              // A producer that never lets the queue drain must not keep read slots alive.
              items = items.slice(head);
              head = 0;
            }
            yield item;
            continue;
          }
          if (ended) break;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        if (failure !== undefined) throw failure;
      } finally {
        ended = true;
        items = [];
        head = 0;
        options.signal?.removeEventListener('abort', end);
      }
    },
  };
}
