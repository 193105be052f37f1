/**
 * An MCP server built only from the official SDK (`McpServer`, its Node Streamable HTTP
 * transport, `node:http`), serving A2UI the way the guide's Python recipe sample does: a static
 * `a2ui://recipe-form` resource, a `get_recipe_a2ui` tool whose result is an embedded resource
 * with the messages as one JSON array, and the guide's `a2ui_action` / `a2ui_error` tools. No
 * code of this package is used: it stands for "an MCP server we did not write".
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

export const recipeForm = [
  { version: 'v0.9', createSurface: { surfaceId: 'recipe-form', catalogId: BASIC } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'recipe-form',
      components: [
        {
          id: 'root',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'get_recipe', context: { style: 'Baked' } } },
        },
        { id: 'label', component: 'Text', text: 'Get Recipe' },
      ],
    },
  },
];

export const recipeCard = (title: string) => [
  { version: 'v0.9', createSurface: { surfaceId: 'recipe-card', catalogId: BASIC } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'recipe-card',
      components: [{ id: 'root', component: 'Text', text: title }],
    },
  },
];

export interface RecipeServer {
  readonly url: string;
  /** `a2ui_action` and `a2ui_error` calls, with their arguments, in order. */
  readonly calls: { tool: string; args: Record<string, unknown> }[];
  /** What `get_recipe_a2ui` returns as the A2UI resource's text (default: a valid card). */
  cardText: ((title: string) => string) | undefined;
  close(): Promise<void>;
}

export async function startRecipeServer(): Promise<RecipeServer> {
  const calls: RecipeServer['calls'] = [];
  const state: { cardText: RecipeServer['cardText'] } = { cardText: undefined };
  const transports = new Map<string, StreamableHTTPServerTransport>();

  const build = (): McpServer => {
    const server = new McpServer({ name: 'recipe', version: '1.0.0' });
    server.registerResource(
      'Recipe Form',
      'a2ui://recipe-form',
      { mimeType: 'application/a2ui+json', description: 'Pick options.' },
      async (uri) => ({
        contents: [
          { uri: uri.href, mimeType: 'application/a2ui+json', text: JSON.stringify(recipeForm) },
        ],
      }),
    );
    server.registerTool(
      'get_recipe_a2ui',
      { inputSchema: { cookingStyle: z.string() } },
      async ({ cookingStyle }) => {
        const title = `${cookingStyle} Salmon`;
        return {
          content: [
            { type: 'text', text: `Recipe: ${title}` },
            {
              type: 'resource',
              resource: {
                uri: 'a2ui://recipe-card',
                mimeType: 'application/a2ui+json',
                text: state.cardText ? state.cardText(title) : JSON.stringify(recipeCard(title)),
              },
            },
          ],
        };
      },
    );
    server.registerTool(
      'a2ui_action',
      { inputSchema: { name: z.string(), context: z.record(z.unknown()) } },
      async (args) => {
        calls.push({ tool: 'a2ui_action', args });
        return { content: [{ type: 'text', text: `Done: ${args.name}` }] };
      },
    );
    server.registerTool(
      'a2ui_error',
      { inputSchema: { code: z.string(), message: z.string(), surfaceId: z.string().optional() } },
      async (args) => {
        calls.push({ tool: 'a2ui_error', args });
        return { content: [{ type: 'text', text: `Acknowledged error ${args.code}` }] };
      },
    );
    return server;
  };

  const http: Server = createServer(async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId !== undefined) {
        res.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      await build().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    get cardText() {
      return state.cardText;
    },
    set cardText(value) {
      state.cardText = value;
    },
    async close() {
      await Promise.allSettled([...transports.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
