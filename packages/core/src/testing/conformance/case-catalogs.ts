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
import { compileV08CatalogValidator } from '../../versions/v0-8/compile-v08-catalog-validator.js';
import { v08BuiltinCatalogs } from '../../versions/v0-8/v08-catalogs.js';
import { V08_STANDARD_CATALOG_ID } from '../../versions/v0-8/v08-messages.js';
import type { V08Validator } from '../../versions/v0-8/v08-validator.js';
import { v10BuiltinCatalogs } from '../../versions/v1-0-catalogs.js';
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
  'specification/v1_0/catalogs/basic/catalog.json': () => v10BuiltinCatalogs()[0]!,
  'specification/v0_8/json/standard_catalog_definition.json': () => v08BuiltinCatalogs()[0]!,
};

/**
 * The catalog ids the suite's cases use to mean the basic catalog of their own version. Besides
 * these, as in the reference harness, a catalog id a case's `createSurface` names but defines
 * nowhere means that catalog too — unless the case expects a `CatalogError`.
 */
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
/**
 * v0.8 validators for the case's inline v0.8 catalogs, by catalog id (the first also under the
 * standard catalog's id, which it stands for): the v0.8 reader checks components with them.
 */
export function v08CaseValidators(testCase: ConformanceCase): Record<string, V08Validator> {
  const validators: Record<string, V08Validator> = {};
  for (const inline of [testCase.catalog, ...(testCase.catalogs ?? [])]) {
    if (!inline || !isRecord(inline.components) || inline.catalogId === undefined) continue;
    const validator = compileV08CatalogValidator({ components: inline.components });
    validators[String(inline.catalogId)] = validator;
    validators[V08_STANDARD_CATALOG_ID] ??= validator;
  }
  return validators;
}

export function caseCatalogs(
  testCase: ConformanceCase,
  version: ConformanceProtocolVersion,
  context: ConformanceContext,
): Catalog[] {
  const catalogs: Catalog[] = [];
  const paths = [...(testCase.catalogPaths ?? [])];
  if (testCase.catalogPath) paths.push(testCase.catalogPath);
  for (const path of paths) catalogs.push(specCatalog(path, context));
  for (const entry of [testCase.catalog, ...(testCase.catalogs ?? [])]) {
    const inline = withCatalogSchema(entry);
    if (inline?.catalogId !== undefined) catalogs.push(inlineCatalog(inline, version));
  }
  const basic = SPEC_CATALOGS[BASIC_CATALOG_PATHS[version]]?.();
  // A case naming official catalog files means the first of them by every alias.
  const target = paths.length > 0 && catalogs[0] ? catalogs[0] : basic;
  const aliases = new Set(BASIC_CATALOG_ALIASES);
  // A v0.8 case's own catalog stands for the default catalog its beginRendering implies.
  if (version === 'v0.8' && paths.length === 0 && catalogs[0]) {
    catalogs.push(extendCatalog(catalogs[0], { catalogId: V08_STANDARD_CATALOG_ID }));
  }
  if (!expectsCatalogError(testCase)) for (const id of createdCatalogIds(testCase)) aliases.add(id);
  for (const alias of aliases) {
    if (!target || catalogs.some((catalog) => catalog.catalogId === alias)) continue;
    catalogs.push(
      version === 'v1.0' && alias === 'basic' && target === basic
        ? unvalidatedAlias(target, alias)
        : extendCatalog(target, { catalogId: alias }),
    );
  }
  return catalogs;
}

/**
 * The reference harness's v1.0 `basic` (`v10_basic_alias`): the v1.0 basic catalog's components
 * and functions under another id, built without its schema, so its components are not
 * schema-checked (`validation_result.yaml` sends a `TextField` without `label` to it).
 */
function unvalidatedAlias(catalog: Catalog, catalogId: string): Catalog {
  return createCatalog({
    catalogId,
    components: catalog.components,
    functions: catalog.functions.values(),
    schema: catalog.schema,
    protocolVersion: catalog.protocolVersion,
  });
}

