/**
 * The client codec: AG-UI events of any agent — ours or one we did not write — as A2UI v0.9
 * messages for `A2uiClient`. It reads `state.surfaces` (the `STATE_*` events of `state` mode),
 * `a2ui-surface` activity messages (`ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA`, as CopilotKit and
 * `@ag-ui/a2ui-middleware` emit them) and tool results carrying `{a2ui_operations}`.
 *
 * Snapshots are reconciled with what the client already holds: a `createSurface` for a surface
 * that exists with the same settings is dropped (the rest upserts), one with other settings
 * recreates it.
 */
import {
  A2UI_VERSION,
  formatPointer,
  isArrayIndex,
  isRecord,
  parsePointer,
  type ServerMessage,
} from '@a2ui-ts/core';
import fastJsonPatch from 'fast-json-patch';
import {
  A2UI_ACTIVITY_TYPE,
  A2UI_OPERATIONS_KEY,
  STATE_SEQ_KEY,
  STATE_SURFACES_KEY,
} from '../protocol/constants.js';
import { jsonEqual, type SurfaceState, surfaceMessages } from '../protocol/surface-state.js';

const { applyPatch } = fastJsonPatch;

const SEQ_POINTER = `/${STATE_SEQ_KEY}`;

interface SurfaceHeader {
  catalogId: unknown;
  theme: unknown;
  sendDataModel: boolean;
}

/** What changed in `state.surfaces`, as a delta's pointers say. */
interface TouchedState {
  all: boolean;
  surfaces: Set<string>;
  components: Map<string, Set<string>>;
  data: Map<string, Set<string>>;
}

/** Turns AG-UI events into A2UI messages. One per transport. */
export class A2uiEventReader {
  /** Surfaces the client was given, with the settings of their `createSurface`. */
  readonly #surfaces = new Map<string, SurfaceHeader>();
  /** Content of each A2UI activity message, as this reader last applied it. */
  readonly #activities = new Map<string, unknown[]>();
  #touched: TouchedState | undefined;
  #before: unknown;

  /** Forgets everything (the session was reset). */
  clear(): void {
    this.#surfaces.clear();
    this.#activities.clear();
    this.#touched = undefined;
  }

  // ---- state mode ------------------------------------------------------------------------------

  /** A `STATE_SNAPSHOT` is about to replace `before`. */
  stateSnapshot(before: unknown): void {
    this.#before = before;
    this.#touched = touchedState(true);
  }

  /** A `STATE_DELTA` with `operations` is about to apply to `before`. */
  stateDelta(before: unknown, operations: readonly unknown[]): void {
    this.#before = before;
    const touched = this.#touched ?? touchedState(false);
    this.#touched = touched;
    for (const operation of operations) {
      if (!isRecord(operation)) continue;
      const moves = operation.op === 'move' || operation.op === 'copy';
      for (const key of ['path', 'from'] as const) {
        const pointer = operation[key];
        if (typeof pointer !== 'string') continue;
        let segments: string[];
        try {
          segments = parsePointer(pointer);
        } catch {
          touched.all = true;
          continue;
        }
        if (segments.length === 0) touched.all = true;
        if (segments[0] !== STATE_SURFACES_KEY) continue;
        const surfaceId = segments[1];
        if (surfaceId === undefined) {
          touched.all = true;
          continue;
        }
        const area = segments[2];
        if (area === 'components' && segments.length >= 4) {
          addTo(touched.components, surfaceId, segments[3]!);
        } else if (area === 'dataModel') {
          // An array's elements shift on an insert or a removal: its parent goes whole. An
          // append (at the length, or `-`) is a write at that index.
          const data = segments.slice(3);
          const last = data.at(-1);
          let target = data;
          if (last !== undefined && isIndexLike(last) && (moves || operation.op !== 'replace')) {
            const length = lengthAt(before, surfaceId, data);
            if (length !== undefined) {
              const appends =
                !moves && operation.op === 'add' && (last === '-' || Number(last) === length);
              target = appends ? [...data.slice(0, -1), String(length)] : data.slice(0, -1);
            }
          }
          addTo(touched.data, surfaceId, formatPointer(target));
        } else touched.surfaces.add(surfaceId);
      }
    }
  }

