import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type A2uiAgent,
  A2uiClient,
  A2uiError,
  type ActionEvent,
  BASIC_CATALOG_ID,
  type ClientMessage,
  type Connection,
  type DisconnectReason,
  type ServerMessage,
} from '@a2ui-ts/core';
import { computeBackoffDelay } from '@a2ui-ts/core/link';
import { recordTransport, seededRandom } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import {
  fromRpcError,
  RPC_ERRORS,
  type RpcErrorName,
  toRpcError,
} from '../protocol/json-rpc-errors.js';
import { connectSseJsonRpc } from './connect-sse-json-rpc.js';

const createSurface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
};
const update = (value: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path: '/n', value },
});
const actionMessage = (name: string): ClientMessage => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId: 's',
    sourceComponentId: 'b',
    timestamp: '2026-01-15T12:00:00Z',
    context: {},
  },
});
const metadata = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};

function recorder(onConnect?: (connection: Connection) => void) {
  const connections: Connection[] = [];
  const actions: ActionEvent[] = [];
  const disconnects: DisconnectReason[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connections.push(connection);
      onConnect?.(connection);
    },
    onAction(_connection, action) {
      actions.push(action);
    },
    onDisconnect(_connection, reason) {
      disconnects.push(reason);
    },
  };
  return { agent, connections, actions, disconnects };
}

/** A hand-written HTTP server, for behaviours our own server never shows. */
async function rawServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let server: TestServer | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await server?.close();
  server = undefined;
});

