/**
 * A2UI surfaces as plain JSON — the `state.surfaces` map of `state` mode, and the server's own
 * record of a thread — and the RFC 6902 operations that take such a map from one A2UI message to
 * the next. The operations follow A2UI v0.9 semantics exactly as core's `MessageProcessor` applies
 * them (spec §2, digest §7): components upserted by id; `updateDataModel` creates missing parents
 * (an array where the next segment is an index), removes only keys that exist, replaces the root;
 * `deleteSurface` removes the surface. Every operation applies with `fast-json-patch` against the
 * map as it was, and every pointer is RFC 6901 with `~0`/`~1` escapes. A message core would
 * reject (a duplicate `createSurface`, a write through a primitive) yields no operation, as it
 * leaves core's state unchanged.
 *
 * The map is changed in place: each operation costs the length of its path, not the size of the
 * surface.
 */
import {
  A2UI_VERSION,
  DEFAULT_DATA_MODEL_LIMITS,
  encodeSegment,
  isArrayIndex,
  isRecord,
  parsePointer,
  type ServerMessage,
  setOwn,
} from '@a2ui-ts/core';

/** One surface as JSON: the shape of core's `SurfaceSnapshot`. */
export interface SurfaceState {
  catalogId: string;
  theme?: Record<string, unknown>;
  sendDataModel: boolean;
  /** Components by id, each the whole component object as last sent. */
  components: Record<string, Record<string, unknown>>;
  dataModel: unknown;
}

/** Surfaces by id. */
export type SurfacesState = Record<string, SurfaceState>;

