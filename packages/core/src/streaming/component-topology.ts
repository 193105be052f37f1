/**
 * The components reachable from a surface's root, with the reference cycles that would make a
 * renderer recurse forever reported as errors (spec: the component tree is a tree).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { componentReferences, type ReferenceFields } from './component-references.js';
import type { JsonObject } from './stream-types.js';

type ReferencesOf = (component: JsonObject) => readonly { id: string; field: string }[];

function selfReferenceError(id: string, field: string): A2uiError {
  return new A2uiError(
    'VALIDATION_FAILED',
    `Self-reference detected: Component '${id}' references itself in field '${field}'`,
    { data: { reason: 'self-reference', componentId: id } },
  );
}

function cycleError(id: string): A2uiError {
  return new A2uiError(
    'VALIDATION_FAILED',
    `Circular reference detected involving component '${id}'`,
    {
      data: { reason: 'cycle', componentId: id },
    },
  );
}

/**
 * Ids reachable from `rootId` through component references (referenced ids that have not
 * arrived are included; the caller intersects with what it has).
 *
 * @param referencesOf - The references of a component (a caller that asks again and again
 *   passes a cached reading of {@link componentReferences}).
 *
 * @throws A2uiError `VALIDATION_FAILED` with `data.reason` `'self-reference'` when any component
 *   references itself, or `'cycle'` when a cycle is reachable from the root.
 */
export function reachableComponentIds(
  rootId: string,
  components: Iterable<JsonObject>,
  fields: ReferenceFields,
  referencesOf: ReferencesOf = (component) => componentReferences(component, fields),
): Set<string> {
  const edges = new Map<string, string[]>();
  for (const component of components) {
    const id = component.id;
    if (typeof id !== 'string') continue;
    const targets = edges.get(id) ?? [];
    edges.set(id, targets);
    for (const reference of referencesOf(component)) {
      if (reference.id === id) throw selfReferenceError(id, reference.field);
      targets.push(reference.id);
    }
  }
  const visited = new Set<string>();
  if (!edges.has(rootId)) return visited;
  // Iterative depth-first search: a hostile chain must not overflow the call stack.
  const onPath = new Set<string>();
  const stack: { id: string; next: number }[] = [{ id: rootId, next: 0 }];
  visited.add(rootId);
  onPath.add(rootId);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { id: string; next: number };
    const target = edges.get(frame.id)?.[frame.next];
    if (target === undefined) {
      onPath.delete(frame.id);
      stack.pop();
      continue;
    }
    frame.next++;
    if (onPath.has(target)) throw cycleError(target);
    if (visited.has(target)) continue;
    visited.add(target);
    onPath.add(target);
    stack.push({ id: target, next: 0 });
  }
  return visited;
}

/**
 * {@link reachableComponentIds} kept up to date as components arrive one by one: a component
 * that only adds references extends the set from its new targets (checking for a cycle through
 * them), so a push costs what changed, not the whole tree; anything else (a reference dropped, a
 * new root) reads the whole tree again.
 */
export class ReachableComponents {
  /** Reachable ids that have arrived, sorted. */
  readonly available: string[] = [];
  #reachable = new Set<string>();
  #edges = new Map<string, readonly string[]>();
  #rootId: string | undefined;

  constructor(
    readonly fields: ReferenceFields,
    readonly referencesOf: ReferencesOf,
  ) {}

  /**
   * Brings the set up to date with `received` after the components `changed` arrived or changed.
   *
   * @throws A2uiError `VALIDATION_FAILED` (`'self-reference'`, `'cycle'`), as
   *   {@link reachableComponentIds}.
   */
  update(
    rootId: string,
    received: ReadonlyMap<string, JsonObject>,
    changed: Iterable<string>,
  ): void {
    if (rootId !== this.#rootId) {
      this.#rebuild(rootId, received);
      return;
    }
    for (const id of changed) {
      const component = received.get(id);
      if (component === undefined) continue;
      const references = this.referencesOf(component);
      const self = references.find((reference) => reference.id === id);
      if (self !== undefined) throw selfReferenceError(id, self.field);
      const targets = references.map((reference) => reference.id);
      const before = new Set(this.#edges.get(id));
      const after = new Set(targets);
      if ([...before].some((target) => !after.has(target))) {
        this.#rebuild(rootId, received);
        return;
      }
      this.#edges.set(id, targets);
      if (!this.#reachable.has(id)) continue;
      this.#makeAvailable(id, received);
      for (const target of after) if (!before.has(target)) this.#extend(id, target, received);
    }
  }

  #rebuild(rootId: string, received: ReadonlyMap<string, JsonObject>): void {
    this.#rootId = rootId;
    this.#reachable = reachableComponentIds(
      rootId,
      received.values(),
      this.fields,
      this.referencesOf,
    );
    // The root counts before it arrives: its references are read from it when it does.
    this.#reachable.add(rootId);
    this.#edges = new Map();
    for (const [id, component] of received)
      this.#edges.set(
        id,
        this.referencesOf(component).map((reference) => reference.id),
      );
    this.available.length = 0;
    for (const id of this.#reachable) if (received.has(id)) this.available.push(id);
    this.available.sort();
  }

  /** After `from → to` was added with `from` reachable: a cycle through it, or more reachable. */
  #extend(from: string, to: string, received: ReadonlyMap<string, JsonObject>): void {
    // Depth-first from `to`, iteratively: reaching `from` again, or a node on the path, is a cycle.
    const onPath = new Set<string>([from, to]);
    const stack: { id: string; next: number }[] = [{ id: to, next: 0 }];
    const seen = new Set<string>([to]);
    this.#reachable.add(to);
    this.#makeAvailable(to, received);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { id: string; next: number };
      const target = this.#edges.get(frame.id)?.[frame.next];
      if (target === undefined) {
        onPath.delete(frame.id);
        stack.pop();
        continue;
      }
      frame.next++;
      if (onPath.has(target)) {
        throw cycleError(target);
      }
      if (seen.has(target)) continue;
      seen.add(target);
      this.#reachable.add(target);
      this.#makeAvailable(target, received);
      onPath.add(target);
      stack.push({ id: target, next: 0 });
    }
  }

  #makeAvailable(id: string, received: ReadonlyMap<string, JsonObject>): void {
    if (!received.has(id)) return;
    const list = this.available;
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((list[middle] as string) < id) low = middle + 1;
      else high = middle;
    }
    if (list[low] !== id) list.splice(low, 0, id);
  }
}
