/**
 * The opt-in MCP Apps catalogs' component registry (the `Catalog`s the client validates
 * `McpApp` surfaces with are core's `createMcpAppCatalog`, re-exported by this entry).
 */
import { MCP_APP_CATALOG_ID, MCP_APP_CATALOG_V1_0_ID } from '@a2ui-ts/core';
import { BASIC_COMPONENTS } from '../components/basic-components.js';
import type { ComponentRegistry } from '../registry/component-registry.js';
import { createComponentRegistry } from '../registry/create-component-registry.js';
import { createMcpAppComponent } from './mcp-app.js';
import type { McpAppOptions } from './mcp-app-options.js';

/**
 * Registers the MCP Apps catalogs' components on `registry` (v0.9 and v1.0): the basic ones and
 * `McpApp` configured with `options`.
 */
export function registerMcpApp(
  registry: ComponentRegistry,
  options: McpAppOptions,
): ComponentRegistry {
  return registry.registerAll([MCP_APP_CATALOG_ID, MCP_APP_CATALOG_V1_0_ID], {
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
