/**
 * The MCP Apps catalog for the `mcp-app` agent's connections, loaded on demand: its code (the
 * ext-apps bridge and a catalog compiled at run time) is a chunk no other agent's page fetches.
 */
import type { Catalog } from '@a2ui-ts/core';
import type { ComponentRegistry } from '@a2ui-ts/react-renderer';
import { MCP_APP_PROXY_PATH } from '../shared/mcp-app-proxy-path.js';

/** The client catalog and the renderer registry of the MCP Apps catalog. */
export interface McpAppsSupport {
  readonly catalog: Catalog;
  readonly registry: ComponentRegistry;
}

/**
 * Loads the MCP Apps catalog. The demo's app is inline (`content`) and calls no tool, so no MCP
 * server is configured and the allow-list stays empty.
 */
export async function loadMcpApps(): Promise<McpAppsSupport> {
  const { createMcpAppCatalog, createMcpAppRegistry } = await import(
    '@a2ui-ts/react-renderer/mcp-app'
  );
  return {
    catalog: createMcpAppCatalog(),
    registry: createMcpAppRegistry({ proxyUrl: MCP_APP_PROXY_PATH }),
  };
}
