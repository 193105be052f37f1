/**
 * The agent's current surfaces as MCP resources, against the SDK's stock `Client` over real
 * Streamable HTTP: `resources/list`, `resources/read` of `a2ui://<surfaceId>`, and
 * `notifications/resources/updated` / `list_changed` when the agent changes them.
 */
import { type A2uiAgent, BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { createMcpServer } from './server/create-mcp-server.js';

const create = (surfaceId: string): ServerMessage => ({
  version: 'v0.9',
  createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID },
});
const form: ServerMessage[] = [
  create('form'),
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'form',
      components: [{ id: 'root', component: 'Text', text: { path: '/status' } }],
    },
  },
  { version: 'v0.9', updateDataModel: { surfaceId: 'form', path: '/status', value: 'new' } },
];

const agent: A2uiAgent = {
  onConnect: (connection) => connection.send(form),
  onAction(connection, action) {
    if (action.name === 'open-second') return connection.send(create('second'));
    if (action.name === 'close-form')
      return connection.send({ version: 'v0.9', deleteSurface: { surfaceId: 'form' } });
    connection.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'form', path: '/status', value: action.name },
    });
  },
};

let node: Listening | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await node?.close();
  node = undefined;
});

async function connect(): Promise<Client> {
  node ??= await listen(createMcpServer({ agent }));
  const stock = new Client({ name: 'stock', version: '1.0.0' });
  clients.push(stock);
  await stock.connect(new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`)));
  return stock;
}

/** The first notification of `schema` the client gets. */
const next = <T>(stock: Client, schema: Parameters<Client['setNotificationHandler']>[0]) =>
  new Promise<T>((resolve) => stock.setNotificationHandler(schema, (n) => resolve(n as T)));

it('lists the current surfaces and reads one as the messages that build it', async () => {
  const stock = await connect();
  expect(stock.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
  expect((await stock.listResources()).resources).toEqual([
    {
      uri: 'a2ui://form',
      name: 'form',
      mimeType: 'application/a2ui+json',
      description: 'The A2UI surface "form" as it stands.',
    },
  ]);
  const read = await stock.readResource({ uri: 'a2ui://form' });
  expect(read.contents).toEqual([
    { uri: 'a2ui://form', mimeType: 'application/a2ui+json', text: expect.any(String) },
  ]);
  expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual([
    form[0],
    form[1],
    {
      version: 'v0.9',
      updateDataModel: { surfaceId: 'form', path: '/', value: { status: 'new' } },
    },
  ]);
});

it('tells a subscribed client when the agent changes the surface, and reads the new state', async () => {
  const stock = await connect();
  await stock.subscribeResource({ uri: 'a2ui://form' });
  const updated = next<{ params: { uri: string } }>(stock, ResourceUpdatedNotificationSchema);
  await stock.callTool({ name: 'a2ui_action', arguments: { name: 'saved' } });
  expect((await updated).params).toEqual({ uri: 'a2ui://form' });
  const read = await stock.readResource({ uri: 'a2ui://form' });
  const messages = JSON.parse((read.contents[0] as { text: string }).text);
  expect(messages.at(-1).updateDataModel.value).toEqual({ status: 'saved' });
});

it('does not tell a client that did not subscribe, or that unsubscribed', async () => {
  const stock = await connect();
  await stock.subscribeResource({ uri: 'a2ui://form' });
  await stock.unsubscribeResource({ uri: 'a2ui://form' });
  const heard: unknown[] = [];
  stock.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.push(n));
  // list_changed comes on the same stream after the update would have: a fence.
  const listChanged = next(stock, ResourceListChangedNotificationSchema);
  await stock.callTool({ name: 'a2ui_action', arguments: { name: 'saved' } });
  await stock.callTool({ name: 'a2ui_action', arguments: { name: 'open-second' } });
  await listChanged;
  expect(heard).toEqual([]);
});

it('announces list changes when the agent creates or deletes a surface', async () => {
  const stock = await connect();
  let changed = next(stock, ResourceListChangedNotificationSchema);
  await stock.callTool({ name: 'a2ui_action', arguments: { name: 'open-second' } });
  await changed;
  expect((await stock.listResources()).resources.map((r) => r.uri)).toEqual([
    'a2ui://form',
    'a2ui://second',
  ]);
  changed = next(stock, ResourceListChangedNotificationSchema);
  await stock.callTool({ name: 'a2ui_action', arguments: { name: 'close-form' } });
  await changed;
  expect((await stock.listResources()).resources.map((r) => r.uri)).toEqual(['a2ui://second']);
});

it('answers an unknown resource with "Resource not found", and the session goes on', async () => {
  const stock = await connect();
  const failure = await stock.readResource({ uri: 'a2ui://nope' }).catch((error) => error);
  expect(failure).toBeInstanceOf(McpError);
  expect((failure as McpError).code).toBe(-32002);
  const refused = await stock.subscribeResource({ uri: 'file:///etc/passwd' }).catch((e) => e);
  expect((refused as McpError).code).toBe(-32602);
  expect((await stock.listResources()).resources).toHaveLength(1);
});

it('keeps each session to its own surfaces', async () => {
  const first = await connect();
  const second = await connect();
  await first.callTool({ name: 'a2ui_action', arguments: { name: 'open-second' } });
  expect((await first.listResources()).resources).toHaveLength(2);
  expect((await second.listResources()).resources).toHaveLength(1);
});
