/**
 * The catalogs a case runs with: the official catalogs it names by path (`catalogPaths`, mapped
 * to ours by {@link SPEC_CATALOGS}), its inline catalogs (`catalog`, `catalogs`, compiled as the
 * official SDKs' `Catalog.from_json` does: each component wrapped with the common component
 * schema), and the ids the suite uses for "the basic catalog of this version"
 * ({@link BASIC_CATALOG_ALIASES}).
 */

import { type Catalog, createCatalog, extendCatalog } from '../../catalog/catalog.js';
import { basicCatalog } from '../../catalog/default-catalogs.js';
import { BASIC_FUNCTIONS } from '../../functions/basic-functions.js';
import { isRecord } from '../../protocol/guards.js';
import { compileCatalogValidator } from '../../validation/compile-catalog-validator.js';
import { COMMON_TYPES_SCHEMA_ID } from '../../validation/schema-ids.js';
import type {
  ConformanceCase,
  ConformanceCatalog,
  ConformanceProtocolVersion,
} from './conformance-case.js';

/** What the runner needs from its environment (the Node part reads files). */
export interface ConformanceContext {
  /**
   * Reads a JSON file a case names, relative to the suite root (`test_data/…`).
   * @throws when the file does not exist or is not JSON
   */
  readJson(path: string): unknown;
}

/**
 * Our catalog for each official catalog file a case names (`catalogPaths`, `catalogPath`), by
 * upstream path. A version module adds its basic catalog here (one line).
 */
export const SPEC_CATALOGS: Readonly<Record<string, () => Catalog>> = {
  'specification/v0_9/catalogs/basic/catalog.json': () => basicCatalog,
};

/** The catalog ids the suite's cases use to mean the basic catalog of their own version. */
export const BASIC_CATALOG_ALIASES: readonly string[] = [
  'basic',
  'standard',
  'test-catalog',
  'test-catalog-v10',
];

/** The upstream path of each version's basic catalog. */
const BASIC_CATALOG_PATHS: Readonly<Record<ConformanceProtocolVersion, string>> = {
  'v0.8': 'specification/v0_8/json/standard_catalog_definition.json',
  'v0.9': 'specification/v0_9/catalogs/basic/catalog.json',
  'v0.9.1': 'specification/v0_9/catalogs/basic/catalog.json',
  'v1.0': 'specification/v1_0/catalogs/basic/catalog.json',
};

/**
 * The catalogs of a case, in preference order: those it names, then the basic catalog of its
 * version under each alias of {@link BASIC_CATALOG_ALIASES} that none of them takes.
 *
 * @param testCase - the case
 * @param version - its protocol version
 * @param context - file access
 * @throws when a named catalog file has no counterpart or an inline catalog does not compile
 */
export function caseCatalogs(
  testCase: ConformanceCase,
  version: ConformanceProtocolVersion,
  context: ConformanceContext,
): Catalog[] {
  const catalogs: Catalog[] = [];
  const paths = [...(testCase.catalogPaths ?? [])];
  if (testCase.catalogPath) paths.push(testCase.catalogPath);
  for (const path of paths) catalogs.push(specCatalog(path, context));
  for (const inline of [testCase.catalog, ...(testCase.catalogs ?? [])]) {
    if (inline?.catalogId !== undefined) catalogs.push(inlineCatalog(inline, version));
  }
  const basic = SPEC_CATALOGS[BASIC_CATALOG_PATHS[version]]?.();
  const first = catalogs[0];
  for (const alias of BASIC_CATALOG_ALIASES) {
    if (catalogs.some((catalog) => catalog.catalogId === alias)) continue;
    // A case naming one official catalog file means that catalog by every alias.
    const target = paths.length > 0 && first ? first : basic;
    if (target) catalogs.push(extendCatalog(target, { catalogId: alias }));
  }
  return catalogs;
}

function specCatalog(path: string, context: ConformanceContext): Catalog {
  const known = SPEC_CATALOGS[path];
  if (known) return known();
  const document = context.readJson(path);
  if (!isRecord(document)) throw new Error(`Catalog file ${path} is not a JSON object.`);
  return inlineCatalog(document as ConformanceCatalog, 'v0.9');
}

/**
 * A catalog from an inline definition. Component schemas written as plain objects are wrapped
 * with `ComponentCommon` and a `component` constant; `additionalProperties: false` becomes
 * `unevaluatedProperties: false` on the wrapper, so that `id` and `component` stay allowed.
 * Without components the catalog has the basic catalog's components, as in the reference harness.
 */
export function inlineCatalog(
  inline: ConformanceCatalog,
  _version: ConformanceProtocolVersion,
): Catalog {
  const catalogId = String(inline.catalogId);
  if (!isRecord(inline.components) && !isRecord(inline.theme))
    return extendCatalog(basicCatalog, { catalogId });
  const components: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(inline.components ?? {}))
    components[name] = wrapComponentSchema(name, schema);
  const schema: Record<string, unknown> = { catalogId, components };
  if (isRecord(inline.theme)) schema.$defs = { theme: inline.theme };
  if (isRecord(inline.$defs)) schema.$defs = { ...inline.$defs, ...(schema.$defs as object) };
  return createCatalog({
    catalogId,
    schema,
    functions: BASIC_FUNCTIONS,
    validator: compileCatalogValidator(schema, { catalogId }),
  });
}

function wrapComponentSchema(name: string, schema: unknown): unknown {
  if (!isRecord(schema) || schema.allOf !== undefined) return schema;
  const { additionalProperties, properties, required, type: _type, ...rest } = schema;
  const wrapped: Record<string, unknown> = {
    type: 'object',
    allOf: [
      { $ref: `${COMMON_TYPES_SCHEMA_ID}#/$defs/ComponentCommon` },
      {
        ...rest,
        properties: { ...(isRecord(properties) ? properties : {}), component: { const: name } },
        required: [
          'component',
          ...(Array.isArray(required) ? required : []).filter((key) => key !== 'component'),
        ],
      },
    ],
  };
  if (additionalProperties === false) wrapped.unevaluatedProperties = false;
  return wrapped;
}