/** One RFC 6902 operation as this module emits it. */
export type PatchOperation =
  | { op: 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

/** What one message did to the map. */
export interface AppliedMessage {
  /** The surface the message named. */
  readonly surfaceId: string | undefined;
  /** The operations, in order; empty when the message changed nothing. */
  readonly operations: PatchOperation[];
}

/**
 * Applies one v0.9 server message to `surfaces` (in place) and returns the operations that do the
 * same to a copy of it.
 *
 * @param surfaces - the map to change
 * @param message - a server message (as JSON: it is kept, so pass a copy the caller owns)
 * @param basePath - the pointer of the map inside the patched document, e.g. `/surfaces`
 * @returns the surface id and the operations (pointers under `basePath`)
 *
 * @example
 * ```ts
 * const surfaces: SurfacesState = {};
 * applyServerMessage(surfaces, { version: 'v0.9', createSurface: { surfaceId: 's', catalogId } }, '/surfaces');
 * // → { surfaceId: 's', operations: [{ op: 'add', path: '/surfaces/s', value: { catalogId, … } }] }
 * ```
 */
export function applyServerMessage(
  surfaces: SurfacesState,
  message: ServerMessage,
  basePath: string,
): AppliedMessage {
  const record = message as unknown as Record<string, Record<string, unknown> | undefined>;
  const body =
    record.createSurface ??
    record.updateComponents ??
    record.updateDataModel ??
    record.deleteSurface;
  const surfaceId = typeof body?.surfaceId === 'string' ? body.surfaceId : undefined;
  if (!body || surfaceId === undefined) return { surfaceId, operations: [] };
  const surfacePath = `${basePath}/${encodeSegment(surfaceId)}`;
  const existing = Object.hasOwn(surfaces, surfaceId) ? surfaces[surfaceId] : undefined;
  const operations: PatchOperation[] = [];
  if (record.createSurface) {
    if (existing || typeof body.catalogId !== 'string') return { surfaceId, operations };
    const surface: SurfaceState = {
      catalogId: body.catalogId,
      sendDataModel: body.sendDataModel === true,
      components: {},
      dataModel: {},
    };
    if (isRecord(body.theme)) surface.theme = body.theme;
    setOwn(surfaces, surfaceId, surface);
    operations.push({ op: 'add', path: surfacePath, value: surface });
  } else if (record.deleteSurface) {
    if (!existing) return { surfaceId, operations };
    delete surfaces[surfaceId];
    operations.push({ op: 'remove', path: surfacePath });
  } else if (record.updateComponents) {
    const components = body.components;
    if (!existing || !Array.isArray(components) || components.length === 0)
      return { surfaceId, operations };
    for (const component of components) {
      if (!isRecord(component) || typeof component.id !== 'string') continue;
      setOwn(existing.components, component.id, component);
      operations.push({
        op: 'add',
        path: `${surfacePath}/components/${encodeSegment(component.id)}`,
        value: component,
      });
    }
  } else if (existing) {
    const path = typeof body.path === 'string' ? body.path : '/';
    const operation = writeDataModel(existing, path, body.value, `${surfacePath}/dataModel`);
    if (operation) operations.push(operation);
  }
  return { surfaceId, operations };
}

/**
 * The v0.9 messages that rebuild `surface` from nothing: `createSurface`, then every component in
 * one `updateComponents`, then the data model at `/` (each only when there is something to send).
 *
 * @example
 * ```ts
 * client.process(surfaceMessages('s', surfaces.s));
 * ```
 */
export function surfaceMessages(surfaceId: string, surface: SurfaceState): ServerMessage[] {
  const createSurface: Record<string, unknown> = { surfaceId, catalogId: surface.catalogId };
  if (surface.theme !== undefined) createSurface.theme = surface.theme;
  if (surface.sendDataModel) createSurface.sendDataModel = true;
  const messages = [{ version: A2UI_VERSION, createSurface }] as unknown as ServerMessage[];
  const components = Object.values(surface.components);
  if (components.length > 0)
    messages.push({
      version: A2UI_VERSION,
      updateComponents: { surfaceId, components },
    } as unknown as ServerMessage);
  const data = surface.dataModel;
  if (!(isRecord(data) && Object.keys(data).length === 0))
    messages.push({
      version: A2UI_VERSION,
      updateDataModel: { surfaceId, path: '/', value: data },
    } as unknown as ServerMessage);
  return messages;
}

/**
 * True when `client` holds the same surfaces as `server`: the same ids, and per surface the same
 * catalog, theme, `sendDataModel` and components. Data models may differ (the client edits them),
 * but must be there.
 */
export function sameSurfaces(client: unknown, server: SurfacesState): boolean {
  if (!isRecord(client)) return false;
  const ids = Object.keys(server);
  if (Object.keys(client).length !== ids.length) return false;
  for (const id of ids) {
    const mine = server[id]!;
    const theirs = Object.hasOwn(client, id) ? client[id] : undefined;
    if (!isRecord(theirs) || !('dataModel' in theirs)) return false;
    if (theirs.catalogId !== mine.catalogId || theirs.sendDataModel !== mine.sendDataModel)
      return false;
    if (!jsonEqual(theirs.theme, mine.theme) || !jsonEqual(theirs.components, mine.components))
      return false;
  }
  return true;
}

/** Structural equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const other = b as Record<string, unknown>;
  return keys.every(
    (key) =>
      Object.hasOwn(other, key) && jsonEqual((a as Record<string, unknown>)[key], other[key]),
  );
}

/** A deep copy of JSON-shaped surfaces (keys such as `__proto__` kept as own properties). */
export function cloneSurfaces(surfaces: SurfacesState): SurfacesState {
  return JSON.parse(JSON.stringify(surfaces)) as SurfacesState;
}

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  typeof value === 'object' && value !== null;

/**
 * `updateDataModel` as core's `DataModel.set` does it, in place, as one operation: the deepest
 * existing container along the path receives the new value, with the missing parents created
 * inside it. Returns nothing for a no-op or for a write core refuses.
 */
function writeDataModel(
  surface: SurfaceState,
  path: string,
  value: unknown,
  dataPath: string,
): PatchOperation | undefined {
  let segments: string[];
  try {
    segments = parsePointer(path);
  } catch {
    return undefined;
  }
  if (segments.length === 0 || surface.dataModel === null || surface.dataModel === undefined) {
    // The root is replaced; a null root is vivified as a whole, as core does.
    const root =
      segments.length === 0 ? (value === undefined ? {} : value) : build(segments, value);
    if (root === undefined) return undefined;
    surface.dataModel = root;
    return { op: 'replace', path: dataPath, value: root };
  }
  let container: unknown = surface.dataModel;
  let pointer = dataPath;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const last = index === segments.length - 1;
    const here = `${pointer}/${encodeSegment(segment)}`;
    if (Array.isArray(container)) {
      if (!isArrayIndex(segment)) return undefined;
      const position = Number(segment);
      if (position > DEFAULT_DATA_MODEL_LIMITS.maxArrayIndex) return undefined;
      const child = container[position];
      if (!last && isContainer(child)) {
        container = child;
        pointer = here;
        continue;
      }
      if (!last && child !== undefined && child !== null) return undefined;
      const next = last ? value : build(segments.slice(index + 1), value);
      if (next === undefined) {
        // Removal keeps the array's length: the element becomes a hole (null in JSON).
        if (!last || position >= container.length) return undefined;
        container[position] = null;
        return { op: 'replace', path: here, value: null };
      }
      if (position < container.length) {
        container[position] = next;
        return { op: 'replace', path: here, value: next };
      }
      if (position === container.length) {
        container.push(next);
        return { op: 'add', path: here, value: next };
      }
      // Beyond the end: core leaves holes, which RFC 6902 cannot add; the array goes whole.
      while (container.length < position) container.push(null);
      container.push(next);
      return { op: 'replace', path: pointer, value: container };
    }
    if (!isRecord(container)) return undefined;
    const has = Object.hasOwn(container, segment);
    const child = has ? container[segment] : undefined;
    if (!last && isContainer(child)) {
      container = child;
      pointer = here;
      continue;
    }
    if (!last && child !== undefined && child !== null) return undefined;
    const next = last ? value : build(segments.slice(index + 1), value);
    if (next === undefined) {
      if (!last || !has) return undefined;
      delete container[segment];
      return { op: 'remove', path: here };
    }
    setOwn(container, segment, next);
    // `add` on an existing member replaces it (RFC 6902 §4.1).
    return { op: 'add', path: here, value: next };
  }
  return undefined;
}

/** The containers core creates for `segments` below a missing parent, holding `value`. */
function build(segments: readonly string[], value: unknown): unknown {
  if (value === undefined) return undefined;
  let current = value;
  for (let index = segments.length - 1; index >= 0; index--) {
    const segment = segments[index]!;
    if (isArrayIndex(segment)) {
      const position = Number(segment);
      if (position > DEFAULT_DATA_MODEL_LIMITS.maxArrayIndex) return undefined;
      const array: unknown[] = Array.from({ length: position }, () => null);
      array.push(current);
      current = array;
    } else {
      const object: Record<string, unknown> = {};
      setOwn(object, segment, current);
      current = object;
    }
  }
  return current;
}
