/**
 * The tool the LLM agent gives the model: `render_a2ui({messages})`, whose parameter schema is the
 * v0.9 message envelope with the catalog's components and functions inlined, so the model sees the
 * exact catalog it must follow.
 */
import { BASIC_CATALOG_ID, basicCatalog } from '@a2ui-ts/core';
import commonTypes from './common_types.json' with { type: 'json' };

/** Name of the tool the model must call. */
export const RENDER_TOOL_NAME = 'render_a2ui';

/** An OpenAI-compatible function tool definition. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

type Json = unknown;

const COMMON_TYPES_URL = 'https://a2ui.org/specification/v0_9/common_types.json';

/**
 * Rewrites every `$ref` of the catalog and common-types documents to a local `#/$defs/…` target
 * and drops keywords that only make sense in a multi-document schema set.
 */
function localize(value: Json): Json {
  if (Array.isArray(value)) return value.map(localize);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$id' || key === '$schema' || key === 'discriminator') continue;
    if (key === '$ref' && typeof child === 'string') {
      out.$ref = child
        .replace(`${COMMON_TYPES_URL}#/$defs/`, '#/$defs/')
        .replace('catalog.json#/$defs/', '#/$defs/')
        .replace('#/components/', '#/$defs/')
        .replace('#/functions/', '#/$defs/fn_');
      continue;
    }
    out[key] = localize(child);
  }
  return out;
}

/**
 * Builds the `render_a2ui` tool for a catalog document (basic by default).
 *
 * @param catalogSchema - a v0.9 catalog JSON Schema (`components`, `functions`, `$defs`)
 */
export function createRenderTool(
  catalogSchema: Record<string, unknown> = basicCatalog.schema ?? {},
  catalogId = BASIC_CATALOG_ID,
): ChatTool {
  const defs: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(
    (commonTypes as { $defs: Record<string, Json> }).$defs,
  ))
    defs[name] = localize(schema);
  for (const [name, schema] of Object.entries((catalogSchema.$defs ?? {}) as Record<string, Json>))
    defs[name] = localize(schema);
  for (const [name, schema] of Object.entries(
    (catalogSchema.components ?? {}) as Record<string, Json>,
  ))
    defs[name] = localize(schema);
  for (const [name, schema] of Object.entries(
    (catalogSchema.functions ?? {}) as Record<string, Json>,
  ))
    defs[`fn_${name}`] = localize(schema);

  const envelope = (kind: string, body: Record<string, Json>) => ({
    type: 'object',
    properties: {
      version: { const: 'v0.9' },
      [kind]: { type: 'object', additionalProperties: false, ...body },
    },
    required: ['version', kind],
    additionalProperties: false,
  });
  defs.ServerMessage = {
    oneOf: [
      envelope('createSurface', {
        properties: {
          surfaceId: { type: 'string' },
          catalogId: { const: catalogId },
          theme: { $ref: '#/$defs/theme' },
          sendDataModel: {
            type: 'boolean',
            description:
              'When true, the client attaches this surface’s data model to every action.',
          },
        },
        required: ['surfaceId', 'catalogId'],
      }),
      envelope('updateComponents', {
        properties: {
          surfaceId: { type: 'string' },
          components: { type: 'array', minItems: 1, items: { $ref: '#/$defs/anyComponent' } },
        },
        required: ['surfaceId', 'components'],
      }),
      envelope('updateDataModel', {
        properties: {
          surfaceId: { type: 'string' },
          path: {
            type: 'string',
            description: 'JSON Pointer; omitted or "/" replaces the whole data model.',
          },
          value: { description: 'Any JSON value; omit it to remove the value at path.' },
        },
        required: ['surfaceId'],
      }),
      envelope('deleteSurface', {
        properties: { surfaceId: { type: 'string' } },
        required: ['surfaceId'],
      }),
    ],
  };

  return {
    type: 'function',
    function: {
      name: RENDER_TOOL_NAME,
      description:
        'Renders a user interface on the user’s screen with A2UI v0.9 messages. Send, in order: createSurface, ' +
        'updateDataModel (initial data), updateComponents (a flat list; exactly one component has id "root").',
      parameters: {
        type: 'object',
        properties: {
          messages: { type: 'array', minItems: 1, items: { $ref: '#/$defs/ServerMessage' } },
        },
        required: ['messages'],
        $defs: defs,
      },
    },
  };
}
