/**
 * Inline catalogs as renderer capabilities carry them (v0.9 `client_capabilities.json#/$defs/Catalog`,
 * conformance `core/message_processor.yaml` `test_v09_get_renderer_capabilities_*`).
 */
import { isRecord, setOwn } from '../protocol/guards.js';
import type {
  FunctionDefinition,
  FunctionReturnType,
  InlineCatalog,
} from '../protocol/messages.js';
import type { JsonSchema } from './inline-schema-refs.js';

/** The ref every inline component is wrapped with, relative as the capabilities schemas write it. */
export const COMPONENT_COMMON_REF = 'common_types.json#/$defs/ComponentCommon';

const V09_RETURN_TYPES = new Set(['string', 'number', 'boolean', 'array', 'object', 'any', 'void']);

/** `"REF:<ref>|<description>"` descriptions (the SDKs' compact catalog notation) become `$ref` nodes. */
function expandRefDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(expandRefDescriptions);
  if (!isRecord(node)) return node;
  const description = node.description;
  if (typeof description === 'string' && description.startsWith('REF:')) {
    const bar = description.indexOf('|');
    const ref = description.slice(4, bar < 0 ? undefined : bar);
    const out: JsonSchema = { $ref: ref };
    if (bar >= 0) out.description = description.slice(bar + 1);
    return out;
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) setOwn(out, key, expandRefDescriptions(value));
  return out;
}

const wrapsComponentCommon = (schema: JsonSchema): boolean =>
  Array.isArray(schema.allOf) &&
  schema.allOf.some(
    (part) =>
      isRecord(part) && typeof part.$ref === 'string' && part.$ref.endsWith('/ComponentCommon'),
  );

/**
 * A component schema in the inline shape: `{allOf: [{$ref: ComponentCommon}, {properties:
 * {component: {const: name}, …}, required: ["component", …]}]}`. A schema already wrapped with
 * `ComponentCommon` (every official catalog's) is kept as is.
 *
 * @param name - The component type.
 * @param schema - Its schema as the catalog writes it.
 * @returns A new schema.
 *
 * @example
 * ```ts
 * toInlineComponent('Button', { type: 'object', properties: { label: { type: 'string' } } });
 * ```
 */
export function toInlineComponent(name: string, schema: JsonSchema): JsonSchema {
  const expanded = expandRefDescriptions(schema) as JsonSchema;
  if (wrapsComponentCommon(expanded)) return expanded;
  const properties: JsonSchema = { component: { const: name } };
  if (isRecord(expanded.properties))
    for (const [key, value] of Object.entries(expanded.properties)) setOwn(properties, key, value);
  const required = ['component'];
  if (Array.isArray(expanded.required))
    for (const key of expanded.required)
      if (typeof key === 'string' && key !== 'component') required.push(key);
  return { allOf: [{ $ref: COMPONENT_COMMON_REF }, { properties, required }] };
}

/** A function definition as written in a catalog, in either shape, as an inline `FunctionDefinition`. */
function toInlineFunction(name: string, definition: unknown): FunctionDefinition {
  const fn = isRecord(definition) ? definition : {};
  const properties = isRecord(fn.properties) ? fn.properties : {};
  // The conformance shape writes `{returnType, parameters}`; catalog files a schema whose
  // `properties` hold `returnType: {const}` and `args`.
  const declared =
    fn.returnType ?? (isRecord(properties.returnType) ? properties.returnType.const : undefined);
  const returnType: FunctionReturnType =
    declared === 'validationResult'
      ? 'object'
      : V09_RETURN_TYPES.has(declared as string)
        ? (declared as FunctionReturnType)
        : 'any';
  const parameters = isRecord(fn.parameters)
    ? fn.parameters
    : isRecord(properties.args)
      ? properties.args
      : { type: 'object' };
  const out: FunctionDefinition = {
    name,
    returnType,
    parameters: expandRefDescriptions(parameters) as JsonSchema,
  };
  if (typeof fn.description === 'string') out.description = fn.description;
  return out;
}

/**
 * Converts a catalog document (the `catalog.json` format, or the compact one of the SDKs'
 * conformance cases) into the inline `Catalog` of `client_capabilities.json`: components wrapped
 * with the common component schema ({@link toInlineComponent}), functions as an array of
 * `{name, returnType, parameters}`, the theme as its property schemas (from `theme` or
 * `$defs.theme`).
 *
 * @param catalogId - The id to send.
 * @param schema - The catalog document.
 * @returns The inline catalog; sections the document lacks are left out.
 *
 * @example
 * ```ts
 * toInlineCatalog('cat-1', { components: { Button: { type: 'object' } } });
 * // { catalogId: 'cat-1', components: { Button: { allOf: [{ $ref: 'common_types.json#/$defs/ComponentCommon' }, …] } } }
 * ```
 */
export function toInlineCatalog(catalogId: string, schema: Record<string, unknown>): InlineCatalog {
  const inline: InlineCatalog = { catalogId };
  if (isRecord(schema.components)) {
    const components: JsonSchema = {};
    for (const [name, component] of Object.entries(schema.components))
      if (isRecord(component)) setOwn(components, name, toInlineComponent(name, component));
    inline.components = components;
  }
  if (isRecord(schema.functions)) {
    inline.functions = Object.entries(schema.functions).map(([name, definition]) =>
      toInlineFunction(name, definition),
    );
  }
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const theme = isRecord(schema.theme) ? schema.theme : defs.theme;
  if (isRecord(theme) && isRecord(theme.properties))
    inline.theme = expandRefDescriptions(theme.properties) as JsonSchema;
  return inline;
}
