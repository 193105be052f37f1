/**
 * The data model of one surface (digest §7): immutable snapshots with structural sharing, RFC 6901
 * pointers, auto-vivification, and change notification to the exact path, its ancestors and its
 * subscribed descendants ("bubble & cascade", §7.3).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import { findJsonViolation } from '../validation/find-depth-violation.js';
import { formatPointer, isArrayIndex, parsePointer } from './json-pointer.js';
import { type Listener, Notifier } from './notifier.js';

/** Limits of a {@link DataModel}. */
export interface DataModelLimits {
  /**
   * Deepest nesting of the model, in levels of objects and arrays: a write's path segments plus
   * the nesting of its value may not exceed it (so a path has at most this many segments). A
   * model within it always passes `validateClientDataModel` with the same `maxDepth`.
   * @default 64
   */
  maxDepth?: number;
  /**
   * Largest array index a write may create or address; stops `/list/999999999` from allocating.
   * @default 100000
   */
  maxArrayIndex?: number;
}

/** Options of {@link DataModel}. */
export interface DataModelOptions extends DataModelLimits {
  /** Shared notifier, so one message batch notifies once across surfaces. @default a private one */
  notifier?: Notifier;
}

export const DEFAULT_DATA_MODEL_LIMITS: Required<DataModelLimits> = {
  maxDepth: 64,
  maxArrayIndex: 100_000,
};

/** A node of the subscription trie: cost of a notification follows the affected subscribers only. */
interface SubscriptionNode {
  readonly children: Map<string, SubscriptionNode>;
  readonly listeners: Map<Listener, number>;
  readonly parent: SubscriptionNode | undefined;
  readonly key: string;
}

const newNode = (parent: SubscriptionNode | undefined, key: string): SubscriptionNode => ({
  children: new Map(),
  listeners: new Map(),
  parent,
  key,
});

/**
 * A surface's data model.
 *
 * Values are never mutated in place: every write copies the containers along its path, so
 * `get(path)` keeps its identity until something at or below `path` changes — exactly what
 * React's `useSyncExternalStore` needs. Treat returned values as read-only.
 *
 * @example
 * ```ts
 * const model = new DataModel();
 * const unsubscribe = model.subscribe('/user', () => console.log(model.get('/user/name')));
 * model.set('/user/name', 'Ada'); // logs "Ada"
 * unsubscribe();
 * ```
 */
export class DataModel {
  readonly #limits: Required<DataModelLimits>;
  readonly #notifier: Notifier;
  #root: unknown = {};
  #version = 0;
  #subscriptions = newNode(undefined, '');
  #subscriptionCount = 0;
  #disposed = false;
  /**
   * Containers copied during the batch `#ownedEpoch`, which that batch may change in place. A
   * plain Set, cleared when the next batch writes: a WeakSet per batch costs the garbage
   * collector far more than holding the last batch's copies a little longer.
   */
  #owned: Set<object> | undefined;
  #ownedEpoch = -1;
  /** Set by a write that changed an owned container in place (its identity says nothing). */
  #changedInPlace = false;

