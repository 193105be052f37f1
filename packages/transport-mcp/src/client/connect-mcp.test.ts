/**
 * `connectMcp` feeding a real `A2uiClient`: against our server, and against a server built only
 * from the SDK that serves A2UI the way the guide's Python sample does — over Streamable HTTP on
 * 127.0.0.1, port 0.
 */
import {
  type A2uiAgent,
  A2uiClient,
  type ActionEvent,
  BASIC_CATALOG_ID,
  type DisconnectReason,
} from '@a2ui-ts/core';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../test/listen.js';
import { type RecipeServer, startRecipeServer } from '../../test/recipe-server.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import { connectMcp, type McpTransport } from './connect-mcp.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function open(url: string, headers?: Record<string, string>) {
  const transport = connectMcp({ url, ...(headers ? { headers } : {}) });
  const client = new A2uiClient({ transport });
  void client.connect().catch(() => {});
  cleanups.push(() => client.close());
  return { client, transport };
}

describe('connectMcp against createMcpServer', () => {
  it('renders the agent UI, sends actions as a2ui_action and settles each send with its turn', async () => {
    const actions: ActionEvent[] = [];
    const disconnects: DisconnectReason[] = [];
    const agent: A2uiAgent = {
      onConnect: (connection) =>
        connection.send([
          { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
          {
            version: 'v0.9',
            updateComponents: {
              surfaceId: 'main',
              components: [
                {
                  id: 'root',
                  component: 'Button',
                  child: 'label',
                  action: { event: { name: 'submit', context: { n: { path: '/n' } } } },
                },
                { id: 'label', component: 'Text', text: 'Go' },
              ],
            },
          },
          { version: 'v0.9', updateDataModel: { surfaceId: 'main', path: '/n', value: 7 } },
        ]),
      async onAction(connection, action) {
        actions.push(action);
        connection.send({
          version: 'v0.9',
          updateDataModel: { surfaceId: 'main', path: '/status', value: `got ${action.name}` },
        });
      },
      onDisconnect: (_connection, reason) => void disconnects.push(reason),
    };
    const app = createMcpServer({ agent });
    const node = await listen(app);
    cleanups.push(() => node.close());
    const { client } = open(`${node.url}/mcp`);
    await client.until(() => client.processor.getSurface('main')?.dataModel.get('/n') === 7);
    await client.dispatchAction('main', 'root');
    // Settled with its turn: the answer is applied.
    expect(client.processor.getSurface('main')?.dataModel.get('/status')).toBe('got submit');
    expect(actions).toMatchObject([
      { name: 'submit', surfaceId: 'main', sourceComponentId: 'root', context: { n: 7 } },
    ]);
    await client.close();
    await eventually(() => disconnects.length === 1);
    expect(disconnects).toEqual(['client-closed']);
    expect(app.stats()).toMatchObject({ sessions: 0, mcpSessions: 0 });
  });
});

describe('connectMcp against a server built only from the SDK (the guide recipe sample)', () => {
  let recipe: RecipeServer;
  const start = async () => {
    recipe = await startRecipeServer();
    cleanups.push(() => recipe.close());
    return open(recipe.url);
  };

  it('reads the A2UI resource, renders a tool result and sends actions as a2ui_action', async () => {
    const { client, transport } = await start();
    await client.until(() => client.processor.getSurface('recipe-form') !== undefined);
    await client.until(() => (transport as McpTransport).client !== undefined);
    const result = await (transport as McpTransport).callTool('get_recipe_a2ui', {
      cookingStyle: 'Baked',
    });
    expect(result.content[0]).toEqual({ type: 'text', text: 'Recipe: Baked Salmon' });
    await client.until(() => textOf(client, 'recipe-card') === 'Baked Salmon');
    await client.dispatchAction('recipe-form', 'root');
    expect(recipe.calls).toEqual([
      {
        tool: 'a2ui_action',
        // The SDK's zod schema keeps the guide's two arguments.
        args: { name: 'get_recipe', context: { style: 'Baked' } },
      },
    ]);
  });

  it('reports malformed A2UI in a tool result as a2ui_error and keeps what it rendered', async () => {
    const { client, transport } = await start();
    await client.until(() => client.processor.getSurface('recipe-form') !== undefined);
    await client.until(() => (transport as McpTransport).client !== undefined);
    recipe.cardText = () => '[{"version":"v0.9","createSurface":';
    await (transport as McpTransport).callTool('get_recipe_a2ui', { cookingStyle: 'Fried' });
    await eventually(() => recipe.calls.length === 1);
    expect(recipe.calls[0]).toMatchObject({ tool: 'a2ui_error', args: { code: 'INVALID_JSON' } });
    expect(client.processor.getSurface('recipe-card')).toBeUndefined();
    expect(client.processor.getSurface('recipe-form')?.components.has('label')).toBe(true);
    // Nothing else disturbed: the next good result renders.
    recipe.cardText = undefined;
    await (transport as McpTransport).callTool('get_recipe_a2ui', { cookingStyle: 'Grilled' });
    await client.until(() => textOf(client, 'recipe-card') === 'Grilled Salmon');
  });
});

const textOf = (client: A2uiClient, surfaceId: string): unknown =>
  client.processor.getSurface(surfaceId)?.components.get('root')?.properties.text;
