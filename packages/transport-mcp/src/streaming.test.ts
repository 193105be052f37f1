/**
 * Updates during a long tool call: what the agent sends before its turn ends reaches the client
 * as `notifications/progress` on the call's Streamable HTTP stream, before the result, each
 * message once — for our `connectMcp` and for the SDK's stock `Client`.
 */
import {
  type A2uiAgent,
  A2uiClient,
  BASIC_CATALOG_ID,
  type Connection,
  type ServerMessage,
} from '@a2ui-ts/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { connectMcp } from './client/connect-mcp.js';
import { findA2uiPayloads } from './protocol/mcp-a2ui.js';
import { createMcpServer } from './server/create-mcp-server.js';

const status = (value: string): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'main', path: '/status', value },
});

/** An agent whose action turn sends "working", waits for the test, then sends "done". */
function slowAgent() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const agent: A2uiAgent = {
    onConnect: (connection) =>
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
      }),
    async onAction(connection) {
      connection.send(status('working'));
      await released;
      connection.send(status('done'));
    },
  };
  return { agent, release };
}

let node: Listening | undefined;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await node?.close();
});

it('shows what the agent sends during a long turn before the turn ends (connectMcp)', async () => {
  const { agent, release } = slowAgent();
  node = await listen(createMcpServer({ agent }));
  const client = new A2uiClient({ transport: connectMcp({ url: `${node.url}/mcp` }) });
  void client.connect().catch(() => {});
  cleanups.push(() => client.close());
  await client.until(() => client.processor.getSurface('main') !== undefined);
  let settled = false;
  const sending = client
    .send({
      version: 'v0.9',
      action: {
        name: 'go',
        surfaceId: 'main',
        sourceComponentId: 'root',
        timestamp: new Date().toISOString(),
        context: {},
      },
    })
    .then(() => {
      settled = true;
    });
  await client.until(
    () => client.processor.getSurface('main')?.dataModel.get('/status') === 'working',
  );
  expect(settled).toBe(false);
  release();
  await sending;
  expect(client.processor.getSurface('main')?.dataModel.get('/status')).toBe('done');
});

it('sends the stock Client progress with the A2UI in _meta, and the rest in the result', async () => {
  const { agent, release } = slowAgent();
  node = await listen(createMcpServer({ agent }));
  const capabilities = {
    a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
  };
  const stock = new Client({ name: 'stock', version: '1.0.0' }, { capabilities } as never);
  await stock.connect(new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`)));
  cleanups.push(() => stock.close());
  await stock.callTool({ name: 'a2ui_open', arguments: {} });
  const progress: unknown[] = [];
  const calling = stock.callTool({ name: 'a2ui_action', arguments: { name: 'go' } }, undefined, {
    onprogress: (update) => {
      progress.push(update);
      release();
    },
  });
  const result = await calling;
  const progressEntry = (value: string, seq: number) => ({
    progress: seq,
    message: 'Updated UI: main.',
    _meta: {
      a2ui: { uri: 'a2ui://main', mimeType: 'application/a2ui+json', messages: [status(value)] },
    },
  });
  // "working" came during the turn (it released the agent); "done" as progress or in the
  // result, whichever was first: each message once, in order.
  expect(progress[0]).toEqual(progressEntry('working', 2));
  const streamed = progress.length === 2 ? [progressEntry('done', 3)] : [];
  expect(progress.slice(1)).toEqual(streamed);
  expect(findA2uiPayloads(result.content as unknown[])).toEqual(
    streamed.length > 0 ? [] : [{ ok: true, uri: 'a2ui://main', payload: [status('done')] }],
  );
});

/** An agent that pushes a status whenever the test says, between calls. */
function pushingAgent() {
  const connections: Connection[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connections.push(connection);
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
      });
    },
  };
  return { agent, push: (value: string) => connections.at(-1)?.send(status(value)) };
}

it('shows what the agent sends between calls at once, on the standalone stream (connectMcp)', async () => {
  const { agent, push } = pushingAgent();
  node = await listen(createMcpServer({ agent }));
  const client = new A2uiClient({ transport: connectMcp({ url: `${node.url}/mcp` }) });
  void client.connect().catch(() => {});
  cleanups.push(() => client.close());
  await client.until(() => client.processor.getSurface('main') !== undefined);
  for (const value of ['one', 'two', 'three']) {
    push(value);
    await client.until(
      () => client.processor.getSurface('main')?.dataModel.get('/status') === value,
    );
  }
});

it('pushes each message once to the stock Client, and then calls carry only the rest', async () => {
  const { agent, push } = pushingAgent();
  node = await listen(createMcpServer({ agent }));
  const capabilities = {
    a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
  };
  const stock = new Client({ name: 'stock', version: '1.0.0' }, { capabilities } as never);
  const pushed: unknown[] = [];
  stock.fallbackNotificationHandler = async (notification) => {
    if (notification.method !== 'notifications/a2ui/messages') return;
    const meta = notification.params?._meta as { a2ui?: { messages?: unknown[] } } | undefined;
    pushed.push(...(meta?.a2ui?.messages ?? []));
  };
  await stock.connect(new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`)));
  cleanups.push(() => stock.close());
  // The connect turn comes with a2ui_open's result; what follows, pushed.
  const opened = await stock.callTool({ name: 'a2ui_open', arguments: {} });
  push('one');
  push('two');
  await expect.poll(() => pushed).toContainEqual(status('two'));
  const again = await stock.callTool({ name: 'a2ui_open', arguments: {} });
  const payloads = (result: Record<string, unknown>) =>
    findA2uiPayloads(result.content as unknown[]).flatMap((found) =>
      found.ok ? (found.payload as unknown[]) : [],
    );
  const all = [...payloads(opened), ...pushed, ...payloads(again)];
  expect(all).toEqual([
    { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
    status('one'),
    status('two'),
  ]);
});
