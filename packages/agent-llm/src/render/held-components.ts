/**
 * Components the model wrote that are valid but cannot be shown yet, because they reference a
 * component the client does not have (not written yet, or refused as invalid), or one that would
 * close a cycle. Each is held back until its references resolve. Meanwhile, where the catalog
 * accepts it, the client gets a version without the unresolved entries of its child lists, so a
 * card grows as its pieces validate and never shows a placeholder for a piece that may never come
 * — and a self-correction only ever adds the corrected pieces, it never rebuilds the card.
 */
import { type CatalogValidator, type ComponentInstance, isRecord, jsonEquals } from '@a2ui-ts/core';
import {
  type ReferenceIndex,
  type ReferenceSlot,
  referencedIds,
} from '../catalog/component-references.js';

/** What the client has of one surface: its component `id`, or `undefined`. */
export type ClientView = (id: string) => ComponentInstance | undefined;

/** Why a held component is not shown in full. */
export interface HeldReason {
  readonly id: string;
  readonly type: string;
  /** Referenced ids that are neither on the client nor held (never sent, or refused). */
  readonly missing: readonly string[];
  /** Referenced ids that contain this component (a cycle), on the client or held. */
  readonly cyclic: readonly string[];
}

/** The components to send for a surface now, applied to the held set by `commit`. */
export interface Release {
  readonly components: ComponentInstance[];
  /** Records that `components` reached the client (call only when they did). */
  commit(): void;
}

/** Returned by the shortening walk when an unresolved reference cannot be left out. */
const HOLD = Symbol('hold');

/** The held components of every surface, and what may be released of them. */
export class HeldComponents {
  readonly #references: ReferenceIndex;
  readonly #validator: CatalogValidator;
  /** By surface, then id: the model's latest version of each held component. */
  readonly #held = new Map<string, Map<string, ComponentInstance>>();

  constructor(references: ReferenceIndex, validator: CatalogValidator) {
    this.#references = references;
    this.#validator = validator;
  }

