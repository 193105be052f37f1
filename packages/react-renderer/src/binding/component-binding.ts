/**
 * The reactive props of one rendered component instance: every dynamic property resolved in the
 * instance's data scope, ChildList templates expanded, checks evaluated — as one snapshot that
 * React reads with `useSyncExternalStore` (digest §5.3, §7.4, §8.4).
 */
import {
  type CheckResult,
  type ChildReference,
  type ChildTemplate,
  type ComponentRecord,
  type DataContext,
  evaluateChecks,
  expandChildList,
  isChildTemplate,
  isDataBinding,
  isEventAction,
  isFunctionCall,
  isRecord,
} from '@a2ui-ts/core';
import { sameValue } from './same-value.js';

/** What a component renders from: resolved properties and the result of its checks. */
export interface BindingSnapshot {
  /**
   * Every property except `id`, `component` and `checks`, resolved in the instance's scope:
   * `{path}` → the value, `{call}` → the result, ChildList templates → `ChildReference[]`,
   * actions kept as sent (they resolve at event time, §8.5), literals unchanged.
   */
  readonly props: Readonly<Record<string, unknown>>;
  /** The component's checks (§8.4); valid when it has none. */
  readonly validation: CheckResult;
}

/** Options of {@link ComponentBinding}. */
export interface ComponentBindingOptions {
  /** Most template instances one ChildList renders. @default 5000 (core's default) */
  maxTemplateItems?: number;
}

/** Properties that are never resolved as values. */
const UNRESOLVED_KEYS = new Set(['id', 'component', 'checks']);

/** Deepest literal nesting walked for bindings; deeper structures are passed through as sent. */
const MAX_RESOLVE_DEPTH = 16;

/** True for both Action forms (§6): they run on a user gesture, never at bind time. */
export function isAction(value: unknown): boolean {
  return isEventAction(value) || (isRecord(value) && isFunctionCall(value.functionCall));
}

/**
 * One component instance's reactive view of the data model. It subscribes to exactly the
 * absolute paths its last evaluation read, and only while React has subscribed to it, so an
 * unmounted component holds no subscription (the leak of a2ui-project/a2ui#963 cannot happen).
 *
 * Without subscribers, `getSnapshot` stays correct by comparing the value at every path read with
 * the value seen then (the data model is immutable, so identity is enough).
 */
export class ComponentBinding {
  readonly record: ComponentRecord;
  readonly context: DataContext;
  readonly #maxTemplateItems: number | undefined;
  #snapshot: BindingSnapshot;
  /** Absolute path → the value read there during the last evaluation. */
  #reads = new Map<string, unknown>();
  readonly #subscriptions = new Map<string, () => void>();
  readonly #listeners = new Set<() => void>();
  /**
   * Last expansion of each template, by template object. Item scopes depend only on the list
   * path and its length, so a change inside one item (which notifies the list path too) reuses
   * the previous array instead of building and comparing 1,000 references.
   */
  readonly #templates = new WeakMap<
    object,
    { path: string; length: number; children: readonly ChildReference[] }
  >();

  constructor(
    record: ComponentRecord,
    context: DataContext,
    options: ComponentBindingOptions = {},
  ) {
    this.record = record;
    this.context = context;
    this.#maxTemplateItems = options.maxTemplateItems;
    this.#snapshot = this.#evaluate(undefined);
  }

  /** Live data-model subscriptions held by this binding. */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** The current snapshot; identity changes only when what the component renders changes. */
  getSnapshot = (): BindingSnapshot => {
    if (this.#listeners.size === 0 && !this.#isFresh())
      this.#snapshot = this.#evaluate(this.#snapshot);
    return this.#snapshot;
  };

  /** `useSyncExternalStore` subscribe: data subscriptions live while at least one listener does. */
  subscribe = (listener: () => void): (() => void) => {
    if (this.#listeners.size === 0) {
      if (!this.#isFresh()) this.#snapshot = this.#evaluate(this.#snapshot);
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
    this.#snapshot = this.#evaluate(previous);
    this.#syncSubscriptions();
    if (this.#snapshot !== previous) for (const listener of [...this.#listeners]) listener();
  };

  #isFresh(): boolean {
    const model = this.context.host.dataModel;
    for (const [path, value] of this.#reads) {
      if (!Object.is(model.get(path), value)) return false;
    }
    return true;
  }

  #syncSubscriptions(): void {
    const model = this.context.host.dataModel;
    for (const [path, unsubscribe] of this.#subscriptions) {
      if (!this.#reads.has(path)) {
        unsubscribe();
        this.#subscriptions.delete(path);
      }
    }
    for (const path of this.#reads.keys()) {
      if (!this.#subscriptions.has(path))
        this.#subscriptions.set(path, model.subscribe(path, this.#onDataChange));
    }
  }

  #evaluate(previous: BindingSnapshot | undefined): BindingSnapshot {
    const dependencies = new Set<string>();
    const properties = this.record.properties as Record<string, unknown>;
    const props: Record<string, unknown> = {};
    let changed = previous === undefined;
    for (const key of Object.keys(properties)) {
      if (UNRESOLVED_KEYS.has(key)) continue;
      const value = this.#resolve(properties[key], dependencies, 0);
      // Keep the previous identity of equal values so memoised children see no change.
      if (previous && sameValue(previous.props[key], value)) {
        props[key] = previous.props[key];
      } else {
        props[key] = value;
        changed = true;
      }
    }
    const validation = evaluateChecks(properties.checks, this.context, { dependencies });
    const reads = new Map<string, unknown>();
    const model = this.context.host.dataModel;
    for (const path of dependencies) reads.set(path, model.get(path));
    this.#reads = reads;
    if (previous && !changed && sameValidation(previous.validation, validation)) return previous;
    return { props, validation };
  }

  #resolve(value: unknown, dependencies: Set<string>, depth: number): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (isChildTemplate(value)) return this.#expand(value, dependencies);
    if (isDataBinding(value) || isFunctionCall(value))
      return this.context.evaluate(value, { dependencies });
    if (isAction(value) || depth >= MAX_RESOLVE_DEPTH) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item = this.#resolve(value[index], dependencies, depth + 1);
        if (copy === undefined && !Object.is(item, value[index])) copy = value.slice(0, index);
        copy?.push(item);
      }
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const resolved = this.#resolve(item, dependencies, depth + 1);
      if (copy === undefined && !Object.is(resolved, item))
        copy = { ...(value as Record<string, unknown>) };
      if (copy !== undefined) copy[key] = resolved;
    }
    return copy ?? value;
  }

  #expand(template: ChildTemplate, dependencies: Set<string>): readonly ChildReference[] {
    let path: string;
    try {
      path = this.context.resolvePath(template.path);
    } catch {
      // expandChildList reports the malformed path.
      return expandChildList(template, this.context, {
        dependencies,
        maxTemplateItems: this.#maxTemplateItems,
      });
    }
    dependencies.add(path);
    const items = this.context.host.dataModel.get(path);
    const length = Array.isArray(items) ? items.length : -1;
    const cached = this.#templates.get(template);
    if (cached && cached.path === path && cached.length === length) return cached.children;
    const children = expandChildList(template, this.context, {
      dependencies,
      maxTemplateItems: this.#maxTemplateItems,
    });
    this.#templates.set(template, { path, length, children });
    return children;
  }
}

function sameValidation(a: CheckResult, b: CheckResult): boolean {
  return a.isValid === b.isValid && sameValue(a.messages, b.messages);
}