describe('connectSseJsonRpc', () => {
  it('reports connecting, open, reconnecting (reason, attempt), open again, and closed', async () => {
    const record = recorder((connection) => connection.send([createSurface, update(1)]));
    server = await startTestServer({ agent: record.agent, reconnectGraceMs: 60_000 });
    const { transport, proxy } = await server.connectThroughProxy();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 2);
    expect(transport.connectionId).toBe(record.connections[0]!.id);
    expect(transport.lastEventId).toBe(2);
    proxy.drop();
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('open: Resumed')),
    );
    record.connections[0]!.send(update(2));
    await recording.until(() => recording.messages().length === 3);
    await transport.close();
    await recording.done;
    const statuses = recording.statuses();
    expect(statuses[0]).toBe('connecting');
    expect(statuses[1]).toBe('open');
    expect(statuses[2]).toMatch(/^reconnecting: The link dropped: .*; retrying in \d+ ms\.$/);
    expect(
      recording.events.find((event) => event.type === 'status' && event.status === 'reconnecting'),
    ).toMatchObject({ attempt: 1 });
    expect(statuses[3]).toBe('open: Resumed; 0 missed events replayed.');
    expect(statuses.at(-1)).toBe('closed: Closed by the client.');
    expect(recording.messages()).toEqual([createSurface, update(1), update(2)]);
    expect(record.connections).toHaveLength(1);
    await eventually(() => record.disconnects.length === 1);
    expect(record.disconnects).toEqual(['client-closed']);
  });

  it('sends Authorization headers, asking the headers function again on every request', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    const seen: string[] = [];
    server = await startTestServer({
      agent: record.agent,
      authenticate: (request) => {
        const header = request.headers.get('authorization') ?? '';
        seen.push(`${new URL(request.url).pathname} ${header}`);
        const match = /^Bearer (\w+)-\d+$/.exec(header);
        return match ? { user: match[1] } : undefined;
      },
    });
    let token = 0;
    const { transport, proxy } = await server.connectThroughProxy({
      headers: async () => ({ Authorization: `Bearer alice-${++token}` }),
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await transport.send(actionMessage('one'), metadata);
    proxy.drop();
    await recording.until(
      () => recording.statuses().filter((status) => status.startsWith('open')).length === 2,
    );
    await transport.send(actionMessage('two'), metadata);
    expect(seen).toEqual([
      '/sse Bearer alice-1',
      '/rpc Bearer alice-2',
      '/sse Bearer alice-3',
      '/rpc Bearer alice-4',
    ]);
    expect(record.actions.map((action) => action.name)).toEqual(['one', 'two']);
    await transport.close();
  });

  it("honours the server's retry: hint as the base of the backoff", async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent, retryMs: 7000 });
    const { transport, proxy } = await server.connectThroughProxy({ random: () => 0 });
    const recording = recordTransport(transport);
    await recording.until(() => recording.statuses().includes('open'));
    proxy.drop();
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('reconnecting')),
    );
    // Attempt 1 waits between retry/2 and retry; random() = 0 gives exactly retry/2.
    expect(recording.statuses().find((status) => status.startsWith('reconnecting'))).toMatch(
      /retrying in 3500 ms\.$/,
    );
    await transport.close();
    await recording.done;
    expect(recording.statuses().at(-1)).toBe('closed: Closed by the client.');
  });

  it('backs off exponentially with jitter from a seeded random source, and gives up after maxAttempts', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent });
    const { transport, proxy } = await server.connectThroughProxy({
      random: seededRandom(42),
      reconnect: { initialDelayMs: 4, maxDelayMs: 40, multiplier: 2, maxAttempts: 6 },
    });
    proxy.setRefusing(true);
    const client = new A2uiClient({ transport });
    const statuses: Array<{ status: string; reason?: string }> = [];
    client.subscribe((event) => {
      if (event.type === 'status') statuses.push({ status: event.status, reason: event.reason });
    });
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(A2uiError.isInstance(error) && error.code).toBe('TRANSPORT_ERROR');
    expect(String((error as Error).message)).toMatch(
      /^Gave up after 6 reconnect attempts: Could not connect/,
    );
    const delays = statuses
      .filter((entry) => entry.status === 'reconnecting')
      .map((entry) => Number(/retrying in (\d+) ms/.exec(entry.reason!)![1]));
    const expected = seededRandom(42);
    expect(delays).toEqual(
      [1, 2, 3, 4, 5, 6].map((attempt) =>
        computeBackoffDelay(attempt, {
          initialDelayMs: 4,
          maxDelayMs: 40,
          multiplier: 2,
          random: expected,
        }),
      ),
    );
    expect(delays[5]).toBeLessThanOrEqual(40);
    expect(client.status).toBe('closed');
  });

  it('detects a silent link by heartbeat timeout and resumes it with Last-Event-ID', async () => {
    const requests: Array<{ url: string; lastEventId: string | undefined }> = [];
    const raw = await rawServer((request, response) => {
      requests.push({
        url: request.url!,
        lastEventId: request.headers['last-event-id'] as string | undefined,
      });
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests.length === 1) {
        // Two messages, then nothing at all: no ping, no close.
        response.write(
          `retry: 5\nevent: connected\ndata: {"connectionId":"AAAAAAAAAAAAAAAAAAAAAA","resumed":false,"replayed":0}\n\nid: 1\ndata: ${JSON.stringify(createSurface)}\n\nid: 2\ndata: ${JSON.stringify(update(1))}\n\n`,
        );
      } else {
        response.write(
          'event: connected\ndata: {"connectionId":"AAAAAAAAAAAAAAAAAAAAAA","resumed":true,"replayed":0}\n\n',
        );
      }
    });
    cleanups.push(() => raw.close());
    const transport = connectSseJsonRpc({ url: raw.url, heartbeatTimeoutMs: 100 });
    const recording = recordTransport(transport);
    await recording.until(
      () => recording.statuses().filter((status) => status.startsWith('open')).length === 2,
    );
    expect(recording.statuses()[2]).toMatch(
      /^reconnecting: No data for 100 ms \(heartbeat timeout\); retrying in \d+ ms\.$/,
    );
    expect(requests[1]).toEqual({
      url: '/sse?connectionId=AAAAAAAAAAAAAAAAAAAAAA',
      lastEventId: '2',
    });
    await transport.close();
  });

  it('drops a replayed event it has already applied', async () => {
    const raw = await rawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (id: number, message: ServerMessage) =>
        `id: ${id}\ndata: ${JSON.stringify(message)}\n\n`;
      response.write(
        `event: connected\ndata: {"connectionId":"AAAAAAAAAAAAAAAAAAAAAA","resumed":false,"replayed":0}\n\n`,
      );
      response.end(
        `${event(1, createSurface)}${event(2, update(1))}${event(2, update(1))}${event(1, createSurface)}${event(3, update(2))}event: close\ndata: {"reason":"server-closed"}\n\n`,
      );
    });
    cleanups.push(() => raw.close());
    const transport = connectSseJsonRpc({ url: raw.url });
    const recording = recordTransport(transport);
    await recording.done;
    expect(recording.messages()).toEqual([createSurface, update(1), update(2)]);
    expect(recording.statuses().at(-1)).toBe(
      'closed: The server closed the connection (server-closed).',
    );
  });

  it('resumes when an event id skips ahead, so a message lost on the way is fetched again', async () => {
    const requests: Array<string | undefined> = [];
    const event = (id: number, message: ServerMessage) =>
      `id: ${id}\ndata: ${JSON.stringify(message)}\n\n`;
    const raw = await rawServer((request, response) => {
      requests.push(request.headers['last-event-id'] as string | undefined);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests.length === 1) {
        response.write(
          `retry: 5\nevent: connected\ndata: {"connectionId":"AAAAAAAAAAAAAAAAAAAAAA","resumed":false,"replayed":0}\n\n${event(1, createSurface)}${event(3, update(2))}`,
        );
      } else {
        response.end(
          `event: connected\ndata: {"connectionId":"AAAAAAAAAAAAAAAAAAAAAA","resumed":true,"replayed":2}\n\n${event(2, update(1))}${event(3, update(2))}event: close\ndata: {"reason":"server-closed"}\n\n`,
        );
      }
    });
    cleanups.push(() => raw.close());
    const transport = connectSseJsonRpc({ url: raw.url });
    const recording = recordTransport(transport);
    await recording.done;
    expect(recording.messages()).toEqual([createSurface, update(1), update(2)]);
    expect(requests).toEqual([undefined, '1']);
    expect(recording.statuses()[2]).toMatch(
      /^reconnecting: Event 3 arrived after event 1; resuming/,
    );
  });

  it('queues messages sent while the link is down and delivers each exactly once, in order, after reconnect', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent, reconnectGraceMs: 60_000 });
    const { transport, proxy } = await server.connectThroughProxy();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    proxy.setRefusing(true);
    proxy.drop();
    await recording.until(
      () => recording.statuses().filter((status) => status.startsWith('reconnecting')).length >= 2,
    );
    const sends = ['a', 'b', 'c', 'd', 'e'].map((name) =>
      transport.send(actionMessage(name), metadata),
    );
    expect(transport.pendingMessages).toBe(5);
    expect(record.actions).toEqual([]);
    proxy.setRefusing(false);
    await Promise.all(sends);
    expect(record.actions.map((action) => action.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(transport.pendingMessages).toBe(0);
    expect(record.connections).toHaveLength(1);
    await transport.close();
  });

  it('retries a call whose answer was lost with the same id, and the server drops the repeat', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent });
    const bodies: string[] = [];
    let loseNextAnswer = true;
    const transport = server.connect({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (String(input).endsWith('/rpc')) {
          bodies.push(String(init?.body));
          if (loseNextAnswer) {
            loseNextAnswer = false;
            await response.text();
            throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
          }
        }
        return response;
      },
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await transport.send(actionMessage('once'), metadata);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toBe(bodies[1]);
    expect(record.actions.map((action) => action.name)).toEqual(['once']);
    await transport.close();
  });

  it('turns JSON-RPC errors into A2uiErrors with the JSON Pointer of the bad field', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent });
    const transport = server.connect();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    const bad = {
      version: 'v0.9',
      action: { name: 5, surfaceId: 's', sourceComponentId: 'b', timestamp: 'now', context: {} },
    } as unknown as ClientMessage;
    const error = await transport.send(bad, metadata).catch((caught: unknown) => caught);
    expect(A2uiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/params/action/name',
      data: { rpcCode: -32602 },
    });
    await transport.close();
    await expect(transport.send(actionMessage('late'), metadata)).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });

  it('after a reset, rejects messages queued for the old session and starts over', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent });
    const { transport, proxy } = await server.connectThroughProxy();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    const firstId = transport.connectionId;
    proxy.setRefusing(true);
    proxy.drop();
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('reconnecting')),
    );
    const queued = transport.send(actionMessage('stale'), metadata);
    record.connections[0]!.close();
    await eventually(() => server!.app.registry.size() === 0);
    proxy.setRefusing(false);
    await expect(queued).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await recording.until(() => recording.messages().length === 2);
    expect(recording.events.filter((event) => event.type === 'reset')).toEqual([
      {
        type: 'reset',
        reason: 'The server no longer knows this connection (expired or restarted).',
      },
    ]);
    expect(transport.connectionId).not.toBe(firstId);
    expect(transport.connectionId).toBe(record.connections[1]!.id);
    await transport.send(actionMessage('fresh'), metadata);
    expect(record.actions.map((action) => action.name)).toEqual(['fresh']);
    await transport.close();
  });

  it('fails for good on HTTP 401, so A2uiClient.connect() rejects with UNAUTHORIZED', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent, authenticate: () => undefined });
    const client = new A2uiClient({ transport: server.connect() });
    await expect(client.connect()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(client.status).toBe('closed');
  });

  it('closes when its AbortSignal aborts, telling the server', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({ agent: record.agent, reconnectGraceMs: 60_000 });
    const abort = new AbortController();
    const transport = server.connect({ signal: abort.signal });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    abort.abort();
    await recording.done;
    expect(recording.statuses().at(-1)).toBe('closed: Closed by the client.');
    await eventually(() => record.disconnects.length === 1);
    expect(record.disconnects).toEqual(['client-closed']);
    await expect(transport.send(actionMessage('x'), metadata)).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });

  it('rejects a send whose signal aborts while it waits in the queue', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent });
    const { transport, proxy } = await server.connectThroughProxy();
    proxy.setRefusing(true);
    const recording = recordTransport(transport);
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('reconnecting')),
    );
    const abort = new AbortController();
    const sent = transport.send(actionMessage('x'), metadata, { signal: abort.signal });
    abort.abort();
    await expect(sent).rejects.toMatchObject({ code: 'ABORTED' });
    expect(transport.pendingMessages).toBe(0);
    await transport.close();
    expect(record.connections).toEqual([]);
  });
});

