/**
 * Bad input against the MCP binding over raw Streamable HTTP: `initialize` with garbage
 * `capabilities.a2ui` or a protocol version it cannot speak, tool calls whose `_meta.a2ui`
 * conflicts with the session's declaration, resource reads of huge or unknown URIs, and a tool
 * call on another principal's session. Each is answered in MCP's (JSON-RPC's) or the binding's
 * own error shape, with no internal exception text, and the session (or the server) keeps
 * serving. Real server on 127.0.0.1 port 0.
 */
import { type A2uiAgent, BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { INTERNAL_ERROR_TEXT } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { createMcpServer } from './server/create-mcp-server.js';

const actions: string[] = [];
const agent: A2uiAgent = {
  onConnect: (connection) =>
    connection.send({
      version: 'v0.9',
      createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID },
    }),
  onAction(connection, action) {
    actions.push(action.name);
    connection.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'form', path: '/last', value: action.name },
    });
  },
};

let node: Listening | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
  actions.splice(0);
});

async function start() {
  node = await listen(
    createMcpServer({
      agent,
      authenticate: (request) => request.headers.get('authorization') ?? undefined,
      onAgentError: () => {},
    }),
  );
  return node.url;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read any field of any answer.
type Answer = { status: number; text: string; json: any; session: string | null };

/** One JSON-RPC POST; reads a JSON or an SSE answer. */
async function rpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'alice',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  expect(text).not.toMatch(INTERNAL_ERROR_TEXT);
  // The first `data:` line that holds something (a resumable stream opens with an empty one).
  const data = text.split('\n').find((line) => line.startsWith('data: ') && line.length > 6);
  let json: unknown;
  try {
    json = JSON.parse(data ? data.slice(6) : text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, session: response.headers.get('mcp-session-id') };
}

const initialize = (capabilities: unknown, protocolVersion: unknown = '2025-06-18') => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'attacker', version: '1' } },
});

async function open(url: string, capabilities: unknown = {}, authorization = 'alice') {
  const answer = await rpc(url, initialize(capabilities), { authorization });
  expect(answer.status).toBe(200);
  expect(answer.session).toEqual(expect.any(String));
  await rpc(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': answer.session!, authorization },
  );
  return answer.session!;
}

async function callTool(
  url: string,
  session: string,
  name: string,
  args: unknown = {},
  meta?: unknown,
  authorization = 'alice',
) {
  return rpc(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
    },
    { 'mcp-session-id': session, authorization },
  );
}

/** The session still serves: a2ui_open answers with the surface. */
async function expectServes(url: string, session: string, authorization = 'alice') {
  const answer = await callTool(url, session, 'a2ui_open', {}, undefined, authorization);
  expect(answer.json.result).toBeDefined();
  expect(answer.json.result.isError).not.toBe(true);
}

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('MCP initialize with bad A2UI capabilities', () => {
  for (const [label, a2ui] of [
    ['a string', 'garbage'],
    ['an array', [1, 2]],
    ['null', null],
    ['clientCapabilities a number', { clientCapabilities: 42 }],
    ['clientCapabilities with a bad v1.0', { clientCapabilities: { 'v1.0': 'x', 'v0.9': [] } }],
    ['a prototype key', JSON.parse('{"__proto__":{"polluted":true},"clientCapabilities":{}}')],
    ['a non-string requestId', { requestId: { x: 1 } }],
  ] as const) {
    it(`capabilities.a2ui as ${label}: a session opens (or a clear error) and serves`, async () => {
      const url = await start();
      const answer = await rpc(url, initialize({ a2ui: a2ui }));
      if (answer.json?.error) {
        expect(answer.json.error.code).toEqual(expect.any(Number));
      } else {
        expect(answer.status).toBe(200);
        await expectServes(url, answer.session!);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // The server still opens a normal session.
      await expectServes(url, await open(url));
    });
  }

  it('capabilities.a2ui nested 10,000 levels deep is refused, not a stack overflow', async () => {
    const url = await start();
    const text = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"a","version":"1"},"capabilities":{"a2ui":{"clientDataModel":${deep(10_000)}}}}}`;
    const answer = await rpc(url, text);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.session).toBeNull();
    await expectServes(url, await open(url));
  });

  for (const version of ['1999-01-01', 42, null, 'x'.repeat(10_000)]) {
    it(`protocolVersion ${String(version).slice(0, 12)}: negotiated or refused cleanly`, async () => {
      const url = await start();
      const answer = await rpc(url, initialize({}, version));
      if (answer.json?.result) {
        expect(typeof answer.json.result.protocolVersion).toBe('string');
        expect(answer.json.result.protocolVersion).not.toBe(version);
      } else expect(answer.status).toBeGreaterThanOrEqual(400);
      await expectServes(url, await open(url));
    });
  }
});

describe('MCP tool calls with bad _meta.a2ui and resources', () => {
  it('_meta.a2ui that conflicts with the session declaration does not break the session', async () => {
    const url = await start();
    const session = await open(url, { a2ui: { clientCapabilities: { 'v0.9': {} } } });
    for (const meta of [
      { a2ui: 'garbage' },
      { a2ui: { clientCapabilities: 42, requestId: 7 } },
      { a2ui: { clientCapabilities: { 'v1.0': { supportedCatalogIds: 'no' } } } },
      { a2ui: { clientDataModel: { surfaces: 'not-a-map' } } },
    ]) {
      const answer = await callTool(url, session, 'a2ui_action', { name: 'go' }, meta);
      expect(answer.status).toBe(200);
      expect(answer.json.error ?? answer.json.result).toBeDefined();
    }
    await expectServes(url, session);
  });

  it('a2ui_action with wrong-typed arguments is refused as a tool error, nothing delivered', async () => {
    const url = await start();
    const session = await open(url);
    for (const args of [
      { name: 42 },
      { name: 'go', context: 'x' },
      { name: 'go', surfaceId: {} },
    ]) {
      const answer = await callTool(url, session, 'a2ui_action', args);
      expect(
        answer.json.error?.code ?? (answer.json.result?.isError ? 'tool' : undefined),
      ).toBeDefined();
    }
    expect(actions).toEqual([]);
    await expectServes(url, session);
  });

  it('resources/read of a huge or unknown URI is a JSON-RPC error and the session serves', async () => {
    const url = await start();
    const session = await open(url);
    for (const uri of [`a2ui://${'x'.repeat(500_000)}`, 'a2ui://nope', 'file:///etc/passwd', 42]) {
      const answer = await rpc(
        url,
        { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } },
        { 'mcp-session-id': session },
      );
      if (answer.status === 200) expect(answer.json.error.code).toEqual(expect.any(Number));
      else expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.text).not.toContain('root:');
    }
    await expectServes(url, session);
  });

  it("tools/call on another principal's session is refused 403 and the owner's session serves", async () => {
    const url = await start();
    const alices = await open(url, {}, 'alice');
    const answer = await callTool(
      url,
      alices,
      'a2ui_action',
      { name: 'steal' },
      undefined,
      'mallory',
    );
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatchObject({
      message: expect.stringContaining('another principal'),
    });
    expect(actions).toEqual([]);
    const none = await callTool(url, alices, 'a2ui_open', {}, undefined, '');
    expect(none.status).toBeGreaterThanOrEqual(400);
    await expectServes(url, alices, 'alice');
  });
});