  /** The state after the snapshot or delta(s) announced: the A2UI messages that make it so. */
  stateChanged(after: unknown): ServerMessage[] {
    const touched = this.#touched;
    if (!touched) return [];
    this.#touched = undefined;
    const before = surfacesOf(this.#before);
    const now = surfacesOf(after);
    const messages: ServerMessage[] = [];
    const whole = touched.all
      ? new Set([...Object.keys(before), ...Object.keys(now)])
      : touched.surfaces;
    for (const surfaceId of whole)
      this.#diffSurface(surfaceId, before[surfaceId], now[surfaceId], messages);
    for (const [surfaceId, ids] of touched.components) {
      if (whole.has(surfaceId)) continue;
      const surface = now[surfaceId];
      if (!isRecord(surface) || !isRecord(surface.components) || !this.#surfaces.has(surfaceId))
        continue;
      const components = [...ids]
        .map((id) =>
          Object.hasOwn(surface.components as object, id)
            ? (surface.components as Record<string, unknown>)[id]
            : undefined,
        )
        .filter(isRecord);
      if (components.length > 0)
        messages.push(message('updateComponents', { surfaceId, components }));
    }
    for (const [surfaceId, paths] of touched.data) {
      if (whole.has(surfaceId)) continue;
      const surface = now[surfaceId];
      if (!isRecord(surface) || !this.#surfaces.has(surfaceId)) continue;
      for (const path of minimalPaths(paths)) {
        const value = valueAt(surface.dataModel, path);
        messages.push(
          message(
            'updateDataModel',
            value === undefined ? { surfaceId, path } : { surfaceId, path, value },
          ),
        );
      }
    }
    return messages;
  }

  #diffSurface(surfaceId: string, before: unknown, after: unknown, out: ServerMessage[]): void {
    const known = this.#surfaces.get(surfaceId);
    const next = asSurface(after);
    if (!next) {
      if (known) {
        this.#surfaces.delete(surfaceId);
        out.push(message('deleteSurface', { surfaceId }));
      }
      return;
    }
    const header = headerOf(next);
    if (!known || !sameHeader(known, header)) {
      if (known) out.push(message('deleteSurface', { surfaceId }));
      this.#surfaces.set(surfaceId, header);
      out.push(...surfaceMessages(surfaceId, next));
      return;
    }
    const previous = asSurface(before);
    const changed = Object.entries(next.components)
      .filter(([id, component]) => !previous || !jsonEqual(previous.components[id], component))
      .map(([, component]) => component);
    if (changed.length > 0)
      out.push(message('updateComponents', { surfaceId, components: changed }));
    if (!previous || !jsonEqual(previous.dataModel, next.dataModel))
      out.push(message('updateDataModel', { surfaceId, path: '/', value: next.dataModel }));
  }

  // ---- activity messages and tool results ------------------------------------------------------

  /** An `ACTIVITY_SNAPSHOT`: its operations, reconciled; nothing for other activity types. */
  activitySnapshot(event: {
    messageId: string;
    activityType: string;
    content: unknown;
    replace?: boolean;
  }): ServerMessage[] {
    if (event.activityType !== A2UI_ACTIVITY_TYPE) return [];
    if (event.replace === false && this.#activities.has(event.messageId)) return [];
    const operations = operationsOf(event.content);
    if (!operations) return [];
    this.#activities.set(event.messageId, [...operations]);
    return this.reconcile(operations);
  }

  /** An `ACTIVITY_DELTA`: the operations it appended, or the whole list when it did more. */
  activityDelta(event: {
    messageId: string;
    activityType: string;
    patch: readonly unknown[];
  }): ServerMessage[] {
    if (event.activityType !== A2UI_ACTIVITY_TYPE) return [];
    const current = this.#activities.get(event.messageId);
    // A delta on a message this client does not hold is ignored, as `@ag-ui/client` does.
    if (!current) return [];
    const appendsOnly = event.patch.every(
      (operation) =>
        isRecord(operation) &&
        // The content's `a2uiSeq` (this adapter's server) is no operation of the surface.
        (operation.path === SEQ_POINTER ||
          (operation.op === 'add' &&
            typeof operation.path === 'string' &&
            operation.path.startsWith(`/${A2UI_OPERATIONS_KEY}/`) &&
            (operation.path === `/${A2UI_OPERATIONS_KEY}/-` ||
              Number(operation.path.slice(A2UI_OPERATIONS_KEY.length + 2)) >= current.length))),
    );
    const previousLength = current.length;
    let content: unknown;
    try {
      content = applyPatch(
        { [A2UI_OPERATIONS_KEY]: current },
        event.patch as never,
        false,
        true,
      ).newDocument;
    } catch {
      return [];
    }
    const operations = operationsOf(content);
    if (!operations) return [];
    this.#activities.set(event.messageId, operations);
    return appendsOnly
      ? this.reconcile(operations.slice(previousLength))
      : this.reconcile(operations);
  }

  /** A `TOOL_CALL_RESULT`: its operations when its content is `{a2ui_operations}` (also double-encoded). */
  toolResult(content: unknown): ServerMessage[] {
    let parsed: unknown = content;
    for (let depth = 0; depth < 2 && typeof parsed === 'string'; depth++) {
      try {
        parsed = JSON.parse(parsed);
      } catch {
        return [];
      }
    }
    const operations = operationsOf(parsed);
    return operations ? this.reconcile(operations) : [];
  }

  /**
   * Operations from a snapshot or result, against what the client holds: a repeated
   * `createSurface` with the same settings is dropped, one with other settings recreates the
   * surface.
   */
  reconcile(operations: readonly unknown[]): ServerMessage[] {
    const out: ServerMessage[] = [];
    for (const operation of operations) {
      if (!isRecord(operation)) continue;
      const create = operation.createSurface;
      if (isRecord(create) && typeof create.surfaceId === 'string') {
        const header: SurfaceHeader = {
          catalogId: create.catalogId,
          theme: create.theme,
          sendDataModel: create.sendDataModel === true,
        };
        const known = this.#surfaces.get(create.surfaceId);
        if (known && sameHeader(known, header)) continue;
        if (known) out.push(message('deleteSurface', { surfaceId: create.surfaceId }));
        this.#surfaces.set(create.surfaceId, header);
      }
      const deleted = operation.deleteSurface;
      if (isRecord(deleted) && typeof deleted.surfaceId === 'string') {
        if (!this.#surfaces.delete(deleted.surfaceId)) continue;
      }
      out.push(operation as unknown as ServerMessage);
    }
    return out;
  }
}

function touchedState(all: boolean): TouchedState {
  return { all, surfaces: new Set(), components: new Map(), data: new Map() };
}

function message(kind: string, body: Record<string, unknown>): ServerMessage {
  return { version: A2UI_VERSION, [kind]: body } as unknown as ServerMessage;
}

function operationsOf(content: unknown): unknown[] | undefined {
  if (!isRecord(content)) return undefined;
  const operations = content[A2UI_OPERATIONS_KEY];
  return Array.isArray(operations) ? operations : undefined;
}

function surfacesOf(state: unknown): Record<string, unknown> {
  const surfaces = isRecord(state) ? state[STATE_SURFACES_KEY] : undefined;
  return isRecord(surfaces) ? surfaces : {};
}

function asSurface(value: unknown): SurfaceState | undefined {
  if (!isRecord(value) || typeof value.catalogId !== 'string') return undefined;
  return {
    catalogId: value.catalogId,
    ...(isRecord(value.theme) ? { theme: value.theme } : {}),
    sendDataModel: value.sendDataModel === true,
    components: isRecord(value.components)
      ? (Object.fromEntries(
          Object.entries(value.components).filter(([, c]) => isRecord(c)),
        ) as SurfaceState['components'])
      : {},
    dataModel: value.dataModel === undefined ? {} : value.dataModel,
  };
}

function headerOf(surface: SurfaceState): SurfaceHeader {
  return {
    catalogId: surface.catalogId,
    theme: surface.theme,
    sendDataModel: surface.sendDataModel,
  };
}

function sameHeader(a: SurfaceHeader, b: SurfaceHeader): boolean {
  return (
    a.catalogId === b.catalogId &&
    a.sendDataModel === b.sendDataModel &&
    jsonEqual(a.theme, b.theme)
  );
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key) ?? new Set<string>();
  map.set(key, set);
  set.add(value);
}

const isIndexLike = (segment: string) => segment === '-' || isArrayIndex(segment);

/** The paths not below another one of the set. */
function minimalPaths(paths: ReadonlySet<string>): string[] {
  const sorted = [...paths].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const path of sorted)
    if (
      !kept.some(
        (ancestor) => ancestor === '/' || path === ancestor || path.startsWith(`${ancestor}/`),
      )
    )
      kept.push(path);
  return kept;
}

/** Length of the array a `-` pointer under a surface's data model appends to. */
function lengthAt(state: unknown, surfaceId: string, data: readonly string[]): number | undefined {
  const parent = valueAt(
    surfacesOf(state)[surfaceId],
    formatPointer(['dataModel', ...data.slice(0, -1)]),
  );
  return Array.isArray(parent) ? parent.length : undefined;
}

function valueAt(root: unknown, path: string): unknown {
  let current = root;
  for (const segment of parsePointer(path)) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isRecord(current))
      current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    else return undefined;
  }
  return current;
}
