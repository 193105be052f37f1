/**
 * Fault injection: links reset at seeded random points, a server restart, grace expiry, connection
 * churn, and a client that stops reading. Every wait is event-driven; the only clocks are the
 * server's own timers (grace, keep-alive) under test.
 */

import { fileURLToPath } from 'node:url';
import {
  A2uiClient,
  BASIC_CATALOG_ID,
  type Connection,
  type DisconnectReason,
  type ServerMessage,
  snapshotState,
} from '@a2ui-ts/core';
import {
  createChunkedAgent,
  createChurnAgent,
  createDeferred,
  createFloodAgent,
  chunkedSurface as createSurface,
  recordTransport,
  runGracefulRestart,
  runInBatches,
  runLinkResetTrials,
  chunkedUpdate as update,
  waitForClient,
} from '@a2ui-ts/core/testing';
import {
  countActiveTimers,
  createTcpProxy,
  eventually,
  expectKillTrialHeld,
  openStalledReader,
  runKillTrial,
} from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../test/event-stream-reader.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../test/harness.js';
import { connectSseJsonRpc } from './client/connect-sse-json-rpc.js';
import { serveSseJsonRpc } from './node.js';
import { createSseJsonRpcServer } from './server/create-sse-json-rpc-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('faults', () => {
  it('loses and repeats nothing when TCP links are reset at random points of a 500-message stream (50 seeded trials)', async () => {
    const chunked = createChunkedAgent();
    server = await startTestServer({ agent: chunked.agent, reconnectGraceMs: 60_000 });
    const totalDrops = await runLinkResetTrials({
      chunked,
      trials: 50,
      seed: 1000,
      open: (random) => server!.connectThroughProxy({ random }),
    });
    expect(chunked.connects()).toBe(50);
    expect(totalDrops).toBeGreaterThanOrEqual(50);
    await eventually(() => server!.app.registry.size() === 0);
  });

  it('after a server restart, the client gets a reset and the state of the new session only', async () => {
    const sessionOne: ServerMessage[] = [createSurface, update(1), update(2)];
    const sessionTwo: ServerMessage[] = [
      { version: 'v0.9', createSurface: { surfaceId: 'fresh', catalogId: BASIC_CATALOG_ID } },
      { version: 'v0.9', updateDataModel: { surfaceId: 'fresh', path: '/restarted', value: true } },
    ];
    const firstDisconnect = createDeferred<DisconnectReason>();
    const first = await startTestServer({
      agent: {
        onConnect: (connection) => connection.send(sessionOne),
        onDisconnect: (_c, reason) => firstDisconnect.resolve(reason),
      },
    });
    // A proxy of its own: the first server's proxies close with it.
    const proxy = await createTcpProxy(first.node.port);
    const transport = connectSseJsonRpc({ url: proxy.url, reconnect: FAST_RECONNECT });
    const client = new A2uiClient({ transport });
    const resets: unknown[] = [];
    client.subscribe((event) => {
      if (event.type === 'reset') resets.push(event.reason);
    });
    void client.connect().catch(() => {});
    await waitForClient(client, () => transport.lastEventId === 3, 'session one');
    const oldId = transport.connectionId;

    // The process dies: every socket goes, no polite close, and the sessions die with it.
    proxy.setRefusing(true);
    first.node.server.closeAllConnections();
    proxy.drop();
    await first.close();
    expect(await firstDisconnect.promise).toBe('server-closed');

    server = await startTestServer({
      agent: { onConnect: (connection) => connection.send(sessionTwo) },
    });
    proxy.setTarget(server.node.port);
    proxy.setRefusing(false);
    await waitForClient(
      client,
      () => client.processor.getSurface('fresh')?.dataModel.get('/restarted') === true,
      'session two',
    );

    expect(resets).toEqual(['The server no longer knows this connection (expired or restarted).']);
    expect(client.processor.getSurface('counter')).toBeUndefined();
    const reference = new A2uiClient().processor;
    reference.process(sessionTwo);
    expect(snapshotState(client.processor)).toEqual(snapshotState(reference));
    expect(transport.connectionId).not.toBe(oldId);
    expect(transport.lastEventId).toBe(2);
    await client.close();
    await proxy.close();
  });

  it('runs onDisconnect(grace-expired) when a dropped link is not resumed in time, and resets the late client', async () => {
    const disconnected = createDeferred<DisconnectReason>();
    const connections: Connection[] = [];
    server = await startTestServer({
      reconnectGraceMs: 50,
      agent: {
        onConnect: (connection) => {
          connections.push(connection);
          connection.send(createSurface);
        },
        onDisconnect: (_connection, reason) => disconnected.resolve(reason),
      },
    });
    const { transport, proxy } = await server.connectThroughProxy();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    proxy.setRefusing(true);
    proxy.drop();
    expect(await disconnected.promise).toBe('grace-expired');
    await eventually(() => server!.app.registry.size() === 0);
    expect(server.app.stats()).toMatchObject({
      sessions: 0,
      links: 0,
      graceTimers: 0,
      keepAliveTimer: false,
      bufferedBytes: 0,
    });
    expect(connections[0]!.closed).toBe(true);
    expect(connections[0]!.signal.aborted).toBe(true);

    proxy.setRefusing(false);
    await recording.until(
      (events) =>
        events.some((event) => event.type === 'reset') && recording.messages().length === 2,
    );
    expect(connections).toHaveLength(2);
    await transport.close();
    await proxy.close();
  });

  it('returns registry entries, buffers and timers to zero after 1,000 connect/disconnect cycles', async () => {
    const churn = createChurnAgent();
    server = await startTestServer({
      reconnectGraceMs: 10,
      keepAliveIntervalMs: 5,
      agent: churn.agent,
    });
    const timersBefore = countActiveTimers();
    const cycle = async (index: number) => {
      // Odd cycles vanish without a word (their link is cut and they never come back); even ones say goodbye.
      const cut = new AbortController();
      const transport = server!.connect({
        reconnect: { maxAttempts: 0 },
        fetch: (input, init) =>
          fetch(input, {
            ...init,
            signal: init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal,
          }),
      });
      const recording = recordTransport(transport);
      await recording.until(() => recording.messages().length === 2);
      if (index % 2 === 0) await transport.close();
      else cut.abort();
      await recording.done.catch(() => {});
    };
    await runInBatches(1000, 20, cycle);
    await eventually(
      () => server!.app.registry.size() === 0 && churn.reasons()['grace-expired'] === 500,
    );
    expect(churn.connects()).toBe(1000);
    expect(churn.reasons()).toEqual({ 'client-closed': 500, 'grace-expired': 500 });
    expect(server.app.stats()).toEqual({
      sessions: 0,
      links: 0,
      bufferedBytes: 0,
      graceTimers: 0,
      keepAliveTimer: false,
      droppedSlowLinks: 0,
      peakLinkBufferedBytes: expect.any(Number),
      evictedSessions: 0,
      refusedSessions: 0,
      followerLinks: 0,
      queuedClientMessages: 0,
      queuedClientBytes: 0,
      rememberedRequests: 0,
      rememberedRequestBytes: 0,
      pendingToolCalls: 0,
    });
    expect(countActiveTimers()).toBeLessThanOrEqual(timersBefore);
  });

  it('bounds what a client that stops reading costs: its link is dropped past maxBufferedBytes', async () => {
    const maxBufferedBytes = 256 * 1024;
    const replayBytes = 1024 * 1024;
    // 12.8 MB in all, in 200 updates of 64 KiB.
    const payload = 'x'.repeat(64 * 1024);
    const flood = createFloodAgent(200, payload);
    server = await startTestServer({
      maxBufferedBytes,
      replayBuffer: { maxEvents: 1000, maxBytes: replayBytes },
      reconnectGraceMs: 60_000,
      agent: flood.agent,
    });
    // A raw client that reads the response head and then never reads again.
    const reader = await openStalledReader(
      server.node.port,
      `GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      'event: connected',
    );
    await flood.sent;
    const connection = flood.connection();
    const stats = server.app.stats();
    expect(stats.droppedSlowLinks).toBe(1);
    expect(stats.links).toBe(0);
    expect(stats.bufferedBytes).toBe(0);
    // One message may land on top of the limit before the check that drops the link.
    expect(stats.peakLinkBufferedBytes).toBeGreaterThan(maxBufferedBytes);
    expect(stats.peakLinkBufferedBytes).toBeLessThanOrEqual(
      maxBufferedBytes + payload.length + 1024,
    );
    // The session lives on, bounded by its replay buffer, waiting for a resume.
    expect(connection!.closed).toBe(false);
    expect(stats.graceTimers).toBe(1);
    const session = server.app.host.session(connection!.id)!;
    expect(session.replayLog.size()).toEqual(
      expect.objectContaining({ bytes: expect.any(Number) }),
    );
    expect((await session.replayLog.size()).bytes).toBeLessThanOrEqual(replayBytes);
    // Reading again, the client finds its connection gone.
    reader.resume();
    await reader.closed;
  });
});

describe('a server killed between acknowledgement and apply', () => {
  it('has applied every action the client saw acknowledged, none twice, and the client comes back to its successor', async () => {
    const figures = await runKillTrial({
      script: fileURLToPath(new URL('../test/fault-server.ts', import.meta.url)),
      connect: (url) => connectSseJsonRpc({ url, reconnect: FAST_RECONNECT }),
      killAfterAcks: 3,
    });
    expectKillTrialHeld(figures, 3);
  });
});

describe('a graceful restart', () => {
  it('ends streams with retry: and a close event that asks the client back; it reconnects and starts over on the server that follows', async () => {
    await runGracefulRestart({
      start: (agent, port) =>
        serveSseJsonRpc(createSseJsonRpcServer({ agent, retryMs: 5 }), { port }),
      connect: (port) =>
        connectSseJsonRpc({ url: `http://127.0.0.1:${port}`, reconnect: FAST_RECONNECT }),
    });
  });
});

