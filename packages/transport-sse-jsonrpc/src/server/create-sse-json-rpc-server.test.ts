import {
  type A2uiAgent,
  A2uiError,
  BASIC_CATALOG_ID,
  type Connection,
  type DisconnectReason,
  isConnectionId,
  type ServerMessage,
} from '@a2ui-ts/core';
import { createChangeNotifier, createDeferred, createMemoryCluster } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../../test/event-stream-reader.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { serveSseJsonRpc } from '../node.js';
import { createSseJsonRpcServer } from './create-sse-json-rpc-server.js';

const update = (value: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path: '/n', value },
});
const createSurface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
};

const action = (name = 'submit') => ({
  name,
  surfaceId: 's',
  sourceComponentId: 'button',
  timestamp: '2026-01-15T12:00:00Z',
  context: { n: 1 },
});
/** The agent's turn named in an answer (exact values are checked in bounds.test.ts). */
const TURN = { startSeq: expect.any(Number), endSeq: expect.any(Number) };

const capabilities = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};

/** An agent that records everything and exposes its connections. */
function recorder(onConnect?: (connection: Connection) => void) {
  const connections: Connection[] = [];
  const actions: Array<{ name: string; metadata: unknown }> = [];
  const errors: unknown[] = [];
  const disconnects: Array<{ id: string; reason: DisconnectReason }> = [];
  const { notify: changed, until } = createChangeNotifier();
  const agent: A2uiAgent = {
    onConnect(connection) {
      connections.push(connection);
      onConnect?.(connection);
      changed();
    },
    onAction(_connection, event, metadata) {
      actions.push({ name: event.name, metadata });
      changed();
    },
    onError(_connection, error) {
      errors.push(error);
      changed();
    },
    onDisconnect(connection, reason) {
      disconnects.push({ id: connection.id, reason });
      changed();
    },
  };
  return { agent, connections, actions, errors, disconnects, until };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  };
}

/** Opens a stream and returns its connection id. */
async function connectStream(url: string, init?: RequestInit) {
  const stream = await openEventStream(`${url}/sse`, init);
  const connected = await stream.next((event) => event.event === 'connected');
  const { connectionId } = JSON.parse(connected.data) as { connectionId: string };
  return { stream, connectionId };
}

