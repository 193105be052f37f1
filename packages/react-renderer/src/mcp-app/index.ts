/**
 * `@a2ui-ts/react-renderer/mcp-app` — the opt-in MCP Apps catalog (A2UI guide "MCP Apps in
 * A2UI"): `McpApp` runs an MCP App (`ui://` HTML resource) in a same-origin proxy frame and an
 * inner frame sandboxed `allow-scripts allow-forms allow-popups allow-modals` (never
 * `allow-same-origin`), relays only allow-listed tool calls to the MCP server, and maps the app's
 * model context to the data model and an A2UI action. Needs `@modelcontextprotocol/ext-apps` and
 * `@modelcontextprotocol/sdk`.
 *
 * @module
 */

// The catalogs themselves (precompiled validators, v0.9 and v1.0) are core's.
export type { McpAppCatalogOptions } from '@a2ui-ts/core';
export { createMcpAppCatalog } from '@a2ui-ts/core';
export type { ConnectMcpAppOptions } from './connect-mcp-app.js';
export { connectMcpApp } from './connect-mcp-app.js';
export type { AppSource, LoadAppHtmlOptions } from './load-app-html.js';
export { loadAppHtml } from './load-app-html.js';
export type { McpAppProps } from './mcp-app.js';
export { createMcpAppComponent } from './mcp-app.js';
export type { McpAppOptions, McpAppRefusal, McpAppServer } from './mcp-app-options.js';
export {
  isToolAllowed,
  MCP_APP_DEFAULTS,
  MCP_APP_MIME_TYPE,
  mcpAppServerFromClient,
} from './mcp-app-options.js';
export { createMcpAppRegistry, registerMcpApp } from './mcp-app-registry.js';
export type { ProxyFrameTransportOptions } from './proxy-frame-transport.js';
export { ProxyFrameTransport } from './proxy-frame-transport.js';
export {
  MCP_APP_INNER_SANDBOX,
  MCP_APP_SANDBOX_CSP,
  MCP_APP_SANDBOX_PROXY_HEADERS,
  MCP_APP_SANDBOX_PROXY_HTML,
} from './sandbox-proxy.js';
