/** What a component needs before it can be shown while streaming. */
import { isRecord } from '../protocol/guards.js';
import type { JsonObject } from './stream-types.js';

/**
 * The required properties of each component type of a catalog (`component`, the type
 * discriminator, excepted), including those of `allOf` / `oneOf` / `anyOf` branches.
 */
export function requiredFieldsOf(
  components: Readonly<Record<string, unknown>>,
): Map<string, ReadonlySet<string>> {
  const byType = new Map<string, ReadonlySet<string>>();
  for (const [type, schema] of Object.entries(components)) {
    const required = new Set<string>();
    collectRequired(schema, required);
    required.delete('component');
    if (required.size > 0) byType.set(type, required);
  }
  return byType;
}

function collectRequired(schema: unknown, into: Set<string>): void {
  if (!isRecord(schema)) return;
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) if (typeof name === 'string') into.add(name);
  }
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) for (const branch of branches) collectRequired(branch, into);
  }
}

/**
 * Whether a value holds an empty object anywhere: while streaming, `{}` is an object whose
 * contents have not arrived (`"children": {` repaired), and renderers reject it.
 */
export function hasEmptyObject(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasEmptyObject);
  if (!isRecord(value)) return false;
  const values = Object.values(value);
  return values.length === 0 || values.some(hasEmptyObject);
}

/**
 * Whether a component may be shown while its message is still being written: it holds no empty
 * object and, in v0.8's nested shape, has every property its catalog requires.
 */
export function isShowable(
  component: JsonObject,
  required: ReadonlyMap<string, ReadonlySet<string>>,
): boolean {
  const definition = component.component;
  if (hasEmptyObject(typeof definition === 'string' ? component : definition)) return false;
  if (!isRecord(definition)) return true;
  const type = Object.keys(definition)[0];
  const properties = type === undefined ? undefined : definition[type];
  if (type === undefined || !isRecord(properties)) return true;
  return [...(required.get(type) ?? [])].every((name) => name in properties);
}