describe('GET /sse', () => {
  it('opens with a connected event, a retry hint and an unguessable id, then one event per message with id: <seq>', async () => {
    const record = recorder((connection) => connection.send([createSurface, update(1), update(2)]));
    server = await startTestServer({ agent: record.agent, retryMs: 2500 });
    const stream = await openEventStream(`${server.node.url}/sse`);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    await stream.until(() => stream.events.length >= 4);
    const [connected, ...messages] = stream.events;
    expect(connected!.event).toBe('connected');
    const data = JSON.parse(connected!.data);
    expect(isConnectionId(data.connectionId)).toBe(true);
    expect(data).toEqual({ connectionId: data.connectionId, resumed: false, replayed: 0 });
    expect(stream.text.startsWith('retry: 2500\nevent: connected\n')).toBe(true);
    expect(messages.map((event) => [event.event, event.id, JSON.parse(event.data)])).toEqual([
      [undefined, '1', createSurface],
      [undefined, '2', update(1)],
      [undefined, '3', update(2)],
    ]);
    stream.close();
  });

  it('sends a : ping comment on an idle link every keepAliveIntervalMs', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent, keepAliveIntervalMs: 20 });
    const { stream } = await connectStream(server.node.url);
    await stream.until(() => stream.comments.length >= 2);
    expect(stream.comments.slice(0, 2)).toEqual(['ping', 'ping']);
    expect(stream.text).toContain('\n\n: ping\n\n');
    stream.close();
  });

  it('resumes with Last-Event-ID (header) or lastEventId (query) and replays exactly the missed events', async () => {
    const record = recorder((connection) =>
      connection.send([createSurface, update(1), update(2), update(3)]),
    );
    server = await startTestServer({ agent: record.agent, reconnectGraceMs: 60_000 });
    const { stream, connectionId } = await connectStream(server.node.url);
    await stream.until(() => stream.events.length >= 5);
    stream.close();
    await eventually(() => server!.app.stats().graceTimers === 1);

    const byHeader = await openEventStream(`${server.node.url}/sse?connectionId=${connectionId}`, {
      headers: { 'Last-Event-ID': '2' },
    });
    await byHeader.until(() => byHeader.events.length >= 3);
    expect(JSON.parse(byHeader.events[0]!.data)).toEqual({
      connectionId,
      resumed: true,
      replayed: 2,
    });
    expect(byHeader.events.slice(1).map((event) => event.id)).toEqual(['3', '4']);
    record.connections[0]!.send(update(4));
    await byHeader.until(() => byHeader.events.length >= 4);
    expect(byHeader.events[3]!.id).toBe('5');
    byHeader.close();
    await eventually(() => server!.app.stats().graceTimers === 1);

    const byQuery = await openEventStream(
      `${server.node.url}/sse?connectionId=${connectionId}&lastEventId=4`,
    );
    await byQuery.until(() => byQuery.events.length >= 2);
    expect(JSON.parse(byQuery.events[0]!.data)).toMatchObject({ resumed: true, replayed: 1 });
    expect(byQuery.events[1]!.id).toBe('5');
    expect(record.connections).toHaveLength(1);
    expect(record.disconnects).toEqual([]);
    byQuery.close();
  });

  it('replays more than maxBufferedBytes at once on resume (a replay cannot be split)', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent, maxBufferedBytes: 1024 });
    const { stream, connectionId } = await connectStream(server.node.url);
    await stream.next((event) => event.id === '1');
    stream.close();
    await eventually(() => server!.app.stats().graceTimers === 1);
    for (let n = 0; n < 20; n++)
      record.connections[0]!.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 's', path: '/pad', value: 'x'.repeat(1000) },
      });
    const resumed = await openEventStream(`${server.node.url}/sse?connectionId=${connectionId}`, {
      headers: { 'Last-Event-ID': '1' },
    });
    await resumed.until(() => resumed.events.length >= 21);
    expect(resumed.events.slice(1).map((event) => event.id)).toEqual(
      Array.from({ length: 20 }, (_, index) => String(index + 2)),
    );
    expect(server.app.stats().droppedSlowLinks).toBe(0);
    resumed.close();
  });

  it('sends reset and starts a fresh session when the gap is no longer buffered', async () => {
    const record = recorder((connection) => {
      for (let n = 0; n < 10; n++) connection.send(update(n));
    });
    // The reset itself: with snapshots on, the resume gets one a2uiSnapshot entry instead.
    server = await startTestServer({
      agent: record.agent,
      replayBuffer: { maxEvents: 3 },
      snapshots: false,
    });
    const { stream, connectionId } = await connectStream(server.node.url);
    await stream.until(() => stream.events.length >= 3);
    stream.close();
    await eventually(() => server!.app.stats().graceTimers === 1);

    const resumed = await openEventStream(`${server.node.url}/sse?connectionId=${connectionId}`, {
      headers: { 'Last-Event-ID': '2' },
    });
    await resumed.until(() => resumed.events.length >= 12);
    expect(resumed.events[0]).toMatchObject({ event: 'reset', data: '{"reason":"replay-gap"}' });
    const fresh = JSON.parse(resumed.events[1]!.data);
    expect(resumed.events[1]!.event).toBe('connected');
    expect(fresh).toMatchObject({ resumed: false, replayed: 0 });
    expect(fresh.connectionId).not.toBe(connectionId);
    expect(resumed.events.slice(2).map((event) => event.id)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
    await record.until(() => record.disconnects.length === 1);
    expect(record.disconnects).toEqual([{ id: connectionId, reason: 'reset' }]);
    expect(record.connections).toHaveLength(2);
    expect(server.app.registry.size()).toBe(1);
    resumed.close();
  });

  it('sends reset for an unknown or expired connection id, and rejects malformed ids and event ids', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent });
    const unknown = await openEventStream(
      `${server.node.url}/sse?connectionId=AAAAAAAAAAAAAAAAAAAAAA`,
      { headers: { 'Last-Event-ID': '7' } },
    );
    await unknown.until(() => unknown.events.length >= 2);
    expect(unknown.events[0]).toMatchObject({
      event: 'reset',
      data: '{"reason":"unknown-connection"}',
    });
    expect(unknown.events[1]!.event).toBe('connected');
    unknown.close();

    const malformed = await fetch(`${server.node.url}/sse?connectionId=not-an-id`);
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('VALIDATION_FAILED');
    const badEventId = await fetch(`${server.node.url}/sse`, {
      headers: { 'Last-Event-ID': '-1' },
    });
    expect(badEventId.status).toBe(400);
    await badEventId.body?.cancel();
  });

  it('ends the stream with a close event when the agent closes the connection', async () => {
    const record = recorder((connection) => {
      connection.send(createSurface);
      connection.close();
    });
    server = await startTestServer({ agent: record.agent });
    const stream = await openEventStream(`${server.node.url}/sse`);
    await stream.end();
    expect(stream.events.map((event) => event.event)).toEqual(['connected', undefined, 'close']);
    expect(stream.events[2]!.data).toBe('{"reason":"server-closed"}');
    await record.until(() => record.disconnects.length === 1);
    expect(record.disconnects[0]!.reason).toBe('server-closed');
    expect(server.app.stats()).toMatchObject({ sessions: 0, links: 0, keepAliveTimer: false });
  });

  it('survives agent hooks that throw', async () => {
    const failures: unknown[] = [];
    server = await startTestServer({
      agent: {
        onConnect() {
          throw new Error('agent bug');
        },
      },
      onAgentError: (error) => failures.push(error),
    });
    const { stream } = await connectStream(server.node.url);
    await eventually(() => failures.length > 0);
    expect(String(failures[0])).toContain('agent bug');
    expect(server.app.registry.size()).toBe(1);
    stream.close();
  });

  it('is served under a base path, either mounted with route() or with the basePath option', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    const mounted = new Hono().route('/a2ui', createSseJsonRpcServer({ agent: record.agent }));
    mounted.get('/', (c) => c.text('home'));
    const node = await serveSseJsonRpc(mounted);
    const standalone = createSseJsonRpcServer({ agent: record.agent, basePath: '/api/ui' });
    const node2 = await serveSseJsonRpc(standalone);
    try {
      for (const base of [`${node.url}/a2ui`, `${node2.url}/api/ui`]) {
        const { stream, connectionId } = await connectStream(base);
        await stream.next((event) => event.id === '1');
        const answer = await rpc(base, {
          jsonrpc: '2.0',
          id: 1,
          method: 'a2ui.action',
          params: { connectionId, action: action() },
        });
        expect(answer.json).toEqual({
          jsonrpc: '2.0',
          id: 1,
          result: { accepted: true, turn: TURN },
        });
        stream.close();
      }
      expect((await fetch(`${node.url}/sse`)).status).toBe(404);
    } finally {
      await node.close();
      await node2.close();
      await standalone.close();
    }
  });
});