describe('connectSseJsonRpc limits', () => {
  it('splits a batch the server finds too large into single requests', async () => {
    const record = recorder((connection) => connection.send(createSurface));
    server = await startTestServer({
      agent: record.agent,
      maxRequestBytes: 800,
      reconnectGraceMs: 60_000,
    });
    const posted: number[] = [];
    const { transport, proxy } = await server.connectThroughProxy({
      fetch: (input, init) => {
        if (init?.method === 'POST') posted.push(String(init.body).length);
        return fetch(input, init);
      },
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    proxy.setRefusing(true);
    proxy.drop();
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('reconnecting')),
    );
    const sends = ['one', 'two', 'three'].map((name) =>
      transport.send(actionMessage(name), metadata),
    );
    proxy.setRefusing(false);
    await Promise.all(sends);
    expect(record.actions.map((action) => action.name)).toEqual(['one', 'two', 'three']);
    expect(posted[0]).toBeGreaterThan(800);
    expect(posted.slice(1).every((length) => length <= 800)).toBe(true);
    await transport.close();
  });

  it('refuses to queue more than maxQueuedMessages', async () => {
    const record = recorder();
    server = await startTestServer({ agent: record.agent });
    const { transport, proxy } = await server.connectThroughProxy({ maxQueuedMessages: 2 });
    proxy.setRefusing(true);
    const recording = recordTransport(transport);
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('reconnecting')),
    );
    const queued = [
      transport.send(actionMessage('a'), metadata),
      transport.send(actionMessage('b'), metadata),
    ];
    await expect(transport.send(actionMessage('c'), metadata)).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
    await transport.close();
    for (const promise of queued)
      await expect(promise).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });
});

