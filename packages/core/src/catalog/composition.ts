/**
 * Composition constraints (v1.0 `a2ui_protocol.md` "Composition validation rules"): a catalog
 * component definition may list `allowedParents` and `allowedChildren` (component type names;
 * `"Surface"` is the implicit container `root` mounts in). One rule for everyone who checks a
 * placement — the processor, validators, renderers — with the official error wording.
 */
import { isRecord } from '../protocol/guards.js';
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
