/**
 * v1.0 composition constraints (`a2ui_protocol.md` "Composition validation rules";
 * conformance `core/composition_constraints.yaml`): a catalog's component definition may list
 * `allowedParents` (`"Surface"` = may be the root) and `allowedChildren`; the renderer checks
 * every parent→child edge and reports `UNALLOWED_PARENT` / `UNALLOWED_CHILD`.
 */
import type { Catalog } from '../catalog/catalog.js';
import { ROOT_COMPONENT_ID } from '../protocol/constants.js';
import { isChildTemplate, isRecord } from '../protocol/guards.js';
import type { ComponentInstance } from '../protocol/messages.js';

/** The reserved type of a surface's implicit container, the parent of `root`. */
const SURFACE_TYPE = 'Surface';

/** What one component type allows. `undefined`: no constraint. */
interface TypeConstraints {
  readonly parents: readonly string[] | undefined;
  readonly children: readonly string[] | undefined;
}

/** Constraints of a catalog's types, or `undefined` when it declares none (the common case). */
type CatalogConstraints = ReadonlyMap<string, TypeConstraints> | undefined;

const cache = new WeakMap<Catalog, CatalogConstraints>();

const stringList = (value: unknown): readonly string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;

/** The constraints `catalog.schema.components` declares, read once per catalog. */
export function catalogConstraints(catalog: Catalog): CatalogConstraints {
  if (cache.has(catalog)) return cache.get(catalog);
  const components = isRecord(catalog.schema?.components) ? catalog.schema.components : {};
  let found: Map<string, TypeConstraints> | undefined;
  for (const [type, definition] of Object.entries(components)) {
    if (!isRecord(definition)) continue;
    const parents = stringList(definition.allowedParents);
    const children = stringList(definition.allowedChildren);
    if (parents === undefined && children === undefined) continue;
    found ??= new Map();
    found.set(type, { parents, children });
  }
  cache.set(catalog, found);
  return found;
}

/** Ids a component refers to as children: `child`, `children` (ids or a template), `tabs[].child`, … */
export function childIds(component: Readonly<ComponentInstance>): string[] {
  const ids: string[] = [];
  const visit = (value: unknown, key: string): void => {
    if (key === 'child' || key === 'trigger' || key === 'content') {
      if (typeof value === 'string') ids.push(value);
    } else if (key === 'children') {
      if (Array.isArray(value)) for (const id of value) if (typeof id === 'string') ids.push(id);
      if (isChildTemplate(value)) ids.push(value.componentId);
    } else if (key === 'tabs' && Array.isArray(value)) {
      for (const tab of value)
        if (isRecord(tab) && typeof tab.child === 'string') ids.push(tab.child);
    }
  };
  for (const key of Object.keys(component)) visit(component[key], key);
  return ids;
}

/** One node as the check sees it: its type and the catalog it resolved to. */
export interface CompositionNode {
  readonly type: string;
  readonly catalog: Catalog | undefined;
}

/** A violated constraint, ready to report. */
export interface CompositionViolation {
  readonly code: 'UNALLOWED_PARENT' | 'UNALLOWED_CHILD';
  /** Id of the component of the incoming list the problem is reported on. */
  readonly componentId: string;
  readonly message: string;
}

const quoted = (names: readonly string[]): string =>
  `[${names.map((name) => `'${name}'`).join(', ')}]`;

function constraintsOf(node: CompositionNode): TypeConstraints | undefined {
  return node.catalog ? catalogConstraints(node.catalog)?.get(node.type) : undefined;
}

function checkEdge(
  parentId: string,
  parent: CompositionNode,
  childId: string,
  child: CompositionNode,
): CompositionViolation | undefined {
  const allowedParents = constraintsOf(child)?.parents;
  if (allowedParents && !allowedParents.includes(parent.type)) {
    return {
      code: 'UNALLOWED_PARENT',
      componentId: childId,
      message: `Component '${childId}' (${child.type}) cannot be placed under parent '${parentId}' (${parent.type}). Allowed parents: ${quoted(allowedParents)}.`,
    };
  }
  const allowedChildren = constraintsOf(parent)?.children;
  if (allowedChildren && !allowedChildren.includes(child.type)) {
    return {
      code: 'UNALLOWED_CHILD',
      componentId: parentId,
      message: `Container '${parentId}' (${parent.type}) cannot contain child '${childId}' (${child.type}). Allowed children: ${quoted(allowedChildren)}.`,
    };
  }
  return undefined;
}

/**
 * The first edge touching an `incoming` component that breaks a constraint, looking components up
 * in the surface as it will be once `incoming` is applied. `root`'s parent is the `Surface`.
 *
 * @param incoming - the components of the message being applied
 * @param lookup - a component's type and catalog by id (incoming ones win), `undefined` if absent
 * @param parentsOf - ids of stored components that list `id` as a child
 * @param rootId - the component under the `Surface` container
 */
export function findCompositionViolation(
  incoming: readonly ComponentInstance[],
  lookup: (id: string) => (CompositionNode & { readonly component: ComponentInstance }) | undefined,
  parentsOf: (id: string) => Iterable<string>,
  rootId: string = ROOT_COMPONENT_ID,
): CompositionViolation | undefined {
  const surface: CompositionNode = { type: SURFACE_TYPE, catalog: undefined };
  for (const component of incoming) {
    const self = lookup(component.id);
    if (!self) continue;
    if (component.id === rootId) {
      const problem = checkEdge(SURFACE_TYPE, surface, component.id, self);
      if (problem) return problem;
    }
    for (const childId of childIds(component)) {
      const child = lookup(childId);
      const problem = child && checkEdge(component.id, self, childId, child);
      if (problem) return problem;
    }
    for (const parentId of parentsOf(component.id)) {
      const parent = lookup(parentId);
      if (!parent || !childIds(parent.component).includes(component.id)) continue;
      const problem = checkEdge(parentId, parent, component.id, self);
      if (problem) return problem;
    }
  }
  return undefined;
}
