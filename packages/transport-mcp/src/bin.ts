/**
 * `a2ui-mcp-server`: an example A2UI agent served over MCP stdio — a counter whose buttons are
 * A2UI actions — for trying a desktop MCP host (Claude Desktop, the MCP Inspector…) against
 * this package: `{"command": "npx", "args": ["-y", "@a2ui-ts/transport-mcp"]}`, or in this
 * repository `node packages/transport-mcp/bin/a2ui-mcp-server.js`. Nothing but MCP goes to
 * stdout; the agent's log goes to stderr.
 */
import { createCounterAgent } from './counter-agent.js';
import { serveMcpStdio } from './server/serve-mcp-stdio.js';

await serveMcpStdio({
  agent: createCounterAgent(),
  // `--a2ui-always`: A2UI also for a client that declares none (a generic host, the Inspector).
  ...(process.argv.includes('--a2ui-always') ? { undeclaredClients: 'a2ui' as const } : {}),
  serverInfo: { name: 'a2ui-mcp-server', version: '0.1.0' },
  instructions:
    'An A2UI counter. Call a2ui_open to show it; add_one and reset (or a2ui_action) press its buttons.',
});
