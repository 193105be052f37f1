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
  /**
   * What the copy depended on, recorded as it is made: the child ids looked up in `received`
   * and the list fields whose openness was read, so that a cached copy is reused until one of
   * them reads differently (see {@link placeholderInputsChanged}).
   */
  readonly inputs?: PlaceholderInputs;
}

/** What a copy made by {@link withPlaceholders} read of the stream, and what it read. */
export interface PlaceholderInputs {
  readonly childIds: unknown[];
  readonly childReceived: boolean[];
  readonly listFields: string[];
  readonly listOpen: boolean[];
}

/**
 * Whether the message being written has opened a `field` list that has not closed yet: after
 * the last `"field"` of the text, a `[` with no `]` before it. Only the text after that last
 * occurrence is read (searching from the end), not the whole message.
 */
export function listIsOpen(field: string, pendingJson: string): boolean {
  const term = `"${field}"`;
  const at = pendingJson.lastIndexOf(term);
  if (at < 0) return false;
  const after = pendingJson.slice(at + term.length);
  const open = after.indexOf('[');
  return open >= 0 && !after.slice(0, open).includes(']');
}

/** Whether any input a copy was made from reads differently now. */
export function placeholderInputsChanged(
  inputs: PlaceholderInputs,
  received: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  isListOpen: (field: string) => boolean,
): boolean {
  return (
    inputs.childIds.some(
      (id, index) => received.has(id as string) !== inputs.childReceived[index],
    ) || inputs.listFields.some((field, index) => isListOpen(field) !== inputs.listOpen[index])
  );
}

function isReceived(id: unknown, context: PlaceholderContext): boolean {
  const received = context.received.has(id as string);
  context.inputs?.childIds.push(id);
  context.inputs?.childReceived.push(received);
  return received;
}

function readListOpen(field: string, context: PlaceholderContext): boolean {
  const open = listIsOpen(field, context.pendingJson);
  context.inputs?.listFields.push(field);
  context.inputs?.listOpen.push(open);
  return open;
}

/** Ids of the placeholders in each `placeholders` list, so that adding one is O(1). */
const placeholderIds = new WeakMap<JsonObject[], Set<string>>();

function placeholderFor(id: string, context: PlaceholderContext): string {
  let ids = placeholderIds.get(context.placeholders);
  if (ids === undefined) {
    ids = new Set(context.placeholders.map((placeholder) => String(placeholder.id)));
    placeholderIds.set(context.placeholders, ids);
  }
  if (!ids.has(id)) {
    ids.add(id);
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
    if (!isReceived(value, context)) object[field] = placeholderFor(`loading_${value}`, context);
    return;
  }
  if (!Array.isArray(value)) return;
  const children = value.map((child) =>
    isReceived(child, context) ? child : placeholderFor(`loading_${String(child)}`, context),
  );
  if (children.length === 0 && LIST_FIELDS.has(field) && readListOpen(field, context)) {
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
