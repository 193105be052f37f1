/**
 * The reactive props of one rendered component instance: every dynamic property resolved in the
 * instance's data scope, ChildList templates expanded, checks evaluated — as one snapshot a
 * renderer reads (React: `useSyncExternalStore`). Framework-free, like TanStack Query's observers
 * (digest §5.3, §7.4, §8.4).
 */
import {
  isChildTemplate,
  isDataBinding,
  isEventAction,
  isFunctionCall,
  isRecord,
} from '../protocol/guards.js';
import type { ChildTemplate } from '../protocol/messages.js';
import type { ComponentRecord } from '../state/component-store.js';
import { type CheckResult, checkResultOf, evaluateChecks } from './checks.js';
import { type ChildReference, expandChildList, templateKeys } from './child-list.js';
import type { DataContext } from './data-context.js';
import { DataObserver } from './data-observer.js';
import { sameValue } from './same-value.js';
import { findUnknownFunctions } from './unknown-functions.js';

/** What a component renders from: resolved properties and the result of its checks. */
export interface BindingSnapshot {
  /**
   * Every property except `id`, `component` and `checks`, resolved in the instance's scope:
   * `{path}` → the value, `{call}` → the result, ChildList templates → `ChildReference[]`,
   * actions kept as sent (they resolve at event time, §8.5), literals unchanged.
   */
  readonly props: Readonly<Record<string, unknown>>;
  /**
   * The component's checks (§8.4); valid when it has none. Also invalid, with a message of its
   * own first, while an action of the component calls a function its catalog does not define:
   * such an action cannot run, so a Button shows it disabled (inert), with the reason.
   */
  readonly validation: CheckResult;
}

/** Options of {@link ComponentBinding}. */
export interface ComponentBindingOptions {
  /** Most template instances one ChildList renders. @default 5000 (`DEFAULT_MAX_TEMPLATE_ITEMS`) */
  maxTemplateItems?: number;
  /**
   * The validation message of an action that calls an unknown function (shown to the user).
   * @default `This action is not available (unknown function "<name>").`
   */
  unavailableActionMessage?: (functionName: string) => string;
}

/** Properties that are never resolved as values. */
const UNRESOLVED_KEYS = new Set(['id', 'component', 'checks']);

/** Deepest literal nesting walked for bindings; deeper structures are passed through as sent. */
const MAX_RESOLVE_DEPTH = 16;

const defaultUnavailableMessage = (name: string): string =>
  `This action is not available (unknown function "${name}").`;

/**
 * True for both Action forms (§6): they run on a user gesture, never at bind time.
 *
 * @example
 * ```ts
 * isAction({ event: { name: 'submit' } }); // true
 * ```
 */
function isAction(value: unknown): boolean {
  return isEventAction(value) || (isRecord(value) && isFunctionCall(value.functionCall));
}

/**
 * Names of the functions the actions among `properties` call that `functions` does not define:
 * what makes a component's actions unable to run.
 *
 * @param properties - a component as sent (its `action`, or any other Action-valued property)
 * @param functions - the surface catalog's functions by name
 * @returns the unknown names, empty when every action can run
 */
function findUnavailableActionFunctions(
  properties: Readonly<Record<string, unknown>>,
  functions: ReadonlyMap<string, unknown>,
): string[] {
  const names: string[] = [];
  for (const key of Object.keys(properties)) {
    const value = properties[key];
    // Only a `functionCall` action cannot run; an event whose context calls an unknown function
    // is still sent, with null for that value.
    if (!isAction(value) || !isRecord(value) || !isFunctionCall(value.functionCall)) continue;
    for (const name of findUnknownFunctions(value.functionCall, functions))
      if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * One component instance's reactive view of the data model, on a {@link DataObserver}: it
 * subscribes to exactly the absolute paths its last evaluation read, and only while it is
 * subscribed to, so an unmounted component holds no subscription.
 *
 * @example
 * ```ts
 * const binding = new ComponentBinding(surface.components.get('name')!, client.getDataContext('main'));
 * const unsubscribe = binding.subscribe(() => render(binding.getSnapshot().props));
 * ```
 */
export class ComponentBinding {
  readonly record: ComponentRecord;
  readonly context: DataContext;
  readonly #maxTemplateItems: number | undefined;
  readonly #observer: DataObserver<BindingSnapshot>;
  /** Messages of actions that cannot run; fixed for the record (its functions never change). */
  readonly #unavailable: readonly string[];
  /**
   * Last expansion of each template, by template object. Item scopes depend only on the list
   * path and its length, so a change inside one item (which notifies the list path too) reuses
   * the previous array instead of building and comparing 1,000 references.
   */
  readonly #templates = new WeakMap<
    object,
    { path: string; keys: TemplateKeys; children: readonly ChildReference[] }
  >();

  constructor(
    record: ComponentRecord,
    context: DataContext,
    options: ComponentBindingOptions = {},
  ) {
    this.record = record;
    this.context = context;
    this.#maxTemplateItems = options.maxTemplateItems;
    const message = options.unavailableActionMessage ?? defaultUnavailableMessage;
    this.#unavailable = findUnavailableActionFunctions(
      record.properties,
      context.host.functions,
    ).map(message);
    this.#observer = new DataObserver(context.host.dataModel, (dependencies, previous) =>
      this.#evaluate(dependencies, previous),
    );
  }

  /** Live data-model subscriptions held by this binding. */
  get subscriptionCount(): number {
    return this.#observer.subscriptionCount;
  }

  /** The current snapshot; identity changes only when what the component renders changes. */
  getSnapshot = (): BindingSnapshot => this.#observer.getSnapshot();

  /** `useSyncExternalStore` subscribe: data subscriptions live while at least one listener does. */
  subscribe = (listener: () => void): (() => void) => this.#observer.subscribe(listener);

  #evaluate(dependencies: Set<string>, previous: BindingSnapshot | undefined): BindingSnapshot {
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
    let validation = evaluateChecks(properties.checks, this.context, { dependencies });
    if (this.#unavailable.length > 0)
      validation = checkResultOf([
        ...this.#unavailable.map((message) => ({ message, severity: 'error' as const })),
        ...validation.failures,
      ]);
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
    const keys = templateKeys(items, this.context.host.templatesIterateObjects === true);
    const cached = this.#templates.get(template);
    if (cached && cached.path === path && sameKeys(cached.keys, keys)) return cached.children;
    const children = expandChildList(template, this.context, {
      dependencies,
      maxTemplateItems: this.#maxTemplateItems,
    });
    this.#templates.set(template, { path, keys, children });
    return children;
  }
}

type TemplateKeys = ReturnType<typeof templateKeys>;

/** Same items to iterate: the same array length, or the same object keys in the same order. */
function sameKeys(a: TemplateKeys, b: TemplateKeys): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

function sameValidation(a: CheckResult, b: CheckResult): boolean {
  return a.isValid === b.isValid && sameValue(a.failures, b.failures);
}
