/**
 * Composition constraints (v1.0 `a2ui_protocol.md` "Composition validation rules"; conformance
 * `core/composition_constraints.yaml`): a catalog component definition may list `allowedParents`
 * and `allowedChildren` (component type names; `"Surface"` is the implicit container `root` mounts
 * in). One rule for everyone who checks a placement — the processor (every parent→child edge a
 * message touches, {@link findCompositionViolation}), renderers ({@link checkPlacement}) — with the
 * official error wording (`UNALLOWED_PARENT` / `UNALLOWED_CHILD`).
 */
import { ROOT_COMPONENT_ID } from '../protocol/constants.js';
import { isChildTemplate, isRecord } from '../protocol/guards.js';
import type { ComponentInstance } from '../protocol/messages.js';
import type { Catalog } from './catalog.js';

/** The type name of the implicit container every v1.0 surface mounts `root` in. */
export const SURFACE_CONTAINER_TYPE = 'Surface';

/** The composition constraints of one component type; absent lists allow everything. */
export interface CompositionRules {
  readonly allowedParents?: readonly string[];
  readonly allowedChildren?: readonly string[];
}

/** One placement: a child component under its parent (`"Surface"` for `root`). */
export interface Placement {
  readonly parentId: string;
  readonly parentType: string;
  readonly childId: string;
  readonly childType: string;
}

/** A placement the constraints forbid, in the protocol's error shape. */
export interface CompositionViolation {
  readonly code: 'UNALLOWED_PARENT' | 'UNALLOWED_CHILD';
  /** The conformance suite's wording (`composition_constraints.yaml`). */
  readonly message: string;
}

const NO_RULES: CompositionRules = Object.freeze({});

function stringList(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? (value as string[])
    : undefined;
}

/**
 * The constraints `catalog` declares for `type`, read from its schema's `components` map;
 * none when the catalog has no schema or the definition lists neither.
 */
export function compositionRulesOf(catalog: Catalog | undefined, type: string): CompositionRules {
  const components = catalog?.schema?.components;
  const definition = isRecord(components) ? components[type] : undefined;
  if (!isRecord(definition)) return NO_RULES;
  const allowedParents = stringList(definition.allowedParents);
  const allowedChildren = stringList(definition.allowedChildren);
  if (!allowedParents && !allowedChildren) return NO_RULES;
  return { allowedParents, allowedChildren };
}

const quoted = (names: readonly string[]): string =>
  `[${names.map((name) => `'${name}'`).join(', ')}]`;

/**
 * The first constraint `placement` breaks: the child's `allowedParents`, then the parent's
 * `allowedChildren`; `undefined` when it is allowed.
 *
 * @example
 * ```ts
 * checkPlacement(
 *   { parentId: 'root', parentType: 'Row', childId: 'h', childType: 'ColumnHeader' },
 *   {},
 *   { allowedParents: ['Column'] },
 * ); // { code: 'UNALLOWED_PARENT', message: "Component 'h' (ColumnHeader) cannot be placed under parent 'root' (Row). Allowed parents: ['Column']." }
 * ```
 */
export function checkPlacement(
  placement: Placement,
  parentRules: CompositionRules,
  childRules: CompositionRules,
): CompositionViolation | undefined {
  const { parentId, parentType, childId, childType } = placement;
  const parents = childRules.allowedParents;
  if (parents && !parents.includes(parentType)) {
    return {
      code: 'UNALLOWED_PARENT',
      message: `Component '${childId}' (${childType}) cannot be placed under parent '${parentId}' (${parentType}). Allowed parents: ${quoted(parents)}.`,
    };
  }
  const children = parentRules.allowedChildren;
  if (children && !children.includes(childType)) {
    return {
      code: 'UNALLOWED_CHILD',
      message: `Container '${parentId}' (${parentType}) cannot contain child '${childId}' (${childType}). Allowed children: ${quoted(children)}.`,
    };
  }
  return undefined;
}

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
