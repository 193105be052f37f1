/**
 * A verdict-preserving rewrite of a catalog's `anyComponent` and `anyFunction` unions for Ajv.
 *
 * Both are `oneOf` lists whose branches each require a discriminator (`component`, `call`) with a
 * distinct `const`, so at most one branch can ever match. Ajv nevertheless validates the value
 * against every branch, and a component carrying function calls pays that price for every call.
 * Rewritten as "the discriminator is one of these names, and the branch it names holds", the
 * same values pass and fail, and each value is validated against one branch. Only the copy
 * handed to Ajv is rewritten; issue wording keeps reading the original schema.
 */
import { isRecord } from '../protocol/guards.js';
import { createLocalResolver, mapSubschemas } from './schema-positions.js';

/** Properties a schema (or one of its `allOf` parts) declares, with `required` names. */
function discriminatorConst(
  schema: unknown,
  property: string,
  resolve: (ref: string) => unknown,
): unknown {
  if (!isRecord(schema)) return undefined;
  const target = typeof schema.$ref === 'string' ? resolve(schema.$ref) : schema;
  if (!isRecord(target)) return undefined;
  // v1.0 components are wrapped (`allOf: [ComponentCommon, definition]`) and a definition may be
  // an `allOf` itself (`Checkable` + properties): look through nested `allOf`s.
  const parts: unknown[] = [];
  const collect = (part: unknown, depth: number): void => {
    parts.push(part);
    if (depth < 3 && isRecord(part) && Array.isArray(part.allOf))
      for (const inner of part.allOf) collect(inner, depth + 1);
  };
  collect(target, 0);
  let value: unknown;
  let required = false;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    const properties = isRecord(part.properties) ? part.properties : {};
    const declared = properties[property];
    if (isRecord(declared) && 'const' in declared) value = declared.const;
    if (Array.isArray(part.required) && part.required.includes(property)) required = true;
  }
  return required ? value : undefined;
}

function discriminate(
  union: unknown,
  property: string,
  resolve: (ref: string) => unknown,
): unknown {
  if (!isRecord(union) || !Array.isArray(union.oneOf) || union.oneOf.length < 2) return union;
  const names: string[] = [];
  const branches: unknown[] = [];
  for (const branch of union.oneOf) {
    const name = discriminatorConst(branch, property, resolve);
    // Any branch without a required, string `const` discriminator: keep the union as it is.
    if (typeof name !== 'string' || names.includes(name)) return union;
    names.push(name);
    // `then` is the JSON Schema keyword here, not a thenable.
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema if/then
    branches.push({ if: { properties: { [property]: { const: name } } }, then: branch });
  }
  return {
    type: 'object',
    required: [property],
    properties: { [property]: { enum: names } },
    allOf: branches,
  };
}

/**
 * Returns a copy of a prepared catalog schema (its `$id` already aliased) whose
 * `$defs.anyComponent` and `$defs.anyFunction` are discriminated by `component` and `call`.
 * Unions that do not have the required shape are left untouched.
 */
export function discriminateCatalogUnions(
  schema: Record<string, unknown>,
): Record<string, unknown> {
  const defs = isRecord(schema.$defs) ? schema.$defs : undefined;
  if (!defs) return schema;
  const resolve = createLocalResolver(schema);
  return {
    ...schema,
    $defs: {
      ...defs,
      anyComponent: discriminate(defs.anyComponent, 'component', resolve),
      anyFunction: discriminate(defs.anyFunction, 'call', resolve),
    },
  };
}

/** What a `oneOf` branch certainly requires, enough to route a value to it. */
interface BranchShape {
  /** The JSON types it can accept; `undefined` when unknown (any). */
  types: Set<string> | undefined;
  /** Properties it requires (of an object). */
  required: Set<string>;
  /** Properties it allows, when `additionalProperties: false` closes it; `undefined` if open. */
  closed: Set<string> | undefined;
  /** Required properties whose value is one of a few constants (`const` / `enum`). */
  constants: Map<string, readonly unknown[]>;
}

/** A `$ref`'s target, and the resolver of the document it sits in (for its own `$ref`s). */
interface Resolved {
  readonly schema: unknown;
  readonly resolve: Resolve;
}
type Resolve = (ref: string) => Resolved | undefined;

/**
 * Resolves `$ref`s of `document`: local ones (`#/…`) within it, and `other.json#/…` within the
 * document of `documents` whose `$id` it names (relative to `document`'s `$id`).
 */
function createResolver(document: unknown, documents: readonly object[]): Resolve {
  const local = createLocalResolver(document);
  const base = isRecord(document) && typeof document.$id === 'string' ? document.$id : undefined;
  const resolve: Resolve = (ref) => {
    if (ref.startsWith('#')) {
      const schema = local(ref);
      return schema === undefined ? undefined : { schema, resolve };
    }
    const hash = ref.indexOf('#');
    if (base === undefined || hash < 0) return undefined;
    let id: string;
    try {
      id = new URL(ref.slice(0, hash), base).href;
    } catch {
      return undefined;
    }
    const target = documents.find((other) => isRecord(other) && other.$id === id);
    return target === undefined ? undefined : createResolver(target, documents)(ref.slice(hash));
  };
  return resolve;
}

