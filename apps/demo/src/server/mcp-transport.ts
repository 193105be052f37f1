/**
 * The demo's MCP transport: each agent as an MCP server (Streamable HTTP) at
 * `/a2ui/<agent>/mcp`, what any MCP host or `connectMcp` points its `url` at. Its own file, so
 * that `transports.ts` lists it in one line.
 */
import { createMcpServer } from '@a2ui-ts/transport-mcp';
import type { ServerTransport } from './transports.js';

/** MCP over Streamable HTTP. Sessions live in the node's memory (the SDK's transport per session). */
export const MCP_TRANSPORT: ServerTransport = {
  id: 'mcp',
  label: 'MCP',
  anyNode: false,
  mount(app, { basePath, agent, validateOutgoing, onAgentError, a2uiVersions }) {
    const agentId = basePath.split('/').at(-2) ?? 'agent';
    const server = createMcpServer({
      agent,
      validateOutgoing,
      onAgentError,
      // The agent's own preference, as on every other transport (v0.9 first for agents written
      // in v0.9, whose headings v1.0 cannot express).
      a2uiVersions,
      // The endpoint is the mount itself.
      path: '/',
      serverInfo: { name: `a2ui-ts-demo-${agentId}`, version: '0.1.0' },
    });
    app.route('/', server);
    return { close: () => server.close() };
  },
};
