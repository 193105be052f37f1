/**
 * Where the demo server serves the MCP Apps sandbox proxy page, which `McpApp` needs from the
 * page's own origin. Under `/api` so that `pnpm dev`'s Vite server proxies it like the rest.
 */
export const MCP_APP_PROXY_PATH = '/api/mcp-app-sandbox.html';