// A standalone check that the Node helper closes cleanly with links still open.
describe('serveSseJsonRpc', () => {
  it('close() ends every open stream with retry: and a close event that asks the client back, and releases the port', async () => {
    const app = createSseJsonRpcServer({
      agent: { onConnect: (connection) => connection.send(createSurface) },
    });
    const node = await serveSseJsonRpc(app);
    const streams = await Promise.all(
      Array.from({ length: 20 }, () => openEventStream(`${node.url}/sse`)),
    );
    for (const stream of streams) await stream.next((event) => event.event === 'connected');
    await node.close();
    for (const stream of streams) {
      await stream.end();
      expect(stream.text).toMatch(
        /\n\nretry: 1000\nevent: close\ndata: \{"reason":"server-closed","retryAfterMs":1000\}\n\n$/,
      );
    }
    expect(node.server.listening).toBe(false);
    expect(app.stats()).toMatchObject({ sessions: 0, links: 0, keepAliveTimer: false });
    // A stream asked for after the shutdown ends as the open ones did.
    const late = await app.fetch(new Request('http://localhost/sse'));
    expect([late.status, await late.text()]).toEqual([
      200,
      'retry: 1000\nevent: close\ndata: {"reason":"server-closed","retryAfterMs":1000}\n\n',
    ]);
  });
});

