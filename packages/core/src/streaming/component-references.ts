/**
 * Which properties of a component name other components, and the ids they name. Both component
 * shapes are read: v0.9's flat `{id, component: "Card", child}` and v0.8's nested
 * `{id, component: {Card: {child}}}`.
 */
import { isRecord } from '../protocol/guards.js';
import type { JsonObject } from './stream-types.js';

/** Property names that reference components in every A2UI catalog. */
const WELL_KNOWN_REFERENCE_FIELDS = ['child', 'children', 'contentChild', 'entryPointChild'];

/** Reference property names per component type; `default` applies to every type. */
export interface ReferenceFields {
  readonly byType: ReadonlyMap<string, ReadonlySet<string>>;
  readonly default: ReadonlySet<string>;
}

/** Whether a property schema describes a component id or a child list. */
function schemaNamesComponents(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(schemaNamesComponents);
  if (!isRecord(schema)) return false;
  if (schema.title === 'ComponentId') return true;
  const ref = schema.$ref;
  if (typeof ref === 'string' && /\/(ComponentId|ChildList)$/.test(ref)) return true;
  return Object.values(schema).some(schemaNamesComponents);
}

/**
 * The reference properties of each component type of a catalog: the well-known names plus every
 * property whose schema is a `ComponentId` (by `title` or `$ref`) or a `ChildList`.
 *
 * @param components - The catalog's `components` map (type name → JSON Schema), if known.
 */
export function referenceFieldsOf(
  components: Readonly<Record<string, unknown>> = {},
): ReferenceFields {
  const fallback = new Set(WELL_KNOWN_REFERENCE_FIELDS);
  const byType = new Map<string, ReadonlySet<string>>();
  for (const [type, schema] of Object.entries(components)) {
    const fields = new Set(fallback);
    const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
    for (const [name, property] of Object.entries(properties)) {
      if (schemaNamesComponents(property)) fields.add(name);
    }
    byType.set(type, fields);
  }
  return { byType, default: fallback };
}

/** The type and properties of a component in either shape. */
export function componentTypeAndProperties(
  component: JsonObject,
): { type: string; properties: JsonObject } | undefined {
  const value = component.component;
  if (typeof value === 'string') return { type: value, properties: component };
  if (!isRecord(value)) return undefined;
  const type = Object.keys(value)[0];
  const properties = type === undefined ? undefined : value[type];
  return type !== undefined && isRecord(properties) ? { type, properties } : undefined;
}

function collectIds(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectIds(item, into);
  else if (isRecord(value)) {
    // A template names exactly one component; its data path is not a reference.
    if ('componentId' in value) {
      if (typeof value.componentId === 'string') into.push(value.componentId);
    } else for (const item of Object.values(value)) collectIds(item, into);
  }
}

/**
 * The ids a component references, each with the property naming it.
 *
 * @example
 * ```ts
 * componentReferences({ id: 'r', component: 'Row', children: ['a', 'b'] }, referenceFieldsOf());
 * // [{ id: 'a', field: 'children' }, { id: 'b', field: 'children' }]
 * ```
 */
export function componentReferences(
  component: JsonObject,
  fields: ReferenceFields,
): { id: string; field: string }[] {
  const shape = componentTypeAndProperties(component);
  if (shape === undefined) return [];
  const names = fields.byType.get(shape.type) ?? fields.default;
  const references: { id: string; field: string }[] = [];
  for (const [field, value] of Object.entries(shape.properties)) {
    if (!names.has(field)) continue;
    const ids: string[] = [];
    collectIds(value, ids);
    for (const id of ids) references.push({ id, field });
  }
  return references;
}
