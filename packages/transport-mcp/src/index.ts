/**
 * `@a2ui-ts/transport-mcp` — A2UI over the Model Context Protocol, as the A2UI guide "A2UI over
 * MCP" writes it, on the official SDK (`@modelcontextprotocol/sdk`): any `A2uiAgent` as an MCP
 * server (Streamable HTTP in a Web-standard Hono app), and `connectMcp`, a client transport that
 * reads A2UI from any MCP server's tool results and sends actions back as tool calls.
 *
 * @module
 */

export type { McpClientOptions, McpTransport } from './client/connect-mcp.js';
export { connectMcp, MCP_CLIENT_DEFAULTS } from './client/connect-mcp.js';
export type { McpToolCall } from './client/tool-calls.js';
export { toActionCall } from './client/tool-calls.js';
export type {
  A2uiEmbeddedResource,
  FoundA2uiPayload,
  FoundA2uiText,
  McpA2uiDeclaration,
  McpTextContent,
} from './protocol/mcp-a2ui.js';
export {
  A2UI_ACTION_TOOL,
  A2UI_ERROR_TOOL,
  A2UI_META_KEY,
  A2UI_MIME_TYPE,
  A2UI_OPEN_TOOL,
  A2UI_URI_SCHEME,
  describeA2uiMessages,
  findA2uiPayloads,
  findA2uiTexts,
  MCP_UI_EXTENSION,
  readA2uiDeclaration,
  toA2uiResource,
  toClientMetadata,
} from './protocol/mcp-a2ui.js';
export type { McpErrorResponseBody, McpToolErrorResult } from './protocol/mcp-errors.js';
export {
  fromToolErrorResult,
  MCP_JSON_RPC_CODES,
  toMcpErrorResponse,
  toToolErrorResult,
} from './protocol/mcp-errors.js';
export type { McpToolDefinition } from './protocol/tools.js';
export { A2UI_TOOLS } from './protocol/tools.js';
export type {
  McpServerApp,
  McpServerOptions,
  McpServerStats,
} from './server/create-mcp-server.js';
export { createMcpServer, MCP_SERVER_DEFAULTS } from './server/create-mcp-server.js';
export type { McpStdioOptions, McpStdioServer } from './server/serve-mcp-stdio.js';
export { serveMcpStdio } from './server/serve-mcp-stdio.js';
