/**
 * Where a JSON Schema holds subschemas (draft 2020-12, plus the two maps of an A2UI catalog), so
 * that schema rewrites walk schema positions only: a property NAMED like a keyword (`description`
 * in `AccessibilityAttributes`) is data, not a keyword.
 */
import { isRecord } from '../protocol/guards.js';

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  // A2UI catalog documents keep component and function schemas in these two maps.
  'components',
  'functions',
]);
/** Keywords whose value is a list of subschemas (`items` in its pre-2020 tuple form too). */
const SCHEMA_ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

/**
 * A shallow copy of `schema` with `map` applied to each of its direct subschemas, and `keep`
 * deciding which keywords stay. Other values are copied as they are.
 *
 * @param schema - a schema object
 * @param map - the new value of one subschema
 * @param keep - false drops the keyword @default keeps every keyword
 * @returns the copy
 */
export function mapSubschemas(
  schema: Readonly<Record<string, unknown>>,
  map: (subschema: unknown) => unknown,
  keep: (keyword: string) => boolean = () => true,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!keep(keyword)) continue;
    if (SCHEMA_MAP_KEYWORDS.has(keyword) && isRecord(value)) {
      result[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, map(sub)]),
      );
    } else if (SCHEMA_ARRAY_KEYWORDS.has(keyword) && Array.isArray(value)) {
      result[keyword] = value.map(map);
    } else if (SCHEMA_KEYWORDS.has(keyword) && (isRecord(value) || typeof value === 'boolean')) {
      result[keyword] = map(value);
    } else {
      result[keyword] = value;
    }
  }
  return result;
}

/**
 * Resolves a local `$ref` (`#/…`, RFC 6901 with percent-encoding) within `document`.
 *
 * @returns the subschema, or `undefined` for a missing target or a non-local reference
 */
export function createLocalResolver(document: unknown): (ref: string) => unknown {
  return (ref) => {
    if (!ref.startsWith('#/')) return undefined;
    let current: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      current = isRecord(current) ? current[segment] : undefined;
    }
    return current;
  };
}
