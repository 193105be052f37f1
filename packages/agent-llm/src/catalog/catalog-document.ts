/**
 * A catalog's JSON Schema document (digest §10.2) as the LLM agent reads it: its components,
 * functions and `$defs`, the v0.9 common types they reference, and where a `$ref` points.
 */
import { A2uiError, type Catalog, isRecord } from '@a2ui-ts/core';
import commonTypes from './common_types.json' with { type: 'json' };

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** The parts of a catalog document the agent turns into a tool schema and a prompt. */
export interface CatalogDocument {
  readonly catalogId: string;
  /** Component schemas by type name, in catalog order. */
  readonly components: Readonly<Record<string, JsonSchema>>;
  /** Function schemas by name (`{call, args, returnType}`), in catalog order. */
  readonly functions: Readonly<Record<string, JsonSchema>>;
  /** The catalog's own `$defs` (`anyComponent`, `anyFunction`, `theme`, shared pieces). */
  readonly defs: Readonly<Record<string, JsonSchema>>;
}

/** The `$defs` of v0.9 `common_types.json` (DynamicString, ChildList, Action, …). */
export const COMMON_TYPES: Readonly<Record<string, JsonSchema>> = (
  commonTypes as { $defs: Record<string, JsonSchema> }
).$defs;

/** Which document a schema was read from, for resolving its local `#/…` references. */
export type SchemaOrigin = 'common' | 'catalog';

/** Where a `$ref` points. */
export interface SchemaTarget {
  readonly origin: SchemaOrigin;
  readonly section: '$defs' | 'components' | 'functions';
  readonly name: string;
}

/**
 * Reads the schema document of `catalog`.
 *
 * @throws A2uiError `NOT_SUPPORTED` when the catalog has no `schema` (a model can only be told
 *   about a catalog whose JSON Schema it can read) or the schema has no `components` object
 *
 * @example
 * ```ts
 * Object.keys(readCatalogDocument(minimalCatalog).components); // ['Text', 'Row', 'Column', …]
 * ```
 */
export function readCatalogDocument(catalog: Catalog): CatalogDocument {
  const schema = catalog.schema;
  if (!isRecord(schema) || !isRecord(schema.components)) {
    throw new A2uiError(
      'NOT_SUPPORTED',
      `Catalog ${catalog.catalogId} has no JSON Schema with "components"; the LLM agent needs the catalog document (createCatalog({ schema })) to describe it to the model.`,
    );
  }
  return {
    catalogId: catalog.catalogId,
    components: recordsOf(schema.components),
    functions: recordsOf(schema.functions),
    defs: recordsOf(schema.$defs),
  };
}

function recordsOf(value: unknown): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  if (!isRecord(value)) return out;
  for (const [key, child] of Object.entries(value)) if (isRecord(child)) out[key] = child;
  return out;
}

/**
 * Where `ref` points, read from a schema of `origin`. Refs into a document whose name ends in
 * `common_types.json` are common types; any other document (`catalog.json`, the catalog's own
 * `$id`) is the catalog, as the official test runner aliases it (digest §10.3).
 */
export function parseSchemaRef(ref: string, origin: SchemaOrigin): SchemaTarget | undefined {
  const hash = ref.indexOf('#');
  if (hash < 0) return undefined;
  const base = ref.slice(0, hash);
  const match = /^\/(\$defs|components|functions)\/([^/]+)$/.exec(ref.slice(hash + 1));
  if (!match) return undefined;
  const section = match[1] as SchemaTarget['section'];
  const name = decodeURIComponent(match[2]!).replace(/~1/g, '/').replace(/~0/g, '~');
  const target: SchemaOrigin =
    base === '' ? origin : base.endsWith('common_types.json') ? 'common' : 'catalog';
  if (target === 'common' && section !== '$defs') return undefined;
  return { origin: target, section, name };
}

/** The schema `target` names, if the document has it. */
export function resolveSchemaTarget(
  document: CatalogDocument,
  target: SchemaTarget,
): JsonSchema | undefined {
  if (target.origin === 'common') return COMMON_TYPES[target.name];
  const section =
    target.section === 'components'
      ? document.components
      : target.section === 'functions'
        ? document.functions
        : document.defs;
  return Object.hasOwn(section, target.name) ? section[target.name] : undefined;
}
