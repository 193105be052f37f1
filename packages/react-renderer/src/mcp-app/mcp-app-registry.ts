/**
 * The opt-in MCP Apps catalog on both sides of the renderer: the core `Catalog` the client
 * validates `McpApp` surfaces with, and a component registry that renders them.
 */
import {
  basicCatalog,
  type Catalog,
  createCatalog,
  MCP_APP_CATALOG_ID,
  mcpAppCatalogSchema,
} from '@a2ui-ts/core';
import { compileCatalogValidator } from '@a2ui-ts/core/compile';
import { BASIC_COMPONENTS } from '../components/basic-components.js';
import type { ComponentRegistry } from '../registry/component-registry.js';
import { createComponentRegistry } from '../registry/create-component-registry.js';
import { createMcpAppComponent } from './mcp-app.js';
import type { McpAppOptions } from './mcp-app-options.js';

/**
 * The MCP Apps catalog (`MCP_APP_CATALOG_ID`): the v0.9 basic catalog's components and
 * functions plus `McpApp`, validated by its schema. Register it on the client so the catalog is
 * offered to agents and its surfaces are validated:
 * `new A2uiClient({ catalogs: [...createDefaultCatalogs().values(), createMcpAppCatalog()] })`.
 *
 * Compiles the schema at run time (Ajv, needs `eval`): under a CSP without `'unsafe-eval'`,
 * precompile `mcpAppCatalogSchema()` with `a2ui compile-catalog` instead.
 */
export function createMcpAppCatalog(): Catalog {
  const schema = mcpAppCatalogSchema();
  return createCatalog({
    catalogId: MCP_APP_CATALOG_ID,
    schema,
    functions: basicCatalog.functions.values(),
    validator: compileCatalogValidator(schema),
  });
}

/**
 * Registers the MCP Apps catalog's components on `registry`: the basic ones and `McpApp`
 * configured with `options`.
 */
export function registerMcpApp(
  registry: ComponentRegistry,
  options: McpAppOptions,
): ComponentRegistry {
  return registry.registerAll(MCP_APP_CATALOG_ID, {
    ...BASIC_COMPONENTS,
    McpApp: createMcpAppComponent(options),
  });
}

/**
 * A registry with the built-in catalogs and the MCP Apps catalog.
 *
 * @example
 * ```tsx
 * const registry = createMcpAppRegistry({ proxyUrl: '/mcp-app-sandbox.html', server, allowedTools: ['roll_dice'] });
 * <A2UIRenderer client={client} registry={registry} />;
 * ```
 */
export function createMcpAppRegistry(options: McpAppOptions): ComponentRegistry {
  return registerMcpApp(createComponentRegistry(), options);
}