describe('POST /rpc', () => {
  async function setup(options: Partial<Parameters<typeof startTestServer>[0]> = {}) {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent, ...options });
    const { stream, connectionId } = await connectStream(
      server.node.url,
      options.authenticate ? { headers: { authorization: 'alice' } } : {},
    );
    return { record, stream, connectionId, url: server.node.url };
  }

  it('delivers a2ui.action and a2ui.error with their metadata, in order', async () => {
    const { record, connectionId, url, stream } = await setup();
    const first = await rpc(url, {
      jsonrpc: '2.0',
      id: 'a1',
      method: 'a2ui.action',
      params: { connectionId, action: action('one'), metadata: capabilities },
    });
    expect(first).toMatchObject({
      status: 200,
      json: { jsonrpc: '2.0', id: 'a1', result: { accepted: true, turn: TURN } },
    });
    const error = { code: 'CUSTOM', surfaceId: 's', message: 'client problem' };
    const second = await rpc(url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'a2ui.error',
      params: { connectionId, error },
    });
    expect(second.json).toEqual({ jsonrpc: '2.0', id: 2, result: { accepted: true, turn: TURN } });
    await record.until(() => record.errors.length === 1);
    expect(record.actions).toEqual([{ name: 'one', metadata: capabilities }]);
    expect(record.errors).toEqual([error]);
    expect(record.connections[0]!.clientCapabilities).toEqual(capabilities.a2uiClientCapabilities);
    stream.close();
  });

  it('treats the JSON-RPC id as an idempotency key: a retried request is delivered once', async () => {
    const { record, connectionId, url, stream } = await setup();
    const request = {
      jsonrpc: '2.0',
      id: 'retry-1',
      method: 'a2ui.action',
      params: { connectionId, action: action() },
    };
    expect((await rpc(url, request)).json.result).toEqual({ accepted: true, turn: TURN });
    expect((await rpc(url, request)).json.result).toEqual({
      accepted: true,
      duplicate: true,
      turn: TURN,
    });
    // A numeric id and a string id with the same digits are different ids.
    await rpc(url, { ...request, id: 7 });
    await rpc(url, { ...request, id: '7' });
    await record.until(() => record.actions.length === 3);
    expect(record.actions).toHaveLength(3);
    stream.close();
  });

  it('answers a body that is not JSON with HTTP 400, -32700 and id null', async () => {
    const { url, stream } = await setup();
    const answer = await rpc(url, '{"jsonrpc": "2.0", "method"');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(answer.json.error.message).toMatch(/^Parse error/);
    const invalidUtf8 = await fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(await invalidUtf8.json()).toMatchObject({
      id: null,
      error: { code: -32700, message: 'Parse error: The body is not valid UTF-8.' },
    });
    stream.close();
  });

  it.each([
    ['a non-object request', 42, null, ''],
    ['a missing jsonrpc member', { id: 1, method: 'a2ui.action' }, 1, '/jsonrpc'],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'a2ui.action' }, 1, '/jsonrpc'],
    ['an object id', { jsonrpc: '2.0', id: { x: 1 }, method: 'a2ui.action' }, null, '/id'],
    ['a method that is not a string', { jsonrpc: '2.0', id: 3, method: 5 }, 3, '/method'],
    [
      'params that are neither object nor array',
      { jsonrpc: '2.0', id: 4, method: 'a2ui.action', params: 'x' },
      4,
      '/params',
    ],
  ])('answers %s with -32600', async (_name, request, id, path) => {
    const { url, stream } = await setup();
    const answer = await rpc(url, request);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, data: { path } },
    });
    expect(answer.json.error.message).toMatch(/^Invalid Request: /);
    stream.close();
  });

  it('answers an empty batch and an oversized batch with a single -32600', async () => {
    const { url, connectionId, stream } = await setup();
    expect((await rpc(url, [])).json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: empty batch' },
    });
    const many = Array.from({ length: 101 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'a2ui.action',
      params: { connectionId, action: action() },
    }));
    const answer = await rpc(url, many);
    expect(answer.json).toMatchObject({
      id: null,
      error: { code: -32600, data: { maxBatchLength: 100 } },
    });
    stream.close();
  });

  it('answers an unknown method with -32601, and a notification of one with nothing', async () => {
    const { url, stream } = await setup();
    const answer = await rpc(url, { jsonrpc: '2.0', id: 9, method: 'a2ui.unknown', params: {} });
    expect(answer.json).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32601, message: 'Method not found: "a2ui.unknown"' },
    });
    const notification = await rpc(url, { jsonrpc: '2.0', method: 'a2ui.unknown' });
    expect(notification.status).toBe(204);
    expect(notification.text).toBe('');
    stream.close();
  });

  it.each([
    ['params given by position', (id: string) => [id], '/params'],
    ['a missing connectionId', () => ({ action: action() }), '/params/connectionId'],
    [
      'a malformed connectionId',
      () => ({ connectionId: 'short', action: action() }),
      '/params/connectionId',
    ],
    ['a missing action', (id: string) => ({ connectionId: id }), '/params/action'],
    [
      'an action name that is not a string',
      (id: string) => ({ connectionId: id, action: { ...action(), name: 5 } }),
      '/params/action/name',
    ],
    [
      'an action without a timestamp',
      (id: string) => ({ connectionId: id, action: { ...action(), timestamp: undefined } }),
      '/params/action/timestamp',
    ],
    [
      'metadata that is not an object',
      (id: string) => ({ connectionId: id, action: action(), metadata: [1] }),
      '/params/metadata',
    ],
    [
      'malformed client capabilities',
      (id: string) => ({
        connectionId: id,
        action: action(),
        metadata: { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: 'basic' } } },
      }),
      '/params/metadata/a2uiClientCapabilities/v0.9/supportedCatalogIds',
    ],
  ])(
    'answers %s with -32602 and the JSON Pointer of the bad field',
    async (_name, params, path) => {
      const { url, connectionId, record, stream } = await setup();
      const answer = await rpc(url, {
        jsonrpc: '2.0',
        id: 'p',
        method: 'a2ui.action',
        params: params(connectionId),
      });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({
        jsonrpc: '2.0',
        id: 'p',
        error: { code: -32602, data: { path } },
      });
      expect(answer.json.error.message).toMatch(/^Invalid params: /);
      expect(record.actions).toEqual([]);
      stream.close();
    },
  );

  it('answers -32602 for a malformed error message too', async () => {
    const { url, connectionId, stream } = await setup();
    const answer = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'a2ui.error',
      params: { connectionId, error: { code: 'X', message: 'no surface' } },
    });
    expect(answer.json.error).toMatchObject({ code: -32602 });
    expect(answer.json.error.data.path).toMatch(/^\/params\/error/);
    stream.close();
  });

  it('answers -32001 for an unknown connection and for one that has ended', async () => {
    const { url, connectionId, record, stream } = await setup();
    const unknown = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'a2ui.action',
      params: { connectionId: 'AAAAAAAAAAAAAAAAAAAAAA', action: action() },
    });
    expect(unknown.json).toMatchObject({
      id: 1,
      error: {
        code: -32001,
        message: 'Unknown or expired connection',
        data: { connectionId: 'AAAAAAAAAAAAAAAAAAAAAA' },
      },
    });
    record.connections[0]!.close();
    await eventually(() => server!.app.registry.size() === 0);
    const ended = await rpc(url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'a2ui.action',
      params: { connectionId, action: action() },
    });
    expect(ended.json.error.code).toBe(-32001);
    stream.close();
  });

  it('processes a batch in order: results for requests, nothing for notifications, errors only where they belong', async () => {
    const { url, connectionId, record, stream } = await setup();
    const answer = await rpc(url, [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'a2ui.action',
        params: { connectionId, action: action('first') },
      },
      {
        jsonrpc: '2.0',
        method: 'a2ui.action',
        params: { connectionId, action: action('notified') },
      },
      { jsonrpc: '2.0', id: 2, method: 'a2ui.nope' },
      7,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'a2ui.action',
        params: { connectionId, action: { ...action(), name: 1 } },
      },
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'a2ui.action',
        params: { connectionId, action: action('last') },
      },
    ]);
    expect(answer.status).toBe(200);
    expect(
      answer.json.map((response: { id: unknown; result?: unknown; error?: { code: number } }) => [
        response.id,
        response.result ?? response.error!.code,
      ]),
    ).toEqual([
      [1, { accepted: true }],
      [2, -32601],
      [null, -32600],
      [3, -32602],
      // Only the last message of the call names its turn: turns follow one another.
      [4, { accepted: true, turn: TURN }],
    ]);
    await record.until(() => record.actions.length === 3);
    expect(record.actions.map((entry) => entry.name)).toEqual(['first', 'notified', 'last']);
    const notifications = await rpc(url, [
      { jsonrpc: '2.0', method: 'a2ui.action', params: { connectionId, action: action('n2') } },
    ]);
    expect(notifications.status).toBe(204);
    stream.close();
  });

  it('refuses an oversized body with HTTP 413, whether declared or streamed', async () => {
    const { url, connectionId, stream } = await setup({ maxRequestBytes: 1024 });
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'a2ui.action',
      params: { connectionId, action: { ...action(), context: { pad: 'x'.repeat(2000) } } },
    });
    const declared = await rpc(url, big);
    expect(declared.status).toBe(413);
    expect(declared.json).toMatchObject({
      id: null,
      error: { code: -32600, data: { maxRequestBytes: 1024 } },
    });
    const chunks = [big.slice(0, 800), big.slice(800)];
    const streamed = await fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(chunk));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await streamed.body?.cancel();
    // The connection is undisturbed.
    const fine = await rpc(url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'a2ui.action',
      params: { connectionId, action: action() },
    });
    expect(fine.json.result).toEqual({ accepted: true, turn: TURN });
    stream.close();
  });

  it('refuses other media types with 415 and wrong methods with 405', async () => {
    const { url, stream } = await setup();
    const text = await fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: { code: -32600 } });
    const get = await fetch(`${url}/rpc`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    await get.body?.cancel();
    const post = await fetch(`${url}/sse`, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.body?.cancel();
    const head = await fetch(`${url}/sse`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    expect(server!.app.registry.size()).toBe(1);
    stream.close();
  });

  it('a2ui.disconnect ends the connection at once: close event, onDisconnect(client-closed)', async () => {
    const { url, connectionId, record, stream } = await setup();
    const answer = await rpc(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'a2ui.disconnect',
      params: { connectionId },
    });
    expect(answer.json).toEqual({ jsonrpc: '2.0', id: 1, result: { closed: true } });
    await stream.end();
    expect(stream.events.at(-1)).toMatchObject({
      event: 'close',
      data: '{"reason":"client-closed"}',
    });
    await record.until(() => record.disconnects.length === 1);
    expect(record.disconnects[0]!.reason).toBe('client-closed');
  });

  it('keeps other connections streaming while one client sends garbage', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent });
    const a = await connectStream(server.node.url);
    const b = await connectStream(server.node.url);
    for (const [garbage, status] of [
      ['nope', 400],
      ['[]', 200],
      ['[1,2]', 200],
      ['{"jsonrpc":"2.0","id":1,"method":"a2ui.action","params":{"connectionId":5}}', 200],
      ['\u0000', 400],
    ] as const) {
      const answer = await rpc(server.node.url, garbage);
      expect(answer.status).toBe(status);
    }
    for (const connection of record.connections) connection.send(update(1));
    await a.stream.next((event) => event.id === '1');
    await b.stream.next((event) => event.id === '1');
    a.stream.close();
    b.stream.close();
  });
});

