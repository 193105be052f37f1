/**
 * Where a catalog's components name other components (digest §5.2): properties whose schema is
 * `common_types.json#/$defs/ComponentId` (Card.child, Modal.trigger, Tabs[].child) or `ChildList`
 * (Row/Column/List.children). Read from the schema, so custom catalogs work the same way.
 */
import { isChildTemplate, isRecord } from '@a2ui-ts/core';
import {
  type CatalogDocument,
  parseSchemaRef,
  resolveSchemaTarget,
  type SchemaOrigin,
} from './catalog-document.js';

/** One property that references components; `*` in `path` stands for every array item. */
export interface ReferenceSlot {
  readonly path: readonly string[];
  /** `id`: one component id; `list`: a ChildList (ids or a `{componentId, path}` template). */
  readonly kind: 'id' | 'list';
}

/** Reference slots of every component type of a catalog. */
export type ReferenceIndex = ReadonlyMap<string, readonly ReferenceSlot[]>;

const MAX_DEPTH = 12;

/**
 * Finds the reference slots of every component type of `document`.
 *
 * @example
 * ```ts
 * createReferenceIndex(readCatalogDocument(basicCatalog)).get('Card'); // [{ path: ['child'], kind: 'id' }]
 * ```
 */
export function createReferenceIndex(document: CatalogDocument): ReferenceIndex {
  const index = new Map<string, ReferenceSlot[]>();
  for (const [type, schema] of Object.entries(document.components)) {
    const slots: ReferenceSlot[] = [];
    walk(document, schema, 'catalog', [], slots, new Set(), 0);
    const unique = new Map(slots.map((slot) => [`${slot.kind}:${slot.path.join('/')}`, slot]));
    index.set(type, [...unique.values()]);
  }
  return index;
}

function walk(
  document: CatalogDocument,
  schema: unknown,
  origin: SchemaOrigin,
  path: string[],
  out: ReferenceSlot[],
  visiting: Set<string>,
  depth: number,
): void {
  if (!isRecord(schema) || depth > MAX_DEPTH) return;
  if (typeof schema.$ref === 'string') {
    const target = parseSchemaRef(schema.$ref, origin);
    if (target?.origin === 'common') {
      if (target.name === 'ComponentId') out.push({ path, kind: 'id' });
      else if (target.name === 'ChildList') out.push({ path, kind: 'list' });
      // Other common types (Dynamic*, Action, Checkable…) never reference components.
    } else if (target) {
      const key = `${target.section}/${target.name}`;
      const resolved = resolveSchemaTarget(document, target);
      if (resolved && !visiting.has(key)) {
        visiting.add(key);
        walk(document, resolved, 'catalog', path, out, visiting, depth + 1);
        visiting.delete(key);
      }
    }
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches))
      for (const branch of branches) walk(document, branch, origin, path, out, visiting, depth + 1);
  }
  if (isRecord(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties))
      walk(document, child, origin, [...path, key], out, visiting, depth + 1);
  }
  if (isRecord(schema.items))
    walk(document, schema.items, origin, [...path, '*'], out, visiting, depth + 1);
}

/**
 * The component ids `component` references through `slots`, in property order. A template
 * (`{componentId, path}`) contributes its `componentId`.
 *
 * @example
 * ```ts
 * referencedIds({ id: 'row', component: 'Row', children: ['a', 'b'] }, index.get('Row')!); // ['a', 'b']
 * ```
 */
export function referencedIds(component: unknown, slots: readonly ReferenceSlot[]): string[] {
  const ids: string[] = [];
  for (const slot of slots) {
    for (const value of valuesAt(component, slot.path, 0)) {
      if (slot.kind === 'id') {
        if (typeof value === 'string') ids.push(value);
      } else if (Array.isArray(value)) {
        for (const id of value) if (typeof id === 'string') ids.push(id);
      } else if (isChildTemplate(value)) {
        ids.push(value.componentId);
      }
    }
  }
  return ids;
}

function valuesAt(value: unknown, path: readonly string[], at: number): unknown[] {
  if (at === path.length) return value === undefined ? [] : [value];
  const segment = path[at]!;
  if (segment === '*')
    return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, path, at + 1)) : [];
  if (!isRecord(value) || !Object.hasOwn(value, segment)) return [];
  return valuesAt(value[segment], path, at + 1);
}
