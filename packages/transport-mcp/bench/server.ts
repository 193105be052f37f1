/**
 * The benchmark's server process: this package's MCP server under `/a2ui/mcp` (an agent whose
 * action `burst` sends `context.n` data-model updates in its turn, and `echo` one), and the
 * baseline under `/sdk/mcp` — the SDK's own `McpServer` with an `echo` tool returning the same
 * payloads as text blocks, on the SDK's same Web-standard Streamable HTTP transport, sessions
 * kept in a map. Prints the URL.
 */
import { BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { z } from 'zod';
import { createMcpServer } from '../src/index.js';
import { listen } from '../test/listen.js';

const text = 'The quick brown fox jumps over the lazy dog. '.repeat(2);
const update = (index: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'bench', path: `/items/${index}`, value: { text } },
});

const a2ui = createMcpServer({
  path: '/a2ui/mcp',
  maxResultMessages: 100_000,
  agent: {
    onConnect: (connection) =>
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID },
      }),
    onAction(connection, action) {
      const n = action.name === 'burst' ? Number(action.context.n ?? 1) : 1;
      connection.send(Array.from({ length: n }, (_, index) => update(index)));
    },
  },
});

/** The SDK baseline: the same payloads, each as one text block of a tool result. */
const sdkSessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
function sdkServer(): McpServer {
  const server = new McpServer({ name: 'sdk-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes n payloads.', inputSchema: { n: z.number().optional() } },
    async ({ n = 1 }) => ({
      content: Array.from({ length: n }, (_, index) => ({
        type: 'text' as const,
        text: JSON.stringify(update(index)),
      })),
    }),
  );
  return server;
}

const app = new Hono();
app.route('/', a2ui);
app.all('/sdk/mcp', async (c) => {
  const id = c.req.header('mcp-session-id');
  let transport = id ? sdkSessions.get(id) : undefined;
  if (!transport) {
    transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => void sdkSessions.set(sessionId, transport!),
    });
    await sdkServer().connect(transport);
  }
  return transport.handleRequest(c.req.raw);
});

const node = await listen(Object.assign(app, { close: () => a2ui.close() }));
console.log(node.url);
