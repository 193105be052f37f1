/**
 * Version negotiation over MCP (`docs/wire-formats.md`, "MCP" → "Versions"): the offer is the
 * keys of `capabilities.a2ui.clientCapabilities` in `initialize`, the answer
 * `capabilities.experimental.a2ui` — against a real server on port 0 with `connectMcp`, the SDK's
 * stock `Client` and raw JSON-RPC; then a v1.0 agent's surfaces as resources and its events as
 * MCP Apps tools.
 */
import { type A2uiAgent, A2uiClient, type ActionEvent, V1_0_BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { createNegotiationAgent, greetOver } from '@a2ui-ts/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { connectMcp } from './client/connect-mcp.js';
import { findA2uiPayloads } from './protocol/mcp-a2ui.js';
import { createMcpServer, type McpServerOptions } from './server/create-mcp-server.js';

let node: Listening | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await node?.close();
  node = undefined;
});

async function start(options: Partial<McpServerOptions> = {}) {
  const recorder = createNegotiationAgent();
  node = await listen(createMcpServer({ agent: recorder.agent, ...options }));
  return recorder;
}

/** The SDK's stock client, declaring `clientCapabilities` (none when `undefined`). */
async function stockClient(clientCapabilities?: Record<string, unknown>): Promise<Client> {
  const capabilities = clientCapabilities ? { a2ui: { clientCapabilities } } : {};
  const stock = new Client({ name: 'stock', version: '1.0.0' }, { capabilities } as never);
  clients.push(stock);
  await stock.connect(new StreamableHTTPClientTransport(new URL(`${node!.url}/mcp`)));
  return stock;
}

const v1Catalogs = { 'v1.0': { supportedCatalogIds: [V1_0_BASIC_CATALOG_ID] } };

describe('MCP version negotiation', () => {
  it('picks v1.0 when both speak it, and the agent streams v1.0 end to end', async () => {
    const recorder = await start();
    expect(await greetOver(connectMcp({ url: `${node!.url}/mcp` }))).toEqual({
      protocolVersion: 'v1.0',
      surfaceVersion: 'v1.0',
      text: 'Speaking v1.0',
    });
    expect(recorder.negotiated).toEqual([['v1.0', 'v0.9']]);
  });

  it("follows the server's preference and answers it in capabilities.experimental.a2ui", async () => {
    const recorder = await start({ a2uiVersions: ['v0.9', 'v1.0'] });
    const stock = await stockClient({ ...v1Catalogs, 'v0.9': { supportedCatalogIds: [] } });
    expect(stock.getServerCapabilities()?.experimental).toEqual({
      a2ui: { version: 'v0.9', versions: ['v0.9', 'v1.0'] },
    });
    const transport = connectMcp({ url: `${node!.url}/mcp`, offeredVersions: ['v0.9'] });
    expect(await greetOver(transport)).toMatchObject({
      protocolVersion: 'v0.9',
      surfaceVersion: 'v0.9',
    });
    expect(recorder.negotiated).toEqual([['v0.9', 'v1.0'], ['v0.9']]);
  });

  it('serves a client that declares no catalogs as before (v0.9, no answer)', async () => {
    const recorder = await start();
    const stock = await stockClient();
    expect(stock.getServerCapabilities()?.experimental).toBeUndefined();
    expect(recorder.negotiated).toEqual([undefined]);
  });

  it('refuses a v1.0-only client of a v0.9-only server with 406 NOT_SUPPORTED', async () => {
    const recorder = await start({ a2uiVersions: ['v0.9'] });
    const response = await fetch(`${node!.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { a2ui: { clientCapabilities: v1Catalogs } },
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    expect(response.status).toBe(406);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      error: {
        message: 'No A2UI version in common: the client offers v1.0; this server speaks v0.9.',
        data: { code: 'NOT_SUPPORTED' },
      },
    });
    const client = new A2uiClient({
      transport: connectMcp({ url: `${node!.url}/mcp`, offeredVersions: ['v1.0'] }),
    });
    await expect(client.connect()).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
    expect(recorder.negotiated).toEqual([]);
  });

  it("refuses a call whose own _meta.a2ui declares none of the session's versions", async () => {
    await start();
    const stock = await stockClient(v1Catalogs);
    const result = await stock.callTool({
      name: 'a2ui_open',
      arguments: {},
      _meta: { a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [] } } } },
    });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'NOT_SUPPORTED' } },
    });
    // The session is intact: the same call declaring v1.0 gets the v1.0 greeting.
    const again = await stock.callTool({ name: 'a2ui_open', arguments: {} });
    const [found] = findA2uiPayloads(again.content as unknown[]);
    expect(found).toMatchObject({ ok: true, payload: [{ version: 'v1.0' }] });
  });
});

describe('a v1.0 agent over MCP', () => {
  const form = {
    version: 'v1.0',
    createSurface: {
      surfaceId: 'form',
      catalogId: V1_0_BASIC_CATALOG_ID,
      components: [
        {
          id: 'root',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'pick_option', context: { choice: { path: '/choice' } } } },
        },
        { id: 'label', component: 'Text', text: 'Pick' },
      ],
    },
  };
  const actions: ActionEvent[] = [];
  const agent: A2uiAgent = {
    onConnect: (connection) => connection.send(form as never),
    onAction(connection, action) {
      actions.push(action);
      connection.send({
        version: 'v1.0',
        updateDataModel: { surfaceId: 'form', path: '/picked', value: action.context.choice },
      } as never);
    },
  };

  it('reads its surfaces as v1.0 resources', async () => {
    node = await listen(createMcpServer({ agent }));
    const stock = await stockClient(v1Catalogs);
    expect((await stock.listResources()).resources.map((resource) => resource.uri)).toEqual([
      'a2ui://form',
    ]);
    const read = await stock.readResource({ uri: 'a2ui://form' });
    const [found] = findA2uiPayloads(read.contents);
    expect(found).toMatchObject({
      ok: true,
      payload: [
        form,
        { version: 'v1.0', updateComponents: { surfaceId: 'form' } },
        { version: 'v1.0', updateDataModel: { surfaceId: 'form', path: '/', value: {} } },
      ],
    });
  });

  it('takes its events as MCP Apps tools and answers in v1.0', async () => {
    actions.length = 0;
    node = await listen(createMcpServer({ agent }));
    const stock = await stockClient(v1Catalogs);
    const { tools } = await stock.listTools();
    expect(tools.map((tool) => tool.name)).toContain('pick_option');
    await stock.callTool({ name: 'a2ui_open', arguments: {} });
    const result = await stock.callTool({ name: 'pick_option', arguments: { choice: 'tea' } });
    expect(actions).toMatchObject([
      {
        name: 'pick_option',
        surfaceId: 'form',
        sourceComponentId: 'root',
        context: { choice: 'tea' },
      },
    ]);
    const [found] = findA2uiPayloads(result.content as unknown[]);
    expect(found).toMatchObject({
      ok: true,
      payload: [{ version: 'v1.0', updateDataModel: { path: '/picked', value: 'tea' } }],
    });
  });
});
