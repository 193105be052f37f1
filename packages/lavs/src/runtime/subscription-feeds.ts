/**
 * Subscriptions (spec §5.4) fed by their endpoint's handler: a feed per endpoint and input, run
 * once however many clients watch it (fan-out), again after every successful mutation. Runs of
 * one feed never overlap and coalesce: changes during a run cause one more run, not one each,
 * so watchers get the newest state in order.
 */

type Listener = (data: unknown) => void;

interface Feed {
  readonly endpointId: string;
  readonly input: unknown;
  readonly listeners: Set<Listener>;
  running: boolean;
  dirty: boolean;
  /** The last output, once there is one. */
  latest?: { value: unknown };
}

/** Runs a subscription endpoint's handler; a failure is the runner's to report. */
export type RunSubscription = (endpointId: string, input: unknown) => Promise<unknown>;

/** Every feed of one runtime. */
export class SubscriptionFeeds {
  readonly #feeds = new Map<string, Feed>();
  readonly #run: RunSubscription;

  constructor(run: RunSubscription) {
    this.#run = run;
  }

  /** Adds a watcher; it gets the feed's current output first. @returns the function that removes it */
  add(endpointId: string, input: unknown, listener: Listener): () => void {
    const key = `${endpointId}\u0000${JSON.stringify(input)}`;
    let feed = this.#feeds.get(key);
    if (feed === undefined) {
      feed = { endpointId, input, listeners: new Set(), running: false, dirty: false };
      this.#feeds.set(key, feed);
    }
    // One function per watcher, so the same listener may watch twice.
    const watcher: Listener = (data) => listener(data);
    feed.listeners.add(watcher);
    const latest = feed.latest;
    if (latest !== undefined)
      queueMicrotask(() => feed.listeners.has(watcher) && watcher(latest.value));
    // A first run under way feeds the new watcher too: no second run for it.
    else if (!feed.running) this.#refresh(feed);
    return () => {
      feed.listeners.delete(watcher);
      if (feed.listeners.size === 0 && this.#feeds.get(key) === feed) this.#feeds.delete(key);
    };
  }

  /** How many watchers there are, over all feeds. */
  get size(): number {
    let count = 0;
    for (const feed of this.#feeds.values()) count += feed.listeners.size;
    return count;
  }

  /** Runs every feed again (after a mutation). */
  refreshAll(): void {
    for (const feed of this.#feeds.values()) this.#refresh(feed);
  }

  /** Pushes `data` to every watcher of `endpointId`. */
  publish(endpointId: string, data: unknown): void {
    for (const feed of this.#feeds.values())
      if (feed.endpointId === endpointId)
        for (const listener of [...feed.listeners]) listener(data);
  }

  /** Drops every feed and watcher. */
  clear(): void {
    for (const feed of this.#feeds.values()) feed.listeners.clear();
    this.#feeds.clear();
  }

  #refresh(feed: Feed): void {
    if (feed.running) {
      feed.dirty = true;
      return;
    }
    feed.running = true;
    feed.dirty = false;
    this.#run(feed.endpointId, feed.input)
      .then(
        (value) => {
          feed.latest = { value };
          for (const listener of [...feed.listeners]) listener(value);
        },
        // The runner logged it; watchers keep the last good state.
        () => {},
      )
      .finally(() => {
        feed.running = false;
        if (feed.dirty && feed.listeners.size > 0) this.#refresh(feed);
      });
  }
}
