/**
 * Catalog definitions in the official shape (v1.0 `catalog_definition.json`, v0.9 catalog
 * documents, v0.8 component/styles catalogs): reading one (`Catalog.from_json` of the official
 * SDKs) and writing it back as a catalog schema (`catalog_schema`). Conformance:
 * `core/catalog.yaml`.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord, setOwn } from '../protocol/guards.js';
import {
  COMMON_TYPES_REFERENCES,
  inlineSchemaRefs,
  type JsonSchema,
} from './inline-schema-refs.js';

/**
 * Who may invoke a catalog function (v1.0 `FunctionDefinition.allowedCallers`):
 * `rendererOnly` (the default: bindings, checks and local actions), `agentOnly` (only through
 * `callRendererFunction`), `rendererOrAgent` (both).
 */
export type AllowedCallers = 'rendererOnly' | 'agentOnly' | 'rendererOrAgent';

/** Every {@link AllowedCallers} value, in the schema's order. */
export const ALLOWED_CALLERS: readonly AllowedCallers[] = [
  'rendererOnly',
  'agentOnly',
  'rendererOrAgent',
];

/** Declared result of a catalog function (v1.0 `FunctionDefinition.returnType`). */
export type CatalogFunctionReturnType =
  | 'string'
  | 'number'
  | 'boolean'
  | 'array'
  | 'object'
  | 'validationResult'
  | 'any'
  | 'void';

const RETURN_TYPES = new Set<string>([
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'validationResult',
  'any',
  'void',
]);

/**
 * A catalog as read by {@link catalogFromJson}: every `$ref` to `#/$defs/…` and to the common
 * types inlined, components and functions limited to those `$defs.anyComponent` /
 * `$defs.anyFunction` admit (when they list them).
 */
export interface CatalogDefinition {
  /** Unique identifier (`""` only for a v0.8 catalog that carries none). */
  readonly catalogId: string;
  /** The A2UI version the catalog is written for, `v`-prefixed (`"v0.9"`, `"v1.0"`). */
  readonly protocolVersion: string;
  readonly title?: string;
  readonly description?: string;
  /** Markdown design guidelines for models and authors (v1.0; replaces `rules.txt`). */
  readonly instructions?: string;
  /** Component schemas by type name; each may carry `allowedParents` / `allowedChildren`. */
  readonly components: Readonly<Record<string, JsonSchema>>;
  /** Function definitions by name, as written (`returnType`, `allowedCallers`, … beside the schema). */
  readonly functions: Readonly<Record<string, JsonSchema>>;
  /** The theme schema (v0.9 `theme` / `$defs.theme`, v0.8 `styles`); `{}` when none (always in v1.0). */
  readonly theme: JsonSchema;
}

/** Options of {@link catalogFromJson}. */
export interface CatalogFromJsonOptions {
  /** Overrides the document's `catalogId`. @default the document's `catalogId`, else its `$id` */
  catalogId?: string;
  /**
   * The version to read the document as (`"v0.8"`, `"0.9"`, `"v1.0"`, …).
   * @default the document's `protocolVersion`, else `"v0.9"` (the schema's default)
   */
  protocolVersion?: string;
  /** Documents refs may point into, by `$id`. @default v0.9 `common_types.json` */
  references?: Readonly<Record<string, JsonSchema>>;
}

/** Metadata of one catalog function, defaults applied (v1.0 `FunctionDefinition`). */
export interface CatalogFunctionInfo {
  readonly name: string;
  /** @default `"any"` when the definition declares none (v0.9 schema-shaped functions may not) */
  readonly returnType: CatalogFunctionReturnType;
  /** @default `"rendererOnly"` */
  readonly allowedCallers: AllowedCallers;
  /** @default false */
  readonly requiresUserActivation: boolean;
  /** JSON Schema of the arguments: `parameters`, else the schema of `args`; `{type: "object"}` when none. */
  readonly parameters: JsonSchema;
}

/** UAX #31 identifier, the rule v1.0 sets for component, function and argument names. */
const ENTITY_NAME = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

const catalogError = (message: string, path?: string): A2uiError =>
  new A2uiError('CATALOG_ERROR', message, path === undefined ? {} : { path });

/**
 * Spells a protocol version the way messages do: `"1.0"` → `"v1.0"`, `"v0.9"` stays.
 *
 * @throws A2uiError `CATALOG_ERROR` when `version` is not `[v]MAJOR.MINOR[.PATCH]`
 */
export function normalizeProtocolVersion(version: string): string {
  const match = /^v?((?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:\.(?:0|[1-9]\d*))?)$/.exec(version);
  if (!match) throw catalogError(`"${version}" is not a protocol version (e.g. "v1.0").`);
  return `v${match[1]}`;
}

/** Major/minor of a `v`-prefixed version, for "at least v1.0" checks. */
const atLeastV1 = (version: string): boolean => Number(version.slice(1).split('.')[0]) >= 1;

