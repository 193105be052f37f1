/**
 * The input schema of the `render_a2ui` tool, generated from a catalog document: the v0.9 message
 * envelope (`server_to_client.json`) with the catalog's components, functions and theme and the
 * common types inlined as local `#/$defs/…`, so the model sees the exact catalog it must follow
 * in one self-contained JSON Schema every provider accepts.
 */
import { isRecord } from '@a2ui-ts/core';
import {
  type CatalogDocument,
  COMMON_TYPES,
  type JsonSchema,
  parseSchemaRef,
  type SchemaOrigin,
  type SchemaTarget,
} from './catalog-document.js';

/** Name of the tool the model renders with. */
export const RENDER_TOOL_NAME = 'render_a2ui';

/** Keywords that only mean something in a multi-document schema set, or only to one validator. */
const DROPPED_KEYWORDS = new Set(['$id', '$schema', 'discriminator']);

/** Options of {@link createRenderToolSchema}. */
export interface RenderToolSchemaOptions {
  /** Surface ids the model must not use (the agent's own surface). @default [] */
  reservedSurfaceIds?: readonly string[];
}

/**
 * Builds the `render_a2ui` input schema `{messages: ServerMessage[]}` for a catalog. Every `$ref`
 * resolves inside the schema: common types keep their names (`#/$defs/DynamicString`),
 * components are named by type (`#/$defs/Text`), functions get an `fn_` prefix
 * (`#/$defs/fn_formatString`); a catalog name that collides with a common type is prefixed with
 * `catalog_` (a `$def`) or `component_` (a component). A catalog without `anyComponent` or
 * `anyFunction` gets one derived from its components and functions, as core's validator does.
 *
 * @example
 * ```ts
 * const schema = createRenderToolSchema(readCatalogDocument(basicCatalog));
 * schema.$defs.Text; // the basic catalog's Text component schema
 * ```
 */
export function createRenderToolSchema(
  document: CatalogDocument,
  options: RenderToolSchemaOptions = {},
): JsonSchema & { $defs: Record<string, JsonSchema> } {
  const names = nameTable(document);
  const localize = (value: unknown, origin: SchemaOrigin): unknown => {
    if (Array.isArray(value)) return value.map((item) => localize(item, origin));
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (DROPPED_KEYWORDS.has(key)) continue;
      if (key === '$ref' && typeof child === 'string') {
        const target = parseSchemaRef(child, origin);
        const name = target && names.get(targetKey(target));
        out.$ref = name ? `#/$defs/${name}` : child;
        continue;
      }
      out[key] = localize(child, origin);
    }
    return out;
  };

  const defs: Record<string, JsonSchema> = {};
  const put = (target: SchemaTarget, schema: JsonSchema) => {
    defs[names.get(targetKey(target))!] = localize(schema, target.origin) as JsonSchema;
  };
  for (const [name, schema] of Object.entries(COMMON_TYPES))
    put({ origin: 'common', section: '$defs', name }, schema);
  for (const [name, schema] of Object.entries(document.defs))
    put({ origin: 'catalog', section: '$defs', name }, schema);
  for (const [name, schema] of Object.entries(document.components))
    put({ origin: 'catalog', section: 'components', name }, schema);
  for (const [name, schema] of Object.entries(document.functions))
    put({ origin: 'catalog', section: 'functions', name }, schema);

  const defName = (name: string) =>
    names.get(targetKey({ origin: 'catalog', section: '$defs', name }))!;
  const local = (section: SchemaTarget['section'], name: string) =>
    `#/$defs/${names.get(targetKey({ origin: 'catalog', section, name }))}`;
  if (!document.defs.anyComponent) {
    defs[defName('anyComponent')] = {
      oneOf: Object.keys(document.components).map((name) => ({ $ref: local('components', name) })),
    };
  }
  if (!document.defs.anyFunction) {
    const functions = Object.keys(document.functions);
    defs[defName('anyFunction')] =
      functions.length === 0
        ? { not: {}, description: 'This catalog has no functions.' }
        : { oneOf: functions.map((name) => ({ $ref: local('functions', name) })) };
  }
  const themeRef = document.defs.theme
    ? { $ref: `#/$defs/${defName('theme')}` }
    : { type: 'object' };
  const reserved = options.reservedSurfaceIds ?? [];
  const surfaceId: JsonSchema = {
    type: 'string',
    description:
      reserved.length === 0
        ? 'The surface this message targets.'
        : `The surface this message targets; never ${reserved.map((id) => `"${id}"`).join(', ')} (the agent's own).`,
  };
  defs.ServerMessage = {
    description: 'One A2UI v0.9 server message: "version" plus exactly one of the four kinds.',
    oneOf: [
      envelope('createSurface', {
        properties: {
          surfaceId,
          catalogId: { const: document.catalogId },
          theme: themeRef,
          sendDataModel: {
            type: 'boolean',
            description:
              'When true, the client attaches this surface’s whole data model to every action it sends.',
          },
        },
        required: ['surfaceId', 'catalogId'],
      }),
      envelope('updateComponents', {
        properties: {
          surfaceId,
          components: {
            type: 'array',
            minItems: 1,
            description: 'A flat list; each component is upserted by id.',
            items: { $ref: `#/$defs/${defName('anyComponent')}` },
          },
        },
        required: ['surfaceId', 'components'],
      }),
      envelope('updateDataModel', {
        properties: {
          surfaceId,
          path: {
            type: 'string',
            description: 'JSON Pointer; omitted or "/" replaces the whole data model.',
          },
          value: { description: 'Any JSON value; omit it to remove the value at path.' },
        },
        required: ['surfaceId'],
      }),
      envelope('deleteSurface', { properties: { surfaceId }, required: ['surfaceId'] }),
    ],
  };
  return {
    type: 'object',
    properties: {
      messages: {
        type: 'array',
        minItems: 1,
        description: 'A2UI v0.9 messages, applied in order.',
        items: { $ref: '#/$defs/ServerMessage' },
      },
    },
    required: ['messages'],
    additionalProperties: false,
    $defs: defs,
  };
}

function envelope(kind: string, body: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      version: { const: 'v0.9' },
      [kind]: { type: 'object', additionalProperties: false, ...body },
    },
    required: ['version', kind],
    additionalProperties: false,
  };
}

function targetKey(target: SchemaTarget): string {
  return `${target.origin}:${target.section}:${target.name}`;
}

/** Local `$defs` names of every schema the tool schema holds, collisions resolved by prefix. */
function nameTable(document: CatalogDocument): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>(['ServerMessage']);
  const claim = (target: SchemaTarget, name: string, prefix: string) => {
    let local = name;
    while (taken.has(local)) local = `${prefix}${local}`;
    taken.add(local);
    names.set(targetKey(target), local);
  };
  for (const name of Object.keys(COMMON_TYPES))
    claim({ origin: 'common', section: '$defs', name }, name, 'common_');
  const catalogDefs = new Set([
    ...Object.keys(document.defs),
    'anyComponent',
    'anyFunction',
    'theme',
  ]);
  for (const name of catalogDefs)
    claim({ origin: 'catalog', section: '$defs', name }, name, 'catalog_');
  for (const name of Object.keys(document.components))
    claim({ origin: 'catalog', section: 'components', name }, name, 'component_');
  for (const name of Object.keys(document.functions))
    claim({ origin: 'catalog', section: 'functions', name }, `fn_${name}`, 'fn_');
  return names;
}
