/**
 * The one implementation of watching a data model: a value computed from it, re-computed when a
 * path the last computation read changes (digest §7.3). `DataContext.watch` and
 * `ComponentBinding` are both built on it.
 */
import type { DataModel } from '../state/data-model.js';
import { loadedModuleCount } from '../validation/lazy-module.js';

/**
 * Computes the observed value. Add the absolute pointer of every path read to `dependencies`
 * (`DataContext.evaluate` does, given them). `previous` is the last value (absent the first
 * time); return it unchanged to say nothing changed, so listeners are not called.
 */
export type ObservedComputation<T> = (dependencies: Set<string>, previous: T | undefined) => T;

/**
 * A value computed from a data model, shaped for `useSyncExternalStore` (`subscribe` and
 * `getSnapshot` are bound). It subscribes to exactly the paths its last computation read, and
 * only while it has listeners, so an observer nobody listens to holds no subscription (the leak
 * of a2ui-project/a2ui#963 cannot happen). Without listeners, `getSnapshot` stays correct by
 * comparing the value at every path read with the value seen then (the model is immutable, so
 * identity is enough).
 *
 * @example
 * ```ts
 * const name = new DataObserver(model, (dependencies) => context.evaluate({ path: '/name' }, { dependencies }));
 * const unsubscribe = name.subscribe(() => console.log(name.getSnapshot()));
 * ```
 */
export class DataObserver<T> {
  readonly #model: DataModel;
  readonly #compute: ObservedComputation<T>;
  #snapshot: T;
  /** Absolute path → the value read there during the last computation. */
  #reads = new Map<string, unknown>();
  /** `loadedModuleCount()` at the last computation: a load since may change its value. */
  #modules = 0;
  readonly #subscriptions = new Map<string, () => void>();
  readonly #listeners = new Set<() => void>();

  constructor(model: DataModel, compute: ObservedComputation<T>) {
    this.#model = model;
    this.#compute = compute;
    this.#snapshot = this.#run(undefined);
  }

  /** Live data-model subscriptions held by this observer. */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** The current value; its identity changes only when a computation returned a new one. */
  getSnapshot = (): T => {
    if (this.#listeners.size === 0 && !this.#isFresh()) this.#snapshot = this.#run(this.#snapshot);
    return this.#snapshot;
  };

  /**
   * Calls `listener` after a change of the value. Data-model subscriptions live while at least
   * one listener does; each returned function removes one listener and is idempotent.
   */
  subscribe = (listener: () => void): (() => void) => {
    if (this.#listeners.size === 0) {
      if (!this.#isFresh()) this.#snapshot = this.#run(this.#snapshot);
      this.#syncSubscriptions();
    }
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      if (!this.#listeners.delete(entry) || this.#listeners.size > 0) return;
      for (const unsubscribe of this.#subscriptions.values()) unsubscribe();
      this.#subscriptions.clear();
    };
  };

  #onDataChange = (): void => {
    if (this.#listeners.size === 0) return;
    const previous = this.#snapshot;
    this.#snapshot = this.#run(previous);
    this.#syncSubscriptions();
    if (!Object.is(this.#snapshot, previous))
      for (const listener of [...this.#listeners]) listener();
  };

  #run(previous: T | undefined): T {
    const dependencies = new Set<string>();
    this.#modules = loadedModuleCount();
    const value = this.#compute(dependencies, previous);
    const reads = new Map<string, unknown>();
    for (const path of dependencies) reads.set(path, this.#model.get(path));
    this.#reads = reads;
    return value;
  }

  #isFresh(): boolean {
    if (this.#modules !== loadedModuleCount()) return false;
    for (const [path, value] of this.#reads) {
      if (!Object.is(this.#model.get(path), value)) return false;
    }
    return true;
  }

  #syncSubscriptions(): void {
    for (const [path, unsubscribe] of this.#subscriptions) {
      if (!this.#reads.has(path)) {
        unsubscribe();
        this.#subscriptions.delete(path);
      }
    }
    for (const path of this.#reads.keys()) {
      if (!this.#subscriptions.has(path))
        this.#subscriptions.set(path, this.#model.subscribe(path, this.#onDataChange));
    }
  }
}