/** Names a `$defs.anyX.oneOf` admits (`#/components/Name` refs), or `undefined` when it lists none. */
function admitted(defs: unknown, key: string, section: string): Set<string> | undefined {
  const any = isRecord(defs) ? defs[key] : undefined;
  if (!isRecord(any) || !Array.isArray(any.oneOf)) return undefined;
  const prefix = `#/${section}/`;
  const names = new Set<string>();
  for (const option of any.oneOf) {
    const ref = isRecord(option) ? option.$ref : undefined;
    if (typeof ref === 'string' && ref.startsWith(prefix))
      names.add(
        decodeURIComponent(ref.slice(prefix.length)).replace(/~1/g, '/').replace(/~0/g, '~'),
      );
  }
  return names;
}

function readSection(
  json: JsonSchema,
  section: 'components' | 'functions',
  anyKey: string,
  inline: (schema: unknown) => unknown,
): Record<string, JsonSchema> {
  const value = json[section];
  if (value === undefined) return {};
  if (!isRecord(value)) throw catalogError(`"${section}" must be an object.`, `/${section}`);
  const allow = admitted(json.$defs, anyKey, section);
  const out: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(value)) {
    if (allow && !allow.has(name)) continue;
    if (!isRecord(schema))
      throw catalogError(`${section}.${name} must be a schema object.`, `/${section}/${name}`);
    setOwn(out, name, inline(schema) as JsonSchema);
  }
  return out;
}

function readTheme(json: JsonSchema, version: string, inline: (schema: unknown) => unknown) {
  if (atLeastV1(version)) return {};
  const defs = isRecord(json.$defs) ? json.$defs : {};
  const theme = version === 'v0.8' ? (json.styles ?? json.theme) : (json.theme ?? defs.theme);
  return isRecord(theme) ? (inline(theme) as JsonSchema) : {};
}

/**
 * Reads a catalog document. Accepts v0.8 catalogs (`components` + `styles`), v0.9 catalog
 * documents (`catalogId`, `components`, `functions`, `theme` or `$defs.theme`) and v1.0
 * definitions (`protocolVersion`, `instructions`, function `returnType` / `allowedCallers` /
 * `requiresUserActivation`, component `allowedParents` / `allowedChildren`). For v1.0 and later it
 * also enforces the definition's rules: no component named `Surface`, UAX #31 names, known
 * `returnType` and `allowedCallers` values, `requiresUserActivation` a boolean.
 *
 * @param json - The parsed catalog document.
 * @param options - See {@link CatalogFromJsonOptions}.
 * @returns The catalog definition; the input is not modified.
 * @throws A2uiError `CATALOG_ERROR` when the document is not an object, has no catalog id (v0.9
 *   and later: "catalog_id must be provided or exist in catalog_schema"), a malformed section or a
 *   definition that breaks a v1.0 rule (`path` points at it)
 *
 * @example
 * ```ts
 * const charts = catalogFromJson(await (await fetch('/charts.json')).json());
 * charts.functions.sum; // { returnType: 'number', allowedCallers: 'rendererOrAgent', … }
 * ```
 */
export function catalogFromJson(
  json: unknown,
  options: CatalogFromJsonOptions = {},
): CatalogDefinition {
  if (!isRecord(json)) throw catalogError('A catalog must be a JSON object.');
  const declared = options.protocolVersion ?? json.protocolVersion;
  const protocolVersion = normalizeProtocolVersion(
    typeof declared === 'string' ? declared : 'v0.9',
  );
  const catalogId =
    options.catalogId ??
    (typeof json.catalogId === 'string' ? json.catalogId : undefined) ??
    (typeof json.$id === 'string' ? json.$id : undefined) ??
    '';
  if (catalogId === '' && protocolVersion !== 'v0.8') {
    throw catalogError(
      'A catalog needs a "catalogId" (catalog_id must be provided or exist in catalog_schema).',
      '/catalogId',
    );
  }
  const references = options.references ?? COMMON_TYPES_REFERENCES;
  const inline = (schema: unknown) => inlineSchemaRefs(schema, { root: json, references });
  const definition: {
    -readonly [K in keyof CatalogDefinition]: CatalogDefinition[K];
  } = {
    catalogId,
    protocolVersion,
    components: readSection(json, 'components', 'anyComponent', inline),
    functions: readSection(json, 'functions', 'anyFunction', inline),
    theme: readTheme(json, protocolVersion, inline),
  };
  for (const key of ['title', 'description', 'instructions'] as const) {
    const value = json[key];
    if (typeof value === 'string') definition[key] = value;
  }
  if (atLeastV1(protocolVersion)) checkV1Rules(definition);
  return definition;
}