describe('authentication and principal binding', () => {
  const authenticate = (request: Request) => {
    const user =
      request.headers.get('authorization') ?? new URL(request.url).searchParams.get('user');
    if (user === 'mallory') throw new A2uiError('FORBIDDEN', 'Mallory is banned.');
    return user ? { user } : undefined;
  };

  it('refuses unauthenticated requests with 401 (SSE) and -32003 (RPC), and banned ones with 403', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent, authenticate });
    const sse = await fetch(`${server.node.url}/sse`);
    expect(sse.status).toBe(401);
    expect(await sse.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'Authentication is required.' },
    });
    const banned = await fetch(`${server.node.url}/sse`, { headers: { authorization: 'mallory' } });
    expect(banned.status).toBe(403);
    await banned.body?.cancel();
    const answer = await rpc(server.node.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'a2ui.action',
      params: {},
    });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32003, message: 'Unauthorized: Authentication is required.' },
    });
    expect(record.connections).toEqual([]);
  });

  it('binds a connection to its principal: other principals get -32002 and 403, and the owner is undisturbed', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent, authenticate });
    const { stream, connectionId } = await connectStream(server.node.url, {
      headers: { authorization: 'alice' },
    });
    expect(record.connections[0]!.principal).toEqual({ user: 'alice' });
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'a2ui.action',
      params: { connectionId, action: action() },
    };
    const stolen = await rpc(server.node.url, request, { authorization: 'bob' });
    expect(stolen.json).toMatchObject({
      id: 1,
      error: { code: -32002, message: 'Forbidden: the connection belongs to another principal' },
    });
    const hijack = await fetch(`${server.node.url}/sse?connectionId=${connectionId}`, {
      headers: { authorization: 'bob', 'Last-Event-ID': '0' },
    });
    expect(hijack.status).toBe(403);
    await hijack.body?.cancel();
    const disconnect = await rpc(
      server.node.url,
      { jsonrpc: '2.0', id: 2, method: 'a2ui.disconnect', params: { connectionId } },
      { authorization: 'bob' },
    );
    expect(disconnect.json.error.code).toBe(-32002);
    expect(record.actions).toEqual([]);
    // The owner (here authenticated by query, as an EventSource would) still acts and streams.
    const own = await rpc(server.node.url, request, { authorization: 'alice' });
    expect(own.json.result).toEqual({ accepted: true, turn: TURN });
    record.connections[0]!.send(update(5));
    await stream.next((event) => event.id === '2');
    expect(server.app.registry.size()).toBe(1);
    stream.close();
  });

  it('uses isSamePrincipal when given', async () => {
    const record = recorder();
    server = await startTestServer({
      agent: record.agent,
      authenticate: (request) => ({
        user: request.headers.get('authorization'),
        session: Math.random(),
      }),
      isSamePrincipal: (bound, current) =>
        (bound as { user: string }).user === (current as { user: string }).user,
    });
    const { stream, connectionId } = await connectStream(server.node.url, {
      headers: { authorization: 'alice' },
    });
    const answer = await rpc(
      server.node.url,
      { jsonrpc: '2.0', id: 1, method: 'a2ui.action', params: { connectionId, action: action() } },
      { authorization: 'alice' },
    );
    expect(answer.json.result).toEqual({ accepted: true, turn: TURN });
    stream.close();
  });

  it('reports an authenticate hook that crashes as a 500, not as a refusal', async () => {
    const record = recorder();
    const logged = createDeferred<void>();
    const original = console.error;
    console.error = () => logged.resolve();
    try {
      server = await startTestServer({
        agent: record.agent,
        authenticate: () => {
          throw new TypeError('bug');
        },
      });
      const sse = await fetch(`${server.node.url}/sse`);
      expect(sse.status).toBe(500);
      await sse.body?.cancel();
      await logged.promise;
    } finally {
      console.error = original;
    }
  });
});