describe('close()', () => {
  const shutdownRefusal = (id: string, connectionId: string) => ({
    jsonrpc: '2.0',
    id,
    error: {
      code: -32001,
      message:
        'Unknown or expired connection: the server is shutting down; come back after retryAfterMs',
      data: { connectionId, reason: 'server-closed', retryAfterMs: 250 },
    },
  });

  it('answers every stream and JSON-RPC call that arrives once it was called with the shutdown answer and its retryAfterMs', async () => {
    const app = createSseJsonRpcServer({
      agent: { onConnect: (connection) => connection.send(createSurface) },
      retryMs: 250,
    });
    const node = await serveSseJsonRpc(app);
    const stream = await openEventStream(`${node.url}/sse`);
    const { connectionId } = JSON.parse(
      (await stream.next((event) => event.event === 'connected')).data,
    ) as { connectionId: string };
    // The app closes; its listener still takes requests (a balancer's, a client's in flight).
    await app.close();
    await stream.end();
    const closeEvent =
      'retry: 250\nevent: close\ndata: {"reason":"server-closed","retryAfterMs":250}\n\n';
    const resumed = await fetch(`${node.url}/sse?connectionId=${connectionId}`, {
      headers: { 'Last-Event-ID': '1' },
    });
    expect([resumed.status, await resumed.text()]).toEqual([200, closeEvent]);
    const rpc = async (body: unknown) => {
      const response = await fetch(`${node.url}/rpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return [response.status, response.headers.get('retry-after'), await response.json()];
    };
    const call = (id: string, method: string, params: Record<string, unknown> = {}) => ({
      jsonrpc: '2.0',
      id,
      method,
      params: { connectionId, ...params },
    });
    const act = {
      name: 'late',
      surfaceId: 'counter',
      sourceComponentId: 'b',
      timestamp: '2026-01-15T12:00:00.000Z',
      context: {},
    };
    expect(await rpc(call('r1', 'a2ui.action', { action: act }))).toEqual([
      503,
      '1',
      shutdownRefusal('r1', connectionId),
    ]);
    expect(
      await rpc([
        call('r2', 'a2ui.action', { action: act }),
        call('r3', 'a2ui.error', {
          error: { code: 'CUSTOM', surfaceId: 'counter', message: 'oops' },
        }),
      ]),
    ).toEqual([
      503,
      '1',
      [shutdownRefusal('r2', connectionId), shutdownRefusal('r3', connectionId)],
    ]);
    expect(await rpc(call('r4', 'a2ui.disconnect'))).toEqual([
      200,
      null,
      { jsonrpc: '2.0', id: 'r4', result: { closed: true } },
    ]);
    await node.close();
  });

  it('a client whose call is refused by the shutdown sends it again after retryAfterMs', async () => {
    const live = await serveSseJsonRpc(
      createSseJsonRpcServer({
        agent: { onConnect: (connection) => connection.send(createSurface) },
      }),
    );
    const closing = createSseJsonRpcServer({ agent: {}, retryMs: 250 });
    const closed = await serveSseJsonRpc(closing);
    await closing.close();
    // The stream stays on a live server; the calls reach one that shuts down.
    const transport = connectSseJsonRpc({
      url: live.url,
      reconnect: { initialDelayMs: 1, maxDelayMs: 60_000 },
      fetch: (input, init) =>
        fetch(String(input).endsWith('/rpc') ? `${closed.url}/rpc` : input, init),
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    const sending = transport.send(
      {
        version: 'v0.9',
        action: {
          name: 'x',
          surfaceId: 'counter',
          sourceComponentId: 'b',
          timestamp: '2026-01-15T12:00:00.000Z',
          context: {},
        },
      },
      { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
    );
    sending.catch(() => {});
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('degraded')),
    );
    expect(recording.statuses()).toContain(
      'degraded: 1 client message not delivered: POST /rpc answered HTTP 503; retrying in 250 ms.',
    );
    await transport.close();
    await live.close();
    await closed.close();
  });
});
