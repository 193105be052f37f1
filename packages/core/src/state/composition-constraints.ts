/**
 * v1.0 composition constraints (`a2ui_protocol.md` "Composition validation rules";
 * conformance `core/composition_constraints.yaml`): a catalog's component definition may list
 * `allowedParents` (`"Surface"` = may be the root) and `allowedChildren`; the renderer checks
 * every parent→child edge and reports `UNALLOWED_PARENT` / `UNALLOWED_CHILD`.
 */
import type { Catalog } from '../catalog/catalog.js';
import {
  type CompositionViolation,
  checkPlacement,
  compositionRulesOf,
  SURFACE_CONTAINER_TYPE,
} from '../catalog/composition.js';
import { ROOT_COMPONENT_ID } from '../protocol/constants.js';
import { isChildTemplate, isRecord } from '../protocol/guards.js';
import type { ComponentInstance } from '../protocol/messages.js';

const cache = new WeakMap<Catalog, boolean>();

/** True when `catalog.schema.components` declares any constraint (read once per catalog). */
export function hasCompositionRules(catalog: Catalog): boolean {
  let found = cache.get(catalog);
  if (found === undefined) {
    const components = isRecord(catalog.schema?.components) ? catalog.schema.components : {};
    found = Object.keys(components).some((type) => {
      const rules = compositionRulesOf(catalog, type);
      return rules.allowedParents !== undefined || rules.allowedChildren !== undefined;
    });
    cache.set(catalog, found);
  }
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

/** A violated constraint, ready to report on a component of the incoming list. */
export interface PlacementProblem extends CompositionViolation {
  /** Id of the component the problem is reported on (the child, or the container). */
  readonly componentId: string;
}

function checkEdge(
  parentId: string,
  parent: CompositionNode,
  childId: string,
  child: CompositionNode,
): PlacementProblem | undefined {
  const violation = checkPlacement(
    { parentId, parentType: parent.type, childId, childType: child.type },
    compositionRulesOf(parent.catalog, parent.type),
    compositionRulesOf(child.catalog, child.type),
  );
  if (!violation) return undefined;
  return { ...violation, componentId: violation.code === 'UNALLOWED_PARENT' ? childId : parentId };
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
): PlacementProblem | undefined {
  const surface: CompositionNode = { type: SURFACE_CONTAINER_TYPE, catalog: undefined };
  for (const component of incoming) {
    const self = lookup(component.id);
    if (!self) continue;
    if (component.id === rootId) {
      const problem = checkEdge(SURFACE_CONTAINER_TYPE, surface, component.id, self);
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
