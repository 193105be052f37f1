/**
 * The opt-in "MCP Apps in A2UI" catalog (A2UI v1.0 guide `mcp-apps-in-a2ui.md`): the v0.9 basic
 * catalog plus `McpApp`, a component that shows an MCP App (a `ui://` HTML resource, MIME
 * `text/html;profile=mcp-app`) in a double-iframe sandbox. Only the catalog *definition* lives
 * here, so agents name it without a renderer; renderers implement the component (React:
 * `@a2ui-ts/react-renderer/mcp-app`).
 */
import basicSchema from '../validation/schemas/catalogs/basic/catalog.json' with { type: 'json' };

/**
 * Catalog id of the MCP Apps catalog. A surface must name it in `createSurface.catalogId` to use
 * `McpApp`; a client that did not register the catalog never lists it in its capabilities, so
 * an agent cannot send an MCP App to a host that did not opt in.
 */
export const MCP_APP_CATALOG_ID = 'https://a2ui-ts.dev/catalogs/mcp-apps/v0_9/catalog.json';

const COMMON = 'https://a2ui.org/specification/v0_9/common_types.json#/$defs';

/** JSON Schema of the `McpApp` component (v0.9 common types). */
export const MCP_APP_COMPONENT_SCHEMA = {
  type: 'object',
  description:
    'An MCP App: a ui:// HTML resource of the MCP server, run in a double-iframe sandbox (no same-origin access, no top navigation).',
  allOf: [
    { $ref: `${COMMON}/ComponentCommon` },
    { $ref: '#/$defs/CatalogComponentCommon' },
    {
      type: 'object',
      properties: {
        component: { const: 'McpApp' },
        resourceUri: {
          type: 'string',
          pattern: '^ui://',
          description: 'The ui:// resource of the MCP server holding the app HTML.',
        },
        content: {
          type: 'string',
          description:
            'The app HTML inline, or "url_encoded:" followed by it percent-encoded (the guide\'s form). Used when resourceUri is absent.',
        },
        title: {
          $ref: `${COMMON}/DynamicString`,
          description: 'Accessible name of the app frame.',
        },
        allowedTools: {
          type: 'array',
          items: { type: 'string' },
          description:
            "MCP tools the app may call. The host's own allow-list still applies: a tool runs only when both allow it.",
        },
        value: {
          $ref: `${COMMON}/DataBinding`,
          description:
            "Where the app's model context (structuredContent of ui/update-model-context) is written, so sibling components bound to it update.",
        },
        action: {
          $ref: `${COMMON}/Action`,
          description:
            'Sent after each model-context update, its context resolved after the write.',
        },
        height: {
          type: 'number',
          minimum: 40,
          description: 'Initial frame height in CSS pixels before the app reports its size.',
        },
      },
      required: ['component', 'title'],
    },
  ],
  unevaluatedProperties: false,
} as const;

/**
 * The MCP Apps catalog document: the v0.9 basic catalog's components, functions and theme with
 * `McpApp` added, under {@link MCP_APP_CATALOG_ID}. `anyComponent` is left out so that it is
 * derived again over every component (`McpApp` included) when the document is compiled.
 */
export function mcpAppCatalogSchema(): Record<string, unknown> {
  const { anyComponent: _derivedAgain, ...defs } = basicSchema.$defs as Record<string, unknown>;
  return {
    ...structuredClone(basicSchema),
    $id: MCP_APP_CATALOG_ID,
    catalogId: MCP_APP_CATALOG_ID,
    title: 'A2UI basic catalog with McpApp',
    description:
      'The v0.9 basic catalog plus McpApp, an MCP App (ui:// HTML resource) in a double-iframe sandbox.',
    components: {
      ...structuredClone(basicSchema.components),
      McpApp: structuredClone(MCP_APP_COMPONENT_SCHEMA),
    },
    $defs: structuredClone(defs),
  };
}
