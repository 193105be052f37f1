/**
 * Makes a partly streamed component renderable: each child that has not arrived is replaced by a
 * placeholder component (`loading_<id>`, an empty `Row`), and a child list that has opened but
 * holds no id yet gets one placeholder (`loading_children_<id>`). v0.8 data paths also get the
 * leading slash models often drop.
 */
import { isRecord } from '../protocol/guards.js';
import type { StreamDialect } from './stream-dialect.js';
import type { JsonObject } from './stream-types.js';

/** The child-naming properties placeholders stand in for, in both versions' shapes. */
const CHILD_FIELDS = [
  'children',
  'explicitList',
  'child',
  'contentChild',
  'entryPointChild',
  'componentId',
];
const LIST_FIELDS = new Set(['children', 'explicitList']);

/** What placeholder substitution needs to know about the stream. */
export interface PlaceholderContext {
  readonly dialect: StreamDialect;
  /** Ids of the components received so far. */
  readonly received: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  /** The JSON of the message being written, to tell an opened child list from an empty one. */
  readonly pendingJson: string;
  /** Placeholder components added so far (shared across the components of one message). */
  readonly placeholders: JsonObject[];
}

/** Whether the message being written has opened a `field` list that has not closed yet. */
function listIsOpen(field: string, pendingJson: string): boolean {
  const term = `"${field}"`;
  if (!pendingJson.includes(term)) return false;
  const after = pendingJson.split(term).at(-1) ?? '';
  return after.includes('[') && !(after.split('[')[0] ?? '').includes(']');
}

function placeholderFor(id: string, context: PlaceholderContext): string {
  if (!context.placeholders.some((placeholder) => placeholder.id === id)) {
    context.placeholders.push(context.dialect.placeholder(id));
  }
  return id;
}

function substituteChildren(
  object: JsonObject,
  field: string,
  ownerId: string,
  context: PlaceholderContext,
): void {
  const value = object[field];
  if (typeof value === 'string') {
    if (!context.received.has(value)) object[field] = placeholderFor(`loading_${value}`, context);
    return;
  }
  if (!Array.isArray(value)) return;
  const children = value.map((child) =>
    context.received.has(child as string)
      ? child
      : placeholderFor(`loading_${String(child)}`, context),
  );
  if (children.length === 0 && LIST_FIELDS.has(field) && listIsOpen(field, context.pendingJson)) {
    children.push(placeholderFor(`loading_children_${ownerId}`, context));
  }
  object[field] = children;
}

/** v0.8 binds with absolute paths only; a relative one is made absolute. */
function fixPath(object: JsonObject, dialect: StreamDialect): void {
  if (!dialect.absolutePaths || !('path' in object)) return;
  const path = object.path;
  if (typeof path === 'string' && path.startsWith('/')) {
    // A binding is only its path in v0.8 (a template keeps its componentId).
    if (!('componentId' in object)) for (const key of Object.keys(object)) delete object[key];
    object.path = `/${path.replace(/^\/+/, '')}`;
  } else if (path !== undefined && path !== null) {
    object.path = `/${String(path)}`;
  }
}

function substitute(value: unknown, ownerId: string, context: PlaceholderContext): void {
  if (Array.isArray(value)) {
    for (const item of value) substitute(item, ownerId, context);
    return;
  }
  if (!isRecord(value)) return;
  fixPath(value, context.dialect);
  for (const field of CHILD_FIELDS) {
    if (field in value) substituteChildren(value, field, ownerId, context);
  }
  for (const item of Object.values(value)) substitute(item, ownerId, context);
}

/**
 * A copy of `component` with placeholders for children not yet received; new placeholder
 * components are appended to `context.placeholders`.
 */
export function withPlaceholders(component: JsonObject, context: PlaceholderContext): JsonObject {
  const copy = structuredClone(component);
  const ownerId = typeof copy.id === 'string' ? copy.id : 'unknown';
  // v0.8 nests the properties under the type; v0.9 keeps them beside `component`.
  substitute(isRecord(copy.component) ? copy.component : copy, ownerId, context);
  return copy;
}
