/**
 * The server against the MCP SDK's stock `Client` over real Streamable HTTP on 127.0.0.1:
 * tools, A2UI only for clients that declared it, actions exactly once, principals, bounds.
 */
import { type A2uiAgent, BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Listening, listen } from '../../test/listen.js';
import { A2UI_MIME_TYPE } from '../protocol/mcp-a2ui.js';
import { createMcpServer, type McpServerApp, type McpServerOptions } from './create-mcp-server.js';

const CAPABILITIES = { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } };

const form: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'form',
      components: [
        {
          id: 'root',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'submit', context: {} } },
        },
        { id: 'label', component: 'Text', text: 'Send' },
      ],
    },
  },
];
const status = (value: string): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'form', path: '/status', value },
});

interface Running {
  app: McpServerApp;
  node: Listening;
  url: URL;
  actions: { name: string; context: unknown; metadata: unknown; principal: unknown }[];
}
const running: Running[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  for (const server of running.splice(0)) await server.node.close();
});

async function start(options: Partial<McpServerOptions> = {}): Promise<Running> {
  const actions: Running['actions'] = [];
  const agent: A2uiAgent = {
    onConnect: (connection) => connection.send(form),
    onAction(connection, action, metadata) {
      actions.push({
        name: action.name,
        context: action.context,
        metadata,
        principal: connection.principal,
      });
      connection.send(status(`did ${action.name}`));
    },
  };
  const app = createMcpServer({ agent, ...options });
  const node = await listen(app);
  const server = { app, node, url: new URL(`${node.url}/mcp`), actions };
  running.push(server);
  return server;
}

async function connect(
  url: URL,
  options: { a2ui?: boolean; headers?: Record<string, string> } = {},
): Promise<Client> {
  const capabilities = options.a2ui ? { a2ui: { clientCapabilities: CAPABILITIES } } : {};
  // `a2ui` is not a key the SDK types know; it sends the object as it is.
  const client = new Client({ name: 'stock', version: '1.0.0' }, { capabilities } as never);
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: options.headers ?? {} } }),
  );
  clients.push(client);
  return client;
}

type Content = {
  type: string;
  text?: string;
  resource?: { uri: string; mimeType: string; text: string };
}[];

describe('createMcpServer with the SDK stock Client', () => {
  it('lists the guide tools and answers a2ui_open with the agent UI as an embedded resource', async () => {
    const { url } = await start();
    const client = await connect(url, { a2ui: true });
    const { tools } = await client.listTools();
    // The guide's tools, and the MCP Apps spelling of the form's one event.
    expect(tools.map((tool) => tool.name)).toEqual([
      'a2ui_open',
      'a2ui_action',
      'a2ui_error',
      'submit',
    ]);
    const result = await client.callTool({ name: 'a2ui_open', arguments: {} });
    const content = result.content as Content;
    expect(content[0]).toEqual({ type: 'text', text: 'Updated UI: form.\nSend' });
    expect(content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'a2ui://form', mimeType: A2UI_MIME_TYPE },
      annotations: { audience: ['user'] },
    });
    expect(JSON.parse(content[1]!.resource!.text)).toEqual(form);
    // Delivered once: a second open has nothing new.
    const again = await client.callTool({ name: 'a2ui_open', arguments: {} });
    expect(again.content).toEqual([{ type: 'text', text: 'No new UI.' }]);
  });

  it('answers a client that declared no A2UI with text alone', async () => {
    const { url } = await start();
    const client = await connect(url);
    const result = await client.callTool({ name: 'a2ui_open', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Updated UI: form.\nSend' }]);
  });

  it('takes the catalogs of one call from _meta.a2ui', async () => {
    const { url, actions } = await start();
    const client = await connect(url);
    const result = await client.callTool({
      name: 'a2ui_action',
      arguments: { name: 'submit', context: { n: 1 } },
      _meta: { a2ui: { clientCapabilities: CAPABILITIES } },
    });
    const content = result.content as Content;
    // The connect turn and the action's turn, each message once.
    expect(JSON.parse(content[1]!.resource!.text)).toEqual([...form, status('did submit')]);
    expect(actions).toEqual([
      {
        name: 'submit',
        context: { n: 1 },
        metadata: { a2uiClientCapabilities: CAPABILITIES },
        principal: undefined,
      },
    ]);
  });

  it('delivers an action with the same requestId once', async () => {
    const { url, actions } = await start();
    const client = await connect(url, { a2ui: true });
    const call = () =>
      client.callTool({
        name: 'a2ui_action',
        arguments: { name: 'submit', context: {} },
        _meta: { a2ui: { clientCapabilities: CAPABILITIES, requestId: 'action-1' } },
      });
    const first = await call();
    const second = await call();
    expect(actions).toHaveLength(1);
    expect(first.isError).toBeUndefined();
    expect(second.isError).toBeUndefined();
  });

  it('reports an invalid action as a tool error and keeps the session', async () => {
    const { url, actions } = await start();
    const client = await connect(url, { a2ui: true });
    const bad = await client.callTool({ name: 'a2ui_action', arguments: { context: {} } });
    expect(bad).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'VALIDATION_FAILED', path: '/name' } },
    });
    const good = await client.callTool({ name: 'a2ui_action', arguments: { name: 'submit' } });
    expect(good.isError).toBeUndefined();
    expect(actions.map((action) => action.name)).toEqual(['submit']);
  });

  it("refuses another principal's session with 403 FORBIDDEN and leaves it working", async () => {
    const { url, actions } = await start({
      authenticate: (request) => request.headers.get('authorization') ?? undefined,
    });
    const alice = await connect(url, { a2ui: true, headers: { authorization: 'alice' } });
    await alice.callTool({ name: 'a2ui_open', arguments: {} });
    const transport = alice.transport as StreamableHTTPClientTransport;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: 'mallory',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'a2ui_action', arguments: { name: 'steal', context: {} } },
      }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32002,
        message: 'The MCP session belongs to another principal.',
        data: { code: 'FORBIDDEN', message: 'The MCP session belongs to another principal.' },
      },
    });
    const own = await alice.callTool({ name: 'a2ui_action', arguments: { name: 'submit' } });
    expect(own.isError).toBeUndefined();
    expect(actions.map((action) => [action.name, action.principal])).toEqual([['submit', 'alice']]);
  });

  it('refuses a body above maxRequestBytes with 413 and keeps the session', async () => {
    const { url, actions } = await start({ maxRequestBytes: 4_096 });
    const client = await connect(url, { a2ui: true });
    await expect(
      client.callTool({
        name: 'a2ui_action',
        arguments: { name: 'big', context: { x: 'x'.repeat(8_000) } },
      }),
    ).rejects.toMatchObject({ code: 413, message: expect.stringContaining('"MESSAGE_TOO_LARGE"') });
    const ok = await client.callTool({ name: 'a2ui_action', arguments: { name: 'small' } });
    expect(ok.isError).toBeUndefined();
    expect(actions.map((action) => action.name)).toEqual(['small']);
  });

  it('ends the agent connection when the client deletes its session', async () => {
    const { url, app } = await start();
    const client = await connect(url);
    expect(app.stats().sessions).toBe(1);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    expect(app.stats()).toMatchObject({ sessions: 0, mcpSessions: 0 });
  });
});
