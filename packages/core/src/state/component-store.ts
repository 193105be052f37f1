/**
 * The flat component map of one surface (spec §5.2) with per-id subscriptions.
 */
import type { ComponentInstance } from '../protocol/messages.js';
import { type Listener, Notifier } from './notifier.js';

/**
 * One stored component. A record is replaced, never mutated, on every update. `generation`
 * changes only when the component is recreated (its type changed, §2.2), so a renderer can reset
 * local state by keying on it.
 */
export interface ComponentRecord {
  readonly id: string;
  readonly type: string;
  readonly properties: Readonly<ComponentInstance>;
  readonly generation: number;
}

/** Per-surface component map. */
export class ComponentStore {
  readonly #notifier: Notifier;
  readonly #records = new Map<string, ComponentRecord>();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #storeListeners = new Set<Listener>();
  #generation = 0;
  #disposed = false;
  #subscriptionCount = 0;

  constructor(options: { notifier?: Notifier } = {}) {
    this.#notifier = options.notifier ?? new Notifier();
  }

  /** Number of stored components. */
  get size(): number {
    return this.#records.size;
  }

  /** Number of live subscriptions (for leak tests and diagnostics). */
  get subscriptionCount(): number {
    return this.#subscriptionCount + this.#storeListeners.size;
  }

  get(id: string): ComponentRecord | undefined {
    return this.#records.get(id);
  }

  has(id: string): boolean {
    return this.#records.has(id);
  }

  /** Every record, in insertion order. */
  values(): IterableIterator<ComponentRecord> {
    return this.#records.values();
  }

  /**
   * Upserts one component: an existing id has its whole property set replaced; a different
   * `component` type recreates it with a new `generation` (§2.2).
   */
  upsert(component: ComponentInstance): ComponentRecord {
    const previous = this.#records.get(component.id);
    const record: ComponentRecord = {
      id: component.id,
      type: component.component,
      properties: component,
      generation:
        previous && previous.type === component.component
          ? previous.generation
          : ++this.#generation,
    };
    this.#records.set(component.id, record);
    const listeners = this.#listeners.get(component.id);
    if (listeners) this.#notifier.notifyAll(listeners);
    this.#notifier.notifyAll(this.#storeListeners);
    return record;
  }

  /** Calls `listener` when the component `id` is created, updated or recreated. */
  subscribe(id: string, listener: Listener): () => void {
    // A disposed store never notifies again; counting the subscription would only look like a leak.
    if (this.#disposed) return () => {};
    let listeners = this.#listeners.get(id);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(id, listeners);
    }
    // A Set cannot count duplicates; wrap so each subscription is distinct.
    const entry: Listener = () => listener();
    listeners.add(entry);
    this.#subscriptionCount++;
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = this.#listeners.get(id);
      if (!current?.delete(entry)) return;
      this.#subscriptionCount--;
      if (current.size === 0) this.#listeners.delete(id);
    };
  }

  /** Calls `listener` after any component change. */
  subscribeAll(listener: Listener): () => void {
    if (this.#disposed) return () => {};
    const entry: Listener = () => listener();
    this.#storeListeners.add(entry);
    return () => {
      this.#storeListeners.delete(entry);
    };
  }

  /** Removes every component and subscription (§2.4). */
  dispose(): void {
    this.#disposed = true;
    this.#records.clear();
    this.#listeners.clear();
    this.#storeListeners.clear();
    this.#subscriptionCount = 0;
  }
}
