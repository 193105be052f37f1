/**
 * The MCP Apps draft's spelling of an action, against the SDK's stock `Client`: a tool named
 * after the event, its arguments the context — listed from the agent's current components,
 * delivered to the agent as the action of the component that fires it, exactly once.
 */
import {
  type A2uiAgent,
  type ActionEvent,
  BASIC_CATALOG_ID,
  type ServerMessage,
} from '@a2ui-ts/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { findA2uiPayloads } from './protocol/mcp-a2ui.js';
import { createMcpServer } from './server/create-mcp-server.js';

const button = (id: string, event: string): Record<string, unknown> => ({
  id,
  component: 'Button',
  child: `${id}-label`,
  action: { event: { name: event, context: { choice: { path: '/choice' } } } },
});
const form: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'form',
      components: [
        button('root', 'pick_option'),
        { id: 'root-label', component: 'Text', text: 'Pick' },
      ] as never,
    },
  },
];

let node: Listening | undefined;
const actions: ActionEvent[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await node?.close();
  node = undefined;
  actions.length = 0;
});

const agent: A2uiAgent = {
  onConnect: (connection) => connection.send(form),
  onAction(connection, action) {
    actions.push(action);
    if (action.name === 'pick_option' && action.context.choice === 'more')
      return connection.send({
        version: 'v0.9',
        updateComponents: { surfaceId: 'form', components: [button('root', 'confirm')] as never },
      });
    connection.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'form', path: '/picked', value: action.context.choice },
    });
  },
};

async function connect(): Promise<{ stock: Client; transport: StreamableHTTPClientTransport }> {
  node ??= await listen(createMcpServer({ agent }));
  const capabilities = {
    a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
  };
  const stock = new Client({ name: 'stock', version: '1.0.0' }, { capabilities } as never);
  clients.push(stock);
  const transport = new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`));
  await stock.connect(transport);
  return { stock, transport };
}

it("lists a tool per event of the agent's components, with the context as its arguments", async () => {
  const { stock } = await connect();
  const { tools } = await stock.listTools();
  expect(tools.map((tool) => tool.name)).toEqual([
    'a2ui_open',
    'a2ui_action',
    'a2ui_error',
    'pick_option',
  ]);
  expect(tools.at(-1)?.inputSchema).toEqual({ type: 'object', properties: { choice: {} } });
});

it('delivers a call of the event tool as the action of the component that fires it', async () => {
  const { stock } = await connect();
  await stock.callTool({ name: 'a2ui_open', arguments: {} });
  const result = await stock.callTool({ name: 'pick_option', arguments: { choice: 'b' } });
  expect(actions).toEqual([
    {
      name: 'pick_option',
      surfaceId: 'form',
      sourceComponentId: 'root',
      timestamp: expect.any(String),
      context: { choice: 'b' },
    },
  ]);
  expect(findA2uiPayloads(result.content as unknown[])).toEqual([
    {
      ok: true,
      uri: 'a2ui://form',
      payload: [
        { version: 'v0.9', updateDataModel: { surfaceId: 'form', path: '/picked', value: 'b' } },
      ],
    },
  ]);
});

it('delivers the same event call once, by its requestId or its JSON-RPC id', async () => {
  const { stock, transport } = await connect();
  const call = () =>
    stock.callTool({
      name: 'pick_option',
      arguments: { choice: 'a' },
      _meta: { a2ui: { requestId: 'pick-1' } },
    });
  await call();
  await call();
  expect(actions).toHaveLength(1);
  // A POST sent twice with the same JSON-RPC id (a retry after a dropped response).
  const post = () =>
    fetch(`${node!.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': transport.protocolVersion ?? '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'retry-7',
        method: 'tools/call',
        params: { name: 'pick_option', arguments: { choice: 'c' } },
      }),
    }).then((response) => response.text());
  await post();
  await post();
  expect(actions.map((action) => action.context.choice)).toEqual(['a', 'c']);
});

it('announces tools/list_changed when the events change, and refuses a tool no component fires', async () => {
  const { stock } = await connect();
  const changed = new Promise((resolve) =>
    stock.setNotificationHandler(ToolListChangedNotificationSchema, resolve),
  );
  await stock.callTool({ name: 'pick_option', arguments: { choice: 'more' } });
  await changed;
  const names = (await stock.listTools()).tools.map((tool) => tool.name);
  expect(names).toContain('confirm');
  expect(names).not.toContain('pick_option');
  const stale = await stock.callTool({ name: 'pick_option', arguments: { choice: 'x' } });
  expect(stale).toMatchObject({
    isError: true,
    structuredContent: { error: { code: 'VALIDATION_FAILED', path: '/name' } },
  });
  expect(actions).toHaveLength(1);
});
