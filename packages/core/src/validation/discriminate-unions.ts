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

/** Properties a schema (or one of its `allOf` parts) declares, with `required` names. */
function discriminatorConst(
  schema: unknown,
  property: string,
  resolve: (ref: string) => unknown,
): unknown {
  if (!isRecord(schema)) return undefined;
  const target = typeof schema.$ref === 'string' ? resolve(schema.$ref) : schema;
  if (!isRecord(target)) return undefined;
  const parts = [target, ...(Array.isArray(target.allOf) ? target.allOf : [])];
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
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith('#/')) return undefined;
    let current: unknown = schema;
    for (const raw of ref.slice(2).split('/')) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      current = isRecord(current) ? current[segment] : undefined;
    }
    return current;
  };
  return {
    ...schema,
    $defs: {
      ...defs,
      anyComponent: discriminate(defs.anyComponent, 'component', resolve),
      anyFunction: discriminate(defs.anyFunction, 'call', resolve),
    },
  };
}