/** The values a property schema allows when it is a `const` or an `enum` of JSON scalars. */
function constantsOf(schema: unknown): readonly unknown[] | undefined {
  if (!isRecord(schema)) return undefined;
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
  if (values.length === 0) return undefined;
  return values.every((value) => value === null || typeof value !== 'object') ? values : undefined;
}

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array']);

/** The shape of `schema`, looking through local `$ref`s and `allOf`; `undefined` if unknowable. */
function shapeOf(schema: unknown, resolve: Resolve, depth = 0): BranchShape | undefined {
  if (depth > 8 || !isRecord(schema)) return undefined;
  let types: Set<string> | undefined;
  const required = new Set<string>();
  let closed: Set<string> | undefined;
  const narrow = (next: Set<string> | undefined): void => {
    if (next === undefined) return;
    types = types === undefined ? next : new Set([...types].filter((type) => next.has(type)));
  };
  if (schema.type !== undefined) {
    const listed = Array.isArray(schema.type) ? schema.type : [schema.type];
    narrow(new Set(listed.filter((type): type is string => typeof type === 'string')));
  }
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) if (typeof name === 'string') required.add(name);
  }
  if (schema.additionalProperties === false && schema.patternProperties === undefined) {
    closed = new Set(isRecord(schema.properties) ? Object.keys(schema.properties) : []);
  }
  // Each set of constants holds every value the property can take here: any one of them (from
  // this schema or a part it is conjoined with) is a sound bound.
  const constants = new Map<string, readonly unknown[]>();
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const values = constantsOf(property);
      if (values) constants.set(name, values);
    }
  }
  const parts: Array<{ schema: unknown; resolve: Resolve }> = [];
  if (typeof schema.$ref === 'string') {
    const target = resolve(schema.$ref);
    if (target === undefined) return undefined;
    parts.push(target);
  }
  if (Array.isArray(schema.allOf))
    parts.push(...schema.allOf.map((part) => ({ schema: part, resolve })));
  for (const part of parts) {
    const shape = shapeOf(part.schema, part.resolve, depth + 1);
    if (!shape) continue; // A part we cannot read only restricts further: ignore it.
    narrow(shape.types);
    for (const name of shape.required) required.add(name);
    for (const [name, values] of shape.constants)
      if (!constants.has(name)) constants.set(name, values);
    if (shape.closed)
      closed = closed
        ? new Set([...closed].filter((name) => shape.closed!.has(name)))
        : shape.closed;
  }
  for (const name of constants.keys()) if (!required.has(name)) constants.delete(name);
  return { types, required, closed, constants };
}

/**
 * A property every object branch requires and constrains to constants no other branch allows,
 * with each branch's constants; `undefined` when there is none.
 */
function constantSelector(
  objects: ReadonlyArray<{ shape: BranchShape }>,
): { property: string; values: Array<readonly unknown[]> } | undefined {
  const first = objects[0]?.shape.constants;
  if (!first) return undefined;
  for (const property of first.keys()) {
    const values = objects.map((entry) => entry.shape.constants.get(property));
    if (values.some((set) => set === undefined)) continue;
    const seen = new Set<unknown>();
    let disjoint = true;
    for (const set of values as Array<readonly unknown[]>) {
      const own = new Set(set);
      for (const value of own) {
        if (seen.has(value)) disjoint = false;
        seen.add(value);
      }
    }
    if (disjoint) return { property, values: values as Array<readonly unknown[]> };
  }
  return undefined;
}

/**
 * Rewrites `{oneOf: [...]}` as an `if`/`then`/`else` chain that validates a value against the one
 * branch it can match, when that is provable: branches of distinct primitive JSON types are told
 * apart by type; object branches by a property each requires that the others cannot hold (their
 * `additionalProperties: false` excludes it), at most one branch being open. Any other union is
 * returned as it is. Exactly the same values pass.
 */
