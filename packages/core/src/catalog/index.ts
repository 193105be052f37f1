export type { Catalog, CreateCatalogOptions } from './catalog.js';
export { createCatalog, extendCatalog } from './catalog.js';
export type {
  AllowedCallers,
  CatalogDefinition,
  CatalogFromJsonOptions,
  CatalogFunctionInfo,
  CatalogFunctionReturnType,
} from './catalog-definition.js';
export {
  ALLOWED_CALLERS,
  catalogFromJson,
  catalogSchema,
  describeCatalogFunction,
  normalizeProtocolVersion,
} from './catalog-definition.js';
export {
  COPILOTKIT_CATALOG_IDS,
  supportsCatalogId,
  toSpecCatalogId,
} from './catalog-id-aliases.js';
export type { ClientCapabilitiesOptions } from './catalog-registry.js';
export { CatalogRegistry } from './catalog-registry.js';
export type {
  CompositionRules,
  CompositionViolation,
  Placement,
} from './composition.js';
export { checkPlacement, compositionRulesOf, SURFACE_CONTAINER_TYPE } from './composition.js';
export type { McpAppCatalogOptions } from './create-mcp-app-catalog.js';
export { createMcpAppCatalog } from './create-mcp-app-catalog.js';
export { basicCatalog, createDefaultCatalogs, minimalCatalog } from './default-catalogs.js';
export { COMPONENT_COMMON_REF, toInlineCatalog, toInlineComponent } from './inline-catalog.js';
export type { InlineSchemaRefsOptions, JsonSchema } from './inline-schema-refs.js';
export { COMMON_TYPES_REFERENCES, inlineSchemaRefs } from './inline-schema-refs.js';
export {
  MCP_APP_CATALOG_ID,
  MCP_APP_CATALOG_V1_0_ID,
  MCP_APP_COMPONENT_SCHEMA,
  MCP_APP_V1_0_COMPONENT_SCHEMA,
  mcpAppCatalogSchema,
  mcpAppCatalogV1Schema,
} from './mcp-app-catalog.js';
export type {
  CapabilityCatalog,
  RendererCapabilitiesOptions,
  VersionCapabilities,
  VersionedCapabilities,
} from './renderer-capabilities.js';
export { catalogProtocolVersion, rendererCapabilities } from './renderer-capabilities.js';