function checkV1Rules(definition: CatalogDefinition): void {
  for (const name of Object.keys(definition.components)) {
    if (name === 'Surface')
      throw catalogError(
        'A catalog must not define a component named "Surface": the name is reserved for the surface container.',
        '/components/Surface',
      );
    if (!ENTITY_NAME.test(name))
      throw catalogError(
        `Component name "${name}" is not a UAX #31 identifier.`,
        `/components/${name}`,
      );
  }
  for (const name of Object.keys(definition.functions)) {
    if (!ENTITY_NAME.test(name))
      throw catalogError(
        `Function name "${name}" is not a UAX #31 identifier.`,
        `/functions/${name}`,
      );
    describeCatalogFunction(definition, name);
  }
}

function declaredReturnType(schema: JsonSchema): unknown {
  if (schema.returnType !== undefined) return schema.returnType;
  // v0.9 catalog files declare it as a schema property: `properties.returnType.const`.
  const properties = isRecord(schema.properties) ? schema.properties : {};
  return isRecord(properties.returnType) ? properties.returnType.const : undefined;
}

function declaredParameters(schema: JsonSchema): JsonSchema {
  if (isRecord(schema.parameters)) return schema.parameters;
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
  for (const part of parts) {
    const properties = isRecord(part) && isRecord(part.properties) ? part.properties : undefined;
    if (properties && isRecord(properties.args)) return properties.args;
  }
  return { type: 'object' };
}

/**
 * The metadata of function `name` of `definition`, defaults applied.
 *
 * @throws A2uiError `CATALOG_ERROR` when the catalog has no such function, or its `returnType`,
 *   `allowedCallers` or `requiresUserActivation` holds a value the v1.0 schema does not allow
 *
 * @example
 * ```ts
 * describeCatalogFunction(catalog, 'openUrl').requiresUserActivation; // true
 * ```
 */
export function describeCatalogFunction(
  definition: CatalogDefinition,
  name: string,
): CatalogFunctionInfo {
  const schema = Object.hasOwn(definition.functions, name) ? definition.functions[name] : undefined;
  if (!schema) throw catalogError(`Catalog "${definition.catalogId}" has no function "${name}".`);
  const path = `/functions/${name}`;
  const returnType = declaredReturnType(schema) ?? 'any';
  if (typeof returnType !== 'string' || !RETURN_TYPES.has(returnType))
    throw catalogError(`Function "${name}" has an unknown returnType.`, `${path}/returnType`);
  const allowedCallers = schema.allowedCallers ?? 'rendererOnly';
  if (!ALLOWED_CALLERS.includes(allowedCallers as AllowedCallers))
    throw catalogError(
      `Function "${name}" has allowedCallers ${JSON.stringify(allowedCallers)}; expected one of ${ALLOWED_CALLERS.join(', ')}.`,
      `${path}/allowedCallers`,
    );
  const requiresUserActivation = schema.requiresUserActivation ?? false;
  if (typeof requiresUserActivation !== 'boolean')
    throw catalogError(
      `Function "${name}" has a requiresUserActivation that is not a boolean.`,
      `${path}/requiresUserActivation`,
    );
  return {
    name,
    returnType: returnType as CatalogFunctionReturnType,
    allowedCallers: allowedCallers as AllowedCallers,
    requiresUserActivation,
    parameters: declaredParameters(schema),
  };
}

const refsTo = (section: string, names: string[]) => ({
  oneOf: names.map((name) => ({
    $ref: `#/${section}/${encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'))}`,
  })),
});

/**
 * Writes a catalog definition back as a catalog schema document (`catalog_schema` of the official
 * SDKs): v0.8 as `{protocolVersion, components, styles}`; v0.9 and later with `catalogId`,
 * `components`, `functions`, `$defs.anyComponent` (a `oneOf` over the components), v0.9's
 * `theme` (also as `$defs.theme`) and, from v1.0 on, `instructions` and `$defs.anyFunction`.
 *
 * @param definition - A catalog as {@link catalogFromJson} returns it.
 * @returns A new JSON document.
 *
 * @example
 * ```ts
 * const document = catalogSchema(catalogFromJson(json, { protocolVersion: 'v1.0' }));
 * ```
 */
export function catalogSchema(definition: CatalogDefinition): JsonSchema {
  const { protocolVersion, components, functions, theme } = definition;
  if (protocolVersion === 'v0.8') {
    const out: JsonSchema = {
      protocolVersion,
      components: { ...components },
      styles: { ...theme },
    };
    if (definition.catalogId !== '') out.catalogId = definition.catalogId;
    return out;
  }
  const out: JsonSchema = { catalogId: definition.catalogId, protocolVersion };
  for (const key of ['title', 'description', 'instructions'] as const)
    if (definition[key] !== undefined) out[key] = definition[key];
  out.components = { ...components };
  const functionNames = Object.keys(functions);
  if (functionNames.length > 0) out.functions = { ...functions };
  const defs: JsonSchema = { anyComponent: refsTo('components', Object.keys(components)) };
  if (atLeastV1(protocolVersion)) {
    if (functionNames.length > 0) defs.anyFunction = refsTo('functions', functionNames);
  } else if (Object.keys(theme).length > 0) {
    out.theme = theme;
    defs.theme = theme;
  }
  out.$defs = defs;
  return out;
}