  /** Surfaces with held components. */
  get surfaceIds(): string[] {
    return [...this.#held.keys()];
  }

  /** Whether component `id` of `surfaceId` is held. */
  has(surfaceId: string, id: string): boolean {
    return this.#held.get(surfaceId)?.has(id) ?? false;
  }

  /** Forgets what is held for `surfaceId`, or for every surface. */
  clear(surfaceId?: string): void {
    if (surfaceId === undefined) this.#held.clear();
    else this.#held.delete(surfaceId);
  }

  /**
   * Takes `components` (valid, of `surfaceId`; each replaces a held one with its id) and finds
   * what the client may get now: each of them and each held component, in full where all its
   * references resolve, else shortened where that is valid and new to the client; the rest stays
   * held. Nothing changes until `commit`.
   */
  release(
    surfaceId: string,
    components: readonly ComponentInstance[],
    client: ClientView,
  ): Release {
    const held = new Map(this.#held.get(surfaceId));
    for (const component of components) held.set(component.id, component);
    const batch = new Map<string, ComponentInstance>();
    const childrenOf = (id: string) => {
      const component = batch.get(id) ?? client(id);
      return component && this.#referencesOf(component);
    };
    // Held only shrinks from here: who references whom is read once.
    const parentsOf = new Map<string, string[]>();
    for (const [parentId, parent] of held) {
      for (const id of this.#referencesOf(parent)) {
        if (id !== parentId) parentsOf.set(id, [...(parentsOf.get(id) ?? []), parentId]);
      }
    }
    const queue = components.map((component) => component.id);
    // Each step sends a new version of a held component; sending one only re-examines those
    // that reference it. The budget bounds pathological reference graphs.
    let budget = 8 * (held.size + components.length) + 64;
    while (queue.length > 0 && budget-- > 0) {
      const id = queue.shift()!;
      const component = held.get(id);
      if (!component) continue;
      const version = this.#showable(component, childrenOf);
      if (version === undefined) continue;
      const full = version === component;
      if (full) held.delete(id);
      const previous = batch.get(id) ?? client(id);
      // What the client shows already is not sent again (a model correcting itself often
      // writes everything again).
      if (previous && jsonEquals(version, previous)) continue;
      batch.set(id, version);
      queue.push(...(parentsOf.get(id) ?? []));
    }
    return {
      components: [...batch.values()],
      commit: () => {
        if (held.size === 0) this.#held.delete(surfaceId);
        else this.#held.set(surfaceId, held);
      },
    };
  }

  /**
   * Why each held component of `surfaceId` is not shown in full: the root causes only (a
   * reference to a component that is itself held is explained at that component).
   */
  reasons(surfaceId: string, client: ClientView): HeldReason[] {
    const held = this.#held.get(surfaceId) ?? new Map<string, ComponentInstance>();
    const childrenOf = (id: string) => {
      const component = held.get(id) ?? client(id);
      return component && this.#referencesOf(component);
    };
    return [...held.values()].map((component) => {
      const reaches = reachesFrom(component.id, childrenOf);
      const missing: string[] = [];
      const cyclic: string[] = [];
      for (const id of new Set(this.#referencesOf(component))) {
        if (childrenOf(id) === undefined) missing.push(id);
        else if (reaches(id)) cyclic.push(id);
      }
      return { id: component.id, type: component.component, missing, cyclic };
    });
  }

  #referencesOf(component: ComponentInstance): string[] {
    return referencedIds(component, this.#slotsOf(component));
  }

  #slotsOf(component: ComponentInstance): readonly ReferenceSlot[] {
    return this.#references.get(component.component) ?? [];
  }

  /**
   * `component` itself when every reference resolves; a copy whose child lists leave out the
   * unresolved ids when only list entries are unresolved, the copy is valid and no list it
   * shortens ends up empty; else `undefined`.
   */
  #showable(
    component: ComponentInstance,
    childrenOf: (id: string) => readonly string[] | undefined,
  ): ComponentInstance | undefined {
    const slots = this.#slotsOf(component);
    // What the client has (and what is about to be sent) never references a component it does
    // not have: while this one is not there, nothing there can contain it.
    const reaches =
      childrenOf(component.id) === undefined ? () => false : reachesFrom(component.id, childrenOf);
    const resolved = (id: string) => childrenOf(id) !== undefined && !reaches(id);
    if (referencedIds(component, slots).every(resolved)) return component;
    const copy = structuredClone(component) as Record<string, unknown>;
    for (const slot of slots) {
      const kept = shortenSlot(copy, slot, 0, resolved);
      if (kept === HOLD) return undefined;
    }
    const check = this.#validator.checkComponent(copy);
    return check.status === 'valid' ? (copy as ComponentInstance) : undefined;
  }
}

/**
 * Shortens the values of `slot` under `holder` (in place), keeping the resolved ids of child
 * lists; `HOLD` when an unresolved id cannot be left out (a single reference, a template, a list
 * that would end up empty).
 */
function shortenSlot(
  holder: unknown,
  slot: ReferenceSlot,
  at: number,
  resolved: (id: string) => boolean,
): typeof HOLD | undefined {
  const segment = slot.path[at]!;
  if (segment === '*') {
    if (!Array.isArray(holder)) return undefined;
    for (const item of holder) if (shortenSlot(item, slot, at + 1, resolved) === HOLD) return HOLD;
    return undefined;
  }
  if (!isRecord(holder) || !Object.hasOwn(holder, segment)) return undefined;
  if (at < slot.path.length - 1) return shortenSlot(holder[segment], slot, at + 1, resolved);
  const value = holder[segment];
  if (typeof value === 'string') return resolved(value) ? undefined : HOLD;
  if (slot.kind === 'list' && Array.isArray(value)) {
    const kept = value.filter((id) => typeof id !== 'string' || resolved(id));
    if (kept.length === 0 && value.length > 0) return HOLD;
    holder[segment] = kept;
    return undefined;
  }
  // A template (`{componentId, path}`) names one component for every item.
  if (isRecord(value) && typeof value.componentId === 'string' && !resolved(value.componentId))
    return HOLD;
  return undefined;
}

/**
 * Whether a component reaches `target` through references (is, or contains, it), memoised for
 * one question; iterative, since a hostile chain of components must not overflow the stack.
 */
function reachesFrom(
  target: string,
  childrenOf: (id: string) => readonly string[] | undefined,
): (id: string) => boolean {
  const known = new Map<string, boolean>();
  return (start) => {
    if (start === target) return true;
    const cached = known.get(start);
    if (cached !== undefined) return cached;
    const stack: Array<{ id: string; children: readonly string[]; next: number }> = [
      { id: start, children: childrenOf(start) ?? [], next: 0 },
    ];
    const open = new Set([start]);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const child = frame.children[frame.next++];
      if (child === undefined) {
        known.set(frame.id, false);
        open.delete(frame.id);
        stack.pop();
        continue;
      }
      if (child === target || known.get(child) === true) {
        // Every component on the path contains the target.
        for (const onPath of stack) known.set(onPath.id, true);
        return true;
      }
      if (known.has(child) || open.has(child)) continue;
      open.add(child);
      stack.push({ id: child, children: childrenOf(child) ?? [], next: 0 });
    }
    return false;
  };
}