describe('connectSseJsonRpc reconnect rate', () => {
  // Regression tests of the finding that a `retry: 0` hint plus a stream ending right after
  // `connected` made the client reconnect 600-1,200 times a second. Fake timers and a scripted
  // `fetch`: no sockets, no sleeps, exact delays.
  const CONNECTED =
    'retry: 0\nevent: connected\ndata: {"connectionId":"k3yQ2m0JcN1xV8fR4tL6pA","resumed":false,"replayed":0}\n\n';
  const eventStream = (body: ReadableStream<Uint8Array> | string, init: ResponseInit = {}) =>
    new Response(body, { headers: { 'content-type': 'text/event-stream' }, ...init });

  /** A transport on a scripted fetch; records status events and when each request was made. */
  function scripted(
    respond: (hit: number) => Response,
    reconnect?: Parameters<typeof connectSseJsonRpc>[0]['reconnect'],
  ) {
    const hits: number[] = [];
    const start = Date.now();
    const transport = connectSseJsonRpc({
      url: 'http://a2ui.invalid',
      random: () => 0,
      reconnect,
      fetch: async (input) => {
        if (String(input).endsWith('/rpc')) return new Response(null, { status: 204 });
        hits.push(Date.now() - start);
        return respond(hits.length);
      },
    });
    const statuses: Array<{ status: string; attempt?: number; reason?: string }> = [];
    const done = (async () => {
      for await (const event of transport.events())
        if (event.type === 'status')
          statuses.push({ status: event.status, attempt: event.attempt, reason: event.reason });
    })().catch(() => {});
    const reconnects = () => statuses.filter((entry) => entry.status === 'reconnecting');
    const delays = () =>
      reconnects().map((entry) => Number(/retrying in (\d+) ms/.exec(entry.reason!)![1]));
    return { transport, hits, statuses, reconnects, delays, done };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('raises a retry: 0 hint to minRetryMs and keeps backing off while links end right after connected', async () => {
    vi.useFakeTimers();
    const run = scripted(() => eventStream(CONNECTED));
    await vi.advanceTimersByTimeAsync(60_000);
    // random() = 0: each delay is base/2, base = 250 ms (the clamped hint) × 2^(attempt−1), ≤ 30 s.
    expect(run.delays()).toEqual([125, 250, 500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    expect(run.reconnects().map((entry) => entry.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(run.hits).toEqual([0, 125, 375, 875, 1875, 3875, 7875, 15875, 30875, 45875]);
    // Ten requests in a minute (it was hundreds a second); opening does not reset the attempt counter.
    expect(run.statuses.filter((entry) => entry.status === 'open')).toHaveLength(10);
    await run.transport.close();
    await run.done;
  });

  it('honours a smaller minRetryMs, and a hint above it as it is', async () => {
    vi.useFakeTimers();
    const low = scripted(() => eventStream(CONNECTED), { minRetryMs: 20 });
    await vi.advanceTimersByTimeAsync(100);
    expect(low.delays().slice(0, 3)).toEqual([10, 20, 40]);
    await low.transport.close();
    const high = scripted(() => eventStream(CONNECTED.replace('retry: 0', 'retry: 800')));
    await vi.advanceTimersByTimeAsync(2000);
    expect(high.delays().slice(0, 2)).toEqual([400, 800]);
    await high.transport.close();
  });

  it('starts the backoff over after a link that delivered an A2UI message', async () => {
    vi.useFakeTimers();
    const run = scripted(() =>
      eventStream(`${CONNECTED}id: 1\ndata: ${JSON.stringify(createSurface)}\n\n`),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run.reconnects().length).toBeGreaterThan(5);
    expect(run.reconnects().every((entry) => entry.attempt === 1)).toBe(true);
    expect(run.delays().every((delay) => delay === 125)).toBe(true);
    await run.transport.close();
  });

  it('starts the backoff over after a link that stayed open stableAfterMs', async () => {
    vi.useFakeTimers();
    const run = scripted((hit) => {
      if (hit !== 3) return eventStream(CONNECTED);
      // The third link stays up, without a message, for 6 s (stableAfterMs is 5 s).
      return eventStream(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(CONNECTED));
            setTimeout(() => controller.close(), 6_000);
          },
        }),
      );
    });
    await vi.advanceTimersByTimeAsync(7_000);
    // Links 1 and 2 fail (attempts 1, 2); link 3 (at 375 ms) ends healthy at 6375 ms, so the
    // next failures count from 1 again.
    expect(run.reconnects().map((entry) => entry.attempt)).toEqual([1, 2, 1, 2, 3]);
    expect(run.hits).toEqual([0, 125, 375, 6500, 6750]);
    await run.transport.close();
  });

  it("waits at least a refusing server's Retry-After", async () => {
    vi.useFakeTimers();
    const run = scripted(() =>
      Response.json(
        { error: { code: 'LIMIT_EXCEEDED', message: 'Too many open connections; retry later.' } },
        { status: 503, headers: { 'retry-after': '5' } },
      ),
    );
    await vi.advanceTimersByTimeAsync(12_000);
    expect(run.reconnects()[0]!.reason).toBe(
      'GET /sse answered HTTP 503: Too many open connections; retry later; retrying in 5000 ms.',
    );
    expect(run.hits).toEqual([0, 5000, 10000]);
    await run.transport.close();
  });
});

describe('RPC_ERRORS', () => {
  it('maps every row back to its A2uiError code, told apart by HTTP status where codes are shared', () => {
    for (const [name, row] of Object.entries(RPC_ERRORS)) {
      const error = fromRpcError(
        toRpcError(name as RpcErrorName, { detail: 'detail', data: { path: '/params/x' } }),
        { httpStatus: row.httpStatus },
      );
      expect([name, error.code, error.path]).toEqual([name, row.a2uiCode, '/params/x']);
    }
    expect(fromRpcError({ code: -31999, message: 'custom' }).code).toBe('TRANSPORT_ERROR');
  });
});
