/**
 * The opt-in "MCP Apps in A2UI" catalogs (A2UI v1.0 guide `mcp-apps-in-a2ui.md`): the v0.9 and
 * the v1.0 basic catalog, each plus `McpApp`, a component that shows an MCP App (a `ui://` HTML resource, MIME
 * `text/html;profile=mcp-app`) in a double-iframe sandbox. Only the catalog *definition* lives
 * here, so agents name it without a renderer; renderers implement the component (React:
 * `@a2ui-ts/react-renderer/mcp-app`).
 */
import basicSchema from '../validation/schemas/catalogs/basic/catalog.json' with { type: 'json' };
import v10BasicSchema from '../validation/schemas/v1_0/catalogs/basic/catalog.json' with {
  type: 'json',
};

/**
 * Catalog id of the MCP Apps catalog. A surface must name it in `createSurface.catalogId` to use
 * `McpApp`; a client that did not register the catalog never lists it in its capabilities, so
 * an agent cannot send an MCP App to a host that did not opt in.
 */
export const MCP_APP_CATALOG_ID = 'https://a2ui-ts.dev/catalogs/mcp-apps/v0_9/catalog.json';

/**
 * Catalog id of the v1.0 MCP Apps catalog: the v1.0 basic catalog plus `McpApp` (the same
 * properties, v1.0 common types), `protocolVersion` "1.0". A surface created in v1.0 names it.
 */
export const MCP_APP_CATALOG_V1_0_ID = 'https://a2ui-ts.dev/catalogs/mcp-apps/v1_0/catalog.json';

const COMMON = 'https://a2ui.org/specification/v0_9/common_types.json#/$defs';
const V1_0_COMMON = 'https://a2ui.org/specification/v1_0/common_types.json#/$defs';

/** `McpApp`'s own properties, with the common types of the version at `common`. */
const mcpAppProperties = (common: string) =>
  ({
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
        $ref: `${common}/DynamicString`,
        description: 'Accessible name of the app frame.',
      },
      allowedTools: {
        type: 'array',
        items: { type: 'string' },
        description:
          "MCP tools the app may call. The host's own allow-list still applies: a tool runs only when both allow it.",
      },
      value: {
        $ref: `${common}/DataBinding`,
        description:
          "Where the app's model context (structuredContent of ui/update-model-context) is written, so sibling components bound to it update.",
      },
      action: {
        $ref: `${common}/Action`,
        description: 'Sent after each model-context update, its context resolved after the write.',
      },
      height: {
        type: 'number',
        minimum: 40,
        description: 'Initial frame height in CSS pixels before the app reports its size.',
      },
    },
    required: ['component', 'title'],
  }) as const;

const DESCRIPTION =
  'An MCP App: a ui:// HTML resource of the MCP server, run in a double-iframe sandbox (no same-origin access, no top navigation).';

/** JSON Schema of the `McpApp` component (v0.9 common types). */
export const MCP_APP_COMPONENT_SCHEMA = {
  type: 'object',
  description: DESCRIPTION,
  allOf: [
    { $ref: `${COMMON}/ComponentCommon` },
    { $ref: '#/$defs/CatalogComponentCommon' },
    mcpAppProperties(COMMON),
  ],
  unevaluatedProperties: false,
} as const;

/**
 * JSON Schema of the `McpApp` component in v1.0: as the v1.0 basic components, only its own
 * properties (the v1.0 family adds `ComponentCommon` and refuses unknown properties).
 */
export const MCP_APP_V1_0_COMPONENT_SCHEMA = {
  ...mcpAppProperties(V1_0_COMMON),
  description: DESCRIPTION,
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

/**
 * The v1.0 MCP Apps catalog document: the v1.0 basic catalog's components and functions with
 * `McpApp` added, under {@link MCP_APP_CATALOG_V1_0_ID}, `protocolVersion` "1.0".
 */
export function mcpAppCatalogV1Schema(): Record<string, unknown> {
  const { anyComponent: _derivedAgain, ...defs } = v10BasicSchema.$defs as Record<string, unknown>;
  return {
    ...structuredClone(v10BasicSchema),
    $id: MCP_APP_CATALOG_V1_0_ID,
    catalogId: MCP_APP_CATALOG_V1_0_ID,
    title: 'A2UI v1.0 basic catalog with McpApp',
    description:
      'The v1.0 basic catalog plus McpApp, an MCP App (ui:// HTML resource) in a double-iframe sandbox.',
    components: {
      ...structuredClone(v10BasicSchema.components),
      McpApp: structuredClone(MCP_APP_V1_0_COMPONENT_SCHEMA),
    },
    $defs: structuredClone(defs),
  };
}