/**
 * A case's `catalog` may nest the definition under `catalogSchema` beside its `protocolVersion`
 * (`composition_constraints.yaml`): read it as one inline catalog.
 */
function withCatalogSchema(entry: ConformanceCatalog | undefined): ConformanceCatalog | undefined {
  if (!entry || !isRecord(entry.catalogSchema)) return entry;
  const { catalogSchema, ...rest } = entry;
  return { ...rest, ...(catalogSchema as ConformanceCatalog) };
}

function specCatalog(path: string, context: ConformanceContext): Catalog {
  const known = SPEC_CATALOGS[path];
  if (known) return known();
  if (path.startsWith('specification/'))
    throw new Error(`No catalog of ours stands for ${path}: add it to SPEC_CATALOGS.`);
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
  version: ConformanceProtocolVersion,
): Catalog {
  const catalogId = String(inline.catalogId);
  // The catalog speaks its own protocolVersion, else the case's (v1.0 surfaces refuse v0.9 catalogs).
  const protocolVersion = inline.protocolVersion ?? (version === 'v0.9.1' ? 'v0.9' : version);
  if (!isRecord(inline.components) && !isRecord(inline.theme)) {
    const basic = SPEC_CATALOGS[BASIC_CATALOG_PATHS[version]]?.() ?? basicCatalog;
    return extendCatalog(basic, { catalogId, protocolVersion });
  }
  if (protocolVersion === 'v0.8') {
    // v0.8 components are checked against these (v0.8-shaped) schemas by the v0.8 reader
    // (`v08CaseValidators`), before they are upgraded; the upgraded ones have no schema here.
    return createCatalog({
      catalogId,
      protocolVersion,
      components: Object.keys(inline.components ?? {}),
      functions: BASIC_FUNCTIONS,
    });
  }
  const components: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(inline.components ?? {}))
    components[name] = wrapComponentSchema(name, schema);
  const schema: Record<string, unknown> = { catalogId, components };
  if (isRecord(inline.theme)) schema.$defs = { theme: inline.theme };
  if (isRecord(inline.$defs)) schema.$defs = { ...inline.$defs, ...(schema.$defs as object) };
  return createCatalog({
    catalogId,
    protocolVersion,
    schema,
    functions: BASIC_FUNCTIONS,
    validator: compileCatalogValidator(schema, { catalogId }),
  });
}

function wrapComponentSchema(name: string, schema: unknown): unknown {
  if (!isRecord(schema) || schema.allOf !== undefined) return schema;
  const {
    additionalProperties,
    properties,
    required,
    type: _type,
    allowedParents,
    allowedChildren,
    ...rest
  } = schema;
  const wrapped: Record<string, unknown> = {
    type: 'object',
    // Composition constraints stay on the component definition, where catalogs declare them.
    ...(allowedParents === undefined ? {} : { allowedParents }),
    ...(allowedChildren === undefined ? {} : { allowedChildren }),
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

function expectsCatalogError(testCase: ConformanceCase): boolean {
  return [testCase.expectError, ...(testCase.steps ?? []).map((step) => step.expectError)].some(
    (expected) => typeof expected === 'object' && expected?.category === 'CatalogError',
  );
}

/** Every `catalogId` of a `createSurface` or `beginRendering` among the case's messages. */
function createdCatalogIds(testCase: ConformanceCase): string[] {
  const ids: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (isRecord(value)) {
      for (const kind of ['createSurface', 'beginRendering']) {
        const body = value[kind];
        if (isRecord(body) && typeof body.catalogId === 'string') ids.push(body.catalogId);
      }
      if (value.messages !== undefined) visit(value.messages, depth + 1);
    }
  };
  visit(
    [
      testCase.messages,
      testCase.payload,
      ...(testCase.steps ?? []).map((s) => s.messages ?? s.payload),
    ],
    0,
  );
  return ids;
}
