/**
 * Fault injection: links reset at seeded random points, acknowledgements lost after the server
 * took the message, a server restart, grace expiry, connection churn, and a client that stops
 * reading. Every wait is event-driven; the only clocks are the server's own timers (grace,
 * heartbeat) under test.
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
import type { HostReceiveOptions } from '@a2ui-ts/core/host';
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
  runStoreOutageScenario,
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
  type TcpProxy,
} from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../test/harness.js';
import { connectWs } from './client/connect-ws.js';
import { serveWs } from './server/attach-ws-server.js';
import { createWsServer } from './server/create-ws-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('faults', () => {
  it('loses and repeats nothing when links are reset at random points of a 500-message stream and acknowledgements are lost (50 seeded trials)', async () => {
    const chunked = createChunkedAgent();
    server = await startTestServer({ agent: chunked.agent, reconnectGraceMs: 60_000 });

    // The host takes the message; then the link breaks before its `ack` frame reaches the client,
    // which must send it again (same id) on the next socket.
    let loseAck: () => boolean = () => false;
    let trialProxy: TcpProxy | undefined;
    let lostAcks = 0;
    const host = server.a2ui.host;
    const receive = host.receive.bind(host);
    host.receive = async (connectionId: string, request: HostReceiveOptions) => {
      const result = await receive(connectionId, request);
      if (!result.duplicate && loseAck()) {
        lostAcks++;
        trialProxy?.drop();
      }
      return result;
    };

    const totalDrops = await runLinkResetTrials({
      chunked,
      trials: 50,
      seed: 2000,
      open: (random) => server!.connectThroughProxy({ random }),
      onStart({ proxy, random }) {
        trialProxy = proxy;
        loseAck = () => random() < 0.25;
      },
      async beforeClose({ transport, proxy }) {
        loseAck = () => false;
        // A goodbye sent into a socket that is breaking is lost (its connection would wait out the
        // grace period): leave once the last drop is behind, on one live socket.
        await eventually(
          () =>
            proxy.connections === 1 &&
            transport.status === 'open' &&
            transport.pendingMessages === 0 &&
            server!.a2ui.stats().sockets === 1,
        );
      },
    });
    expect(chunked.connects()).toBe(50);
    expect(totalDrops).toBeGreaterThanOrEqual(50);
    expect(lostAcks).toBeGreaterThanOrEqual(50);
    await eventually(() => server!.a2ui.registry.size() === 0);
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
    const proxy = await createTcpProxy(first.node.port);
    const transport = connectWs({ url: proxy.url, WebSocket, reconnect: FAST_RECONNECT });
    const client = new A2uiClient({ transport });
    const resets: unknown[] = [];
    client.subscribe((event) => {
      if (event.type === 'reset') resets.push(event.reason);
    });
    void client.connect().catch(() => {});
    await waitForClient(client, () => transport.lastSeq === 3, 'session one');
    const oldId = transport.connectionId;

    // The process dies: every socket goes, no polite close, and the sessions die with it.
    proxy.setRefusing(true);
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
    expect(transport.lastSeq).toBe(2);
    await client.close();
    await proxy.close();
  });

  it('runs onDisconnect(grace-expired) when a dropped socket is not resumed in time, and resets the late client', async () => {
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
    await eventually(() => server!.a2ui.registry.size() === 0);
    expect(server.a2ui.stats()).toMatchObject({
      sessions: 0,
      sockets: 0,
      links: 0,
      graceTimers: 0,
      heartbeatTimer: false,
      bufferedBytes: 0,
    });
    expect(connections[0]!.closed).toBe(true);

    proxy.setRefusing(false);
    await recording.until(
      (events) =>
        events.some((event) => event.type === 'reset') && recording.messages().length === 2,
    );
    expect(connections).toHaveLength(2);
    await transport.close();
    await proxy.close();
  });

  it('returns sessions, sockets, buffers and timers to zero after 1,000 connect/disconnect cycles', async () => {
    const churn = createChurnAgent();
    server = await startTestServer({ reconnectGraceMs: 10, agent: churn.agent });
    const timersBefore = countActiveTimers();
    const cycle = async (index: number) => {
      // Odd cycles vanish without a word (their TCP connection is cut and they never come back);
      // even ones say goodbye.
      let socket: WebSocket | undefined;
      class Tracked extends WebSocket {
        constructor(url: string, protocols?: string[]) {
          super(url, protocols);
          socket = this;
        }
      }
      const transport = server!.connect({ WebSocket: Tracked, reconnect: { maxAttempts: 0 } });
      const recording = recordTransport(transport);
      await recording.until(() => recording.messages().length === 2);
      if (index % 2 === 0) await transport.close();
      else socket!.terminate();
      await recording.done.catch(() => {});
    };
    await runInBatches(1000, 20, cycle);
    await eventually(
      () => server!.a2ui.registry.size() === 0 && churn.reasons()['grace-expired'] === 500,
    );
    await eventually(() => server!.a2ui.stats().sockets === 0);
    expect(churn.connects()).toBe(1000);
    expect(churn.reasons()).toEqual({ 'client-closed': 500, 'grace-expired': 500 });
    expect(server.a2ui.stats()).toEqual({
      sessions: 0,
      links: 0,
      sockets: 0,
      pendingUpgrades: 0,
      bufferedBytes: 0,
      graceTimers: 0,
      heartbeatTimer: false,
      droppedSlowLinks: 0,
      unresponsiveLinks: 0,
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

  it('bounds what a client that stops reading costs: its socket is dropped past maxBufferedBytes', async () => {
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
    // A raw client that completes the handshake and then never reads again.
    const reader = await openStalledReader(
      server.node.port,
      'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      '\r\n\r\n',
    );
    await flood.sent;
    const connection = flood.connection();
    const stats = server.a2ui.stats();
    expect(stats.droppedSlowLinks).toBe(1);
    expect(stats.sockets).toBe(0);
    expect(stats.bufferedBytes).toBe(0);
    // One message may land on top of the bound before the check that drops the socket.
    expect(stats.peakLinkBufferedBytes).toBeGreaterThan(maxBufferedBytes);
    expect(stats.peakLinkBufferedBytes).toBeLessThanOrEqual(
      maxBufferedBytes + payload.length + 1024,
    );
    // The connection lives on, bounded by its replay buffer, waiting for a resume.
    expect(connection!.closed).toBe(false);
    expect(stats.graceTimers).toBe(1);
    const session = server.a2ui.host.session(connection!.id)!;
    expect((await session.replayLog.size()).bytes).toBeLessThanOrEqual(replayBytes);
    reader.resume();
    await reader.closed;
  });
});

describe('a server killed between acknowledgement and apply', () => {
  it('has applied every action the client saw acknowledged, none twice, and the client comes back to its successor', async () => {
    const figures = await runKillTrial({
      script: fileURLToPath(new URL('../test/fault-server.ts', import.meta.url)),
      connect: (url) => connectWs({ url, WebSocket, reconnect: FAST_RECONNECT }),
      killAfterAcks: 3,
    });
    expectKillTrialHeld(figures, 3);
  });
});

describe('a graceful restart', () => {
  it('closes sockets with 1012 and a retry hint; the client reconnects and starts over on the server that follows', async () => {
    await runGracefulRestart({
      start: (agent, port) => serveWs(createWsServer({ agent, restartRetryAfterMs: 5 }), { port }),
      connect: (port) =>
        connectWs({ url: `ws://127.0.0.1:${port}`, WebSocket, reconnect: FAST_RECONNECT }),
    });
  });
});

describe('a server whose shared session store is down', () => {
  it('says so in the status (not "the agent is busy"), and delivers the action once it is back', async () => {
    const outcome = await runStoreOutageScenario(async (agent) => {
      const a2ui = createWsServer({ agent });
      const node = await serveWs(a2ui);
      return {
        host: a2ui.host,
        connect: () => connectWs({ url: node.url, WebSocket, reconnect: FAST_RECONNECT }),
        close: () => node.close(),
      };
    });
    expect(outcome.degraded).toMatchObject({
      cause: 'store-unavailable',
      reason: expect.stringContaining('Server storage unavailable'),
    });
    expect(outcome.degraded.reason).not.toMatch(/busy/i);
    expect(outcome.applied).toEqual(['during-outage']);
    expect(outcome.statusAfter).toBe('open');
  });
});

describe('serveWs', () => {
  it('close() ends open sockets with 1012, the client keeps reconnecting, and the port is released', async () => {
    const a2ui = createWsServer({
      agent: { onConnect: (connection) => connection.send(createSurface) },
    });
    const node = await serveWs(a2ui);
    const transport = connectWs({ url: node.url, WebSocket });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await node.close();
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('reconnecting')),
    );
    expect(recording.statuses()).not.toContain(
      'closed: The server closed the connection (server-closed).',
    );
    expect(node.server.listening).toBe(false);
    expect(a2ui.stats()).toMatchObject({ sessions: 0, sockets: 0, heartbeatTimer: false });
    await transport.close();
  });
});