describe('CORS', () => {
  it('answers preflights and tags responses for allowed origins only', async () => {
    const record = recorder();
    server = await startTestServer({
      agent: record.agent,
      cors: {
        origin: ['https://app.example'],
        allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID'],
        maxAge: 600,
        credentials: true,
      },
    });
    const preflight = await fetch(`${server.node.url}/rpc`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,Last-Event-ID',
    );
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-max-age')).toBe('600');

    const stream = await openEventStream(`${server.node.url}/sse`, {
      headers: { Origin: 'https://app.example' },
    });
    expect(stream.response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    await stream.next((event) => event.event === 'connected');
    stream.close();

    const stranger = await fetch(`${server.node.url}/rpc`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends no CORS headers unless configured', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent });
    const stream = await openEventStream(`${server.node.url}/sse`, {
      headers: { Origin: 'https://app.example' },
    });
    expect(stream.response.headers.get('access-control-allow-origin')).toBeNull();
    stream.close();
  });
});

describe('POST /rpc through a node that does not own the connection', () => {
  it("answers an action whose owner's turn outlasts turnWaitMs as accepted, without the turn", async () => {
    const cluster = createMemoryCluster();
    const stores = { registry: cluster.registry, createReplayLog: cluster.createReplayLog };
    const gate = createDeferred<void>();
    const record = recorder();
    const agent: A2uiAgent = {
      ...record.agent,
      async onAction(connection, event, metadata) {
        record.agent.onAction!(connection, event, metadata);
        await gate.promise;
      },
    };
    server = await startTestServer({ agent, ...stores, router: cluster.router('a') });
    const onB = await startTestServer({
      agent,
      ...stores,
      router: cluster.router('b'),
      turnWaitMs: 50,
    });
    try {
      const { stream, connectionId } = await connectStream(server.node.url);
      const request = {
        jsonrpc: '2.0',
        id: 1,
        method: 'a2ui.action',
        params: { connectionId, action: action('slow') },
      };
      const answer = await rpc(onB.node.url, request);
      expect(answer.json).toEqual({ jsonrpc: '2.0', id: 1, result: { accepted: true } });
      gate.resolve();
      // The same id again: a duplicate; the agent saw the action once.
      const retried = await rpc(onB.node.url, request);
      expect(retried.json.result).toMatchObject({ accepted: true, duplicate: true });
      expect(record.actions.map((entry) => entry.name)).toEqual(['slow']);
      stream.close();
    } finally {
      await onB.close();
    }
  });

  it('answers a request its router gave up on as a retryable busy refusal, and an unexpected failure without its text', async () => {
    const cluster = createMemoryCluster();
    const stores = { registry: cluster.registry, createReplayLog: cluster.createReplayLog };
    const record = recorder();
    server = await startTestServer({ agent: record.agent, ...stores, router: cluster.router('a') });
    const reported: unknown[] = [];
    let failure: unknown;
    const router = cluster.router('b');
    const onB = await startTestServer({
      agent: record.agent,
      ...stores,
      router: { ...router, forward: async () => Promise.reject(failure) },
      onAgentError: (error) => reported.push(error),
    });
    try {
      const { stream, connectionId } = await connectStream(server.node.url);
      const request = (id: number) => ({
        jsonrpc: '2.0',
        id,
        method: 'a2ui.action',
        params: { connectionId, action: action() },
      });
      // A router that stopped waiting for the owner: the outcome is unknown, so retry.
      failure = new A2uiError('ABORTED', 'The forwarded request was aborted.');
      const aborted = await rpc(onB.node.url, request(1));
      expect(aborted.status).toBe(503);
      expect(aborted.headers.get('retry-after')).toBe('1');
      expect(aborted.json.error).toMatchObject({ code: -32005, data: { retryAfterMs: 1_000 } });
      failure = new Error('redis said: secret internals');
      const crashed = await rpc(onB.node.url, request(2));
      expect(crashed.json.error).toEqual({ code: -32603, message: 'Internal error' });
      expect(crashed.text).not.toContain('secret');
      expect(reported).toEqual([failure]);
      stream.close();
    } finally {
      await onB.close();
    }
  });
});