function routeUnion(union: Record<string, unknown>, resolve: Resolve): unknown {
  const branches = union.oneOf as unknown[];
  const shapes = branches.map((branch) => shapeOf(branch, resolve));
  const typed: Array<{ type: string; branch: unknown }> = [];
  const objects: Array<{ shape: BranchShape; branch: unknown }> = [];
  for (const [index, shape] of shapes.entries()) {
    const type = shape?.types?.size === 1 ? [...shape.types][0]! : undefined;
    if (shape === undefined || type === undefined) return union;
    if (type === 'object') objects.push({ shape, branch: branches[index] });
    else if (PRIMITIVE_TYPES.has(type)) typed.push({ type, branch: branches[index] });
    else return union;
  }
  const typeNames = typed.map((entry) => entry.type);
  if (new Set(typeNames).size !== typeNames.length) return union;
  if (typeNames.includes('integer') && typeNames.includes('number')) return union;
  // An object branch that holds none of some properties (v1.0's literal-object DynamicValue,
  // `not: {anyOf: [{required: ["path"]}, {required: ["call"]}]}`) is tried last, once the value
  // holds none of the properties that route to the others: each of those it excludes.
  const fallbacks = objects.filter((entry) => excludedProperties(entry.branch) !== undefined);
  const fallback = fallbacks.length === 1 ? fallbacks[0]! : undefined;
  const routes = routeObjects(objects.filter((entry) => entry !== fallback));
  if (routes === undefined) return union;
  if (fallback) {
    const excluded = excludedProperties(fallback.branch)!;
    const selectors = routes.map(({ selector }) => (selector.required as string[])[0]!);
    if (!selectors.every((name) => excluded.has(name))) return union;
    routes.push({ selector: { type: 'object' }, branch: fallback.branch });
  }
  // Built from the end: a value no branch can take fails, as it fails every branch of the oneOf.
  let chain: unknown = false;
  for (const { selector, branch } of routes.reverse()) {
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema if/then
    chain = { if: selector, then: branch, else: chain };
  }
  for (const { type, branch } of typed.reverse()) {
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema if/then
    chain = { if: { type }, then: branch, else: chain };
  }
  const { oneOf: _, ...rest } = union;
  return Object.keys(rest).length === 0
    ? chain
    : { ...rest, allOf: [...((rest.allOf as unknown[]) ?? []), chain] };
}

/**
 * The properties an object branch cannot hold, when its `not` says so: `{required: [p]}`, or an
 * `anyOf` of such (an object holding none of them); `undefined` for any other branch.
 */
function excludedProperties(branch: unknown): Set<string> | undefined {
  if (!isRecord(branch) || !isRecord(branch.not)) return undefined;
  const single = (schema: unknown): string | undefined =>
    isRecord(schema) &&
    Object.keys(schema).length === 1 &&
    Array.isArray(schema.required) &&
    schema.required.length === 1 &&
    typeof schema.required[0] === 'string'
      ? schema.required[0]
      : undefined;
  const { not } = branch;
  const parts = Object.keys(not).length === 1 && Array.isArray(not.anyOf) ? not.anyOf : [not];
  const names = parts.map(single);
  return names.every((name) => name !== undefined) ? new Set(names as string[]) : undefined;
}

/**
 * A test for each object branch that only values that branch could take pass, or `undefined`:
 * a property each requires that the closed others cannot hold (the open one, if any, tried
 * first: a closed branch is only tried once the open one's property is absent, which fails it),
 * else a required property whose constants (`const` / `enum`) differ from branch to branch.
 */
function routeObjects(
  objects: ReadonlyArray<{ shape: BranchShape; branch: unknown }>,
): Array<{ selector: Record<string, unknown>; branch: unknown }> | undefined {
  const open = objects.filter((entry) => entry.shape.closed === undefined);
  const ordered = [...open, ...objects.filter((entry) => entry.shape.closed !== undefined)];
  const routes: Array<{ selector: Record<string, unknown>; branch: unknown }> = [];
  for (const entry of open.length > 1 ? [] : ordered) {
    const others = objects.filter((other) => other !== entry && !open.includes(other));
    const selector = [...entry.shape.required].find((name) =>
      others.every((other) => !other.shape.closed!.has(name)),
    );
    if (selector === undefined) break;
    routes.push({ selector: { type: 'object', required: [selector] }, branch: entry.branch });
  }
  if (routes.length === objects.length) return routes;
  const constant = constantSelector(objects);
  if (constant === undefined) return undefined;
  return objects.map((entry, index) => ({
    selector: {
      type: 'object',
      required: [constant.property],
      properties: { [constant.property]: { enum: constant.values[index] } },
    },
    branch: entry.branch,
  }));
}

/**
 * A copy of a schema document in which every `oneOf` whose branches can be told apart cheaply
 * (by JSON type, or by a property only one branch may hold) is rewritten to validate against
 * that branch alone. Ajv checks every branch of a `oneOf` and builds error objects for each that
 * fails; the `Dynamic*` unions (a literal, a `{path}` or a `{call}`) sit on almost every
 * component property, and the server-message union on every message. The verdict is unchanged
 * (a test compares both on the official examples and on generated values); issue wording keeps
 * reading the original.
 *
 * @param document - a schema document; local `$ref`s (`#/…`) are resolved within it
 * @param references - documents (the given one may be among them) its `other.json#/…` `$ref`s
 *   name by `$id`, relative to its own; a union routed through one is read there
 * @returns the rewritten copy (the input is not modified)
 */
export function routeUnions<T extends object>(document: T, references: readonly object[] = []): T {
  const resolve = createResolver(document, references);
  const walk = (schema: unknown): unknown => {
    if (!isRecord(schema)) return schema;
    const copy = mapSubschemas(schema, walk);
    return Array.isArray(copy.oneOf) && copy.oneOf.length > 1 ? routeUnion(copy, resolve) : copy;
  };
  return walk(document) as T;
}