  constructor(initial: unknown = {}, options: DataModelOptions = {}) {
    this.#limits = {
      maxDepth: options.maxDepth ?? DEFAULT_DATA_MODEL_LIMITS.maxDepth,
      maxArrayIndex: options.maxArrayIndex ?? DEFAULT_DATA_MODEL_LIMITS.maxArrayIndex,
    };
    this.#notifier = options.notifier ?? new Notifier();
    // The usual empty start needs no checks, and nobody can have subscribed to hear of it.
    if (isRecord(initial) && Object.keys(initial).length === 0) this.#root = initial;
    else if (initial !== undefined) this.set('/', initial);
  }

  /** Increments on every change; a cheap way to see that something changed. */
  get version(): number {
    return this.#version;
  }

  /** Number of live subscriptions (for leak tests and diagnostics). */
  get subscriptionCount(): number {
    return this.#subscriptionCount;
  }

  /** The whole model (immutable snapshot). */
  getSnapshot(): unknown {
    return this.#root;
  }

  /**
   * Reads the value at an absolute pointer; missing paths give `undefined` (§7.2).
   * @throws A2uiError `INVALID_PATH` for a malformed pointer.
   */
  get(path: string): unknown {
    return this.getAt(parsePointer(path));
  }

  /** {@link get} with already-parsed segments. */
  getAt(segments: readonly string[]): unknown {
    let current: unknown = this.#root;
    for (const segment of segments) {
      if (Array.isArray(current)) {
        if (!isArrayIndex(segment)) return undefined;
        current = current[Number(segment)];
      } else if (isRecord(current)) {
        current = Object.hasOwn(current, segment) ? current[segment] : undefined;
      } else {
        return undefined;
      }
    }
    return current;
  }

  /**
   * Upserts `value` at `path`, creating missing containers (an array where the next segment is an
   * index, else an object). `value === undefined` removes the key (§7.1); on an array the element
   * becomes `undefined` and the length is kept. `path` `"/"` replaces the whole model; replacing it
   * with `undefined` resets it to `{}`.
   *
   * @throws A2uiError `INVALID_PATH` (bad pointer), `DATA_ERROR` (through a primitive, non-index
   *   segment on an array, a non-finite number in `value`), `LIMIT_EXCEEDED` (depth or array index
   *   caps). The model is unchanged.
   */
  set(path: string, value: unknown): void {
    this.setAt(parsePointer(path), value);
  }

  /** {@link set} with already-parsed segments. */
  setAt(segments: readonly string[], value: unknown): void {
    this.#assertUsable();
    const { maxDepth } = this.#limits;
    if (segments.length > maxDepth) {
      throw new A2uiError(
        'LIMIT_EXCEEDED',
        `Data model path has ${segments.length} segments; the depth limit is ${maxDepth} (maxDepth).`,
        { path: formatPointer(segments.slice(0, maxDepth + 1)) },
      );
    }
    if (value !== undefined) {
      const violation = findJsonViolation(value, maxDepth - segments.length);
      if (violation) {
        const path = (segments.length === 0 ? '' : formatPointer(segments)) + violation.path;
        if (violation.keyword !== 'maxDepth') {
          throw new A2uiError('DATA_ERROR', violation.message, { path });
        }
        throw new A2uiError(
          'LIMIT_EXCEEDED',
          `Data model depth exceeds the limit of ${maxDepth} (path segments plus the value's nesting).`,
          { path },
        );
      }
    }
    if (segments.length === 0) {
      this.#commit(value === undefined ? {} : value, segments);
      return;
    }
    if (value === undefined && this.getAt(segments) === undefined) return;
    // A null root (`updateDataModel` of `/` with `null`) is vivified like any null intermediate.
    const root = this.#root ?? (isArrayIndex(segments[0]!) ? [] : {});
    this.#changedInPlace = false;
    const next = this.#write(root, segments, value);
    if (next !== this.#root || this.#changedInPlace) this.#commit(next, segments);
  }

  /** Removes the value at `path` (same as `set(path, undefined)`). */
  delete(path: string): void {
    this.set(path, undefined);
  }

  /**
   * Calls `listener` after any change at `path`, above it (an ancestor replaced) or below it.
   * Subscribing the same listener twice to one path counts twice; each returned function removes
   * one subscription and is idempotent.
   *
   * @param path - absolute pointer
   * @returns unsubscribe
   */
  subscribe(path: string, listener: Listener): () => void {
    return this.subscribeAt(parsePointer(path), listener);
  }

  /** {@link subscribe} with already-parsed segments. */
  subscribeAt(segments: readonly string[], listener: Listener): () => void {
    if (this.#disposed) return () => {};
    let node = this.#subscriptions;
    for (const segment of segments) {
      let child = node.children.get(segment);
      if (!child) {
        child = newNode(node, segment);
        node.children.set(segment, child);
      }
      node = child;
    }
    node.listeners.set(listener, (node.listeners.get(listener) ?? 0) + 1);
    this.#subscriptionCount++;
    let active = true;
    const target = node;
    return () => {
      if (!active) return;
      active = false;
      this.#unsubscribe(target, listener);
    };
  }

  /** Runs `fn` with notifications deferred to its end. */
  batch<T>(fn: () => T): T {
    return this.#notifier.batch(fn);
  }

  /** Drops every subscription and refuses further writes (§2.4 `deleteSurface`). */
  /**
   * Tells every subscriber the model changed, though no value did: what they computed with
   * something that was still loading (the `regex` engine) is to be computed again.
   */
  touch(): void {
    this.#notifier.notifyAll(this.#affectedListeners([]));
  }

  dispose(): void {
    this.#disposed = true;
    this.#owned = undefined;
    this.#subscriptions = newNode(undefined, '');
    this.#subscriptionCount = 0;
  }

  #assertUsable(): void {
    if (this.#disposed)
      throw new A2uiError('DATA_ERROR', 'The data model was disposed with its surface.');
  }

  #unsubscribe(node: SubscriptionNode, listener: Listener): void {
    if (this.#disposed) return;
    const count = node.listeners.get(listener);
    if (count === undefined) return;
    if (count > 1) node.listeners.set(listener, count - 1);
    else node.listeners.delete(listener);
    this.#subscriptionCount--;
    // Prune empty branches so notification walks stay proportional to live subscribers.
    let current: SubscriptionNode | undefined = node;
    while (current?.parent && current.listeners.size === 0 && current.children.size === 0) {
      current.parent.children.delete(current.key);
      current = current.parent;
    }
  }

  /**
   * The new root after writing `value` at `segments` below `root`, copying every container on the
   * path that changes. Two loops rather than recursion, so no path length can exhaust the stack:
   * down to find (or create) the containers, up to write the new children into copies of them.
   */
  #write(root: unknown, segments: readonly string[], value: unknown): unknown {
    const last = segments.length - 1;
    const containers: Array<unknown[] | Record<string, unknown>> = [];
    /** Index of the first container created by this write (it needs no copy). */
    let firstCreated = segments.length;
    let container: unknown = root;
    for (let index = 0; ; index++) {
      const segment = segments[index]!;
      if (Array.isArray(container)) {
        if (!isArrayIndex(segment)) {
          throw new A2uiError(
            'DATA_ERROR',
            `Segment "${segment}" addresses an array and must be an index.`,
            { path: formatPointer(segments.slice(0, index + 1)) },
          );
        }
        if (Number(segment) > this.#limits.maxArrayIndex) {
          throw new A2uiError(
            'LIMIT_EXCEEDED',
            `Array index ${segment} exceeds the limit of ${this.#limits.maxArrayIndex}.`,
            { path: formatPointer(segments.slice(0, index + 1)) },
          );
        }
      } else if (!isRecord(container)) {
        throw new A2uiError(
          'DATA_ERROR',
          `Cannot write through a ${container === null ? 'null' : typeof container} value.`,
          { path: formatPointer(segments.slice(0, index)) },
        );
      }
      containers.push(container);
      if (index === last) break;
      const current = childOf(container, segment);
      if (current === undefined || current === null) {
        // Vivify: an array where the next segment is an index, else an object.
        container = isArrayIndex(segments[index + 1]!) ? [] : {};
        if (firstCreated > index) firstCreated = index + 1;
      } else if (typeof current !== 'object') {
        throw new A2uiError(
          'DATA_ERROR',
          `Cannot create "${segments[index + 1]}" inside a ${typeof current} value.`,
          { path: formatPointer(segments.slice(0, index + 1)) },
        );
      } else {
        container = current;
      }
    }
    let next: unknown = value;
    for (let index = last; index >= 0; index--) {
      const target = containers[index]!;
      const segment = segments[index]!;
      const created = index >= firstCreated;
      if (Array.isArray(target)) {
        const position = Number(segment);
        if (Object.is(target[position], next) && (position < target.length || next !== undefined)) {
          next = target;
          continue;
        }
        const copy = created ? target : this.#writable(target);
        if (index === last && value === undefined) {
          if (position < copy.length) copy[position] = undefined;
        } else {
          copy[position] = next;
        }
        next = copy;
        continue;
      }
      const record = target as Record<string, unknown>;
      const has = Object.hasOwn(record, segment);
      if (index === last && value === undefined) {
        if (!has) {
          next = record;
          continue;
        }
        const copy = this.#writable(record);
        delete copy[segment];
        next = copy;
        continue;
      }
      if (has && Object.is(record[segment], next)) {
        next = record;
        continue;
      }
      const copy = created ? record : this.#writable(record);
      // Segments are never "__proto__" (parsePointer refuses it), so plain assignment is safe.
      copy[segment] = next;
      next = copy;
    }
    return next;
  }

  /**
   * A container this write may change: a shallow copy, so earlier snapshots stay intact — except
   * inside a batch, where a copy made earlier in the same batch is changed in place. Nobody has
   * been notified of it yet, and copying it again would make a batch of n writes to one object
   * cost O(n²).
   */
  #writable<T extends unknown[] | Record<string, unknown>>(container: T): T {
    const batching = this.#notifier.batching;
    if (batching) {
      if (this.#ownedEpoch !== this.#notifier.epoch) {
        if (this.#owned) this.#owned.clear();
        else this.#owned = new Set();
        this.#ownedEpoch = this.#notifier.epoch;
      }
      if (this.#owned!.has(container)) {
        this.#changedInPlace = true;
        return container;
      }
    }
    const copy = (Array.isArray(container) ? container.slice() : { ...container }) as T;
    if (batching) this.#owned!.add(copy);
    return copy;
  }

  #commit(root: unknown, segments: readonly string[]): void {
    this.#root = root;
    this.#version++;
    this.#notifier.notifyAll(this.#affectedListeners(segments));
  }

  #affectedListeners(segments: readonly string[]): Listener[] {
    const affected: Listener[] = [];
    let node: SubscriptionNode | undefined = this.#subscriptions;
    // Ancestors (root included) and the exact path.
    for (let i = 0; node; i++) {
      for (const listener of node.listeners.keys()) affected.push(listener);
      if (i === segments.length) break;
      node = node.children.get(segments[i]!);
    }
    if (!node) return affected;
    // Subscribed descendants of the changed path.
    const stack = [...node.children.values()];
    while (stack.length > 0) {
      const current = stack.pop()!;
      for (const listener of current.listeners.keys()) affected.push(listener);
      for (const child of current.children.values()) stack.push(child);
    }
    return affected;
  }
}

/** The child `segment` of a container (own properties only), or `undefined`. */
function childOf(container: unknown[] | Record<string, unknown>, segment: string): unknown {
  if (Array.isArray(container)) return container[Number(segment)];
  return Object.hasOwn(container, segment) ? container[segment] : undefined;
}
