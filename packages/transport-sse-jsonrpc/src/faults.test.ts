/**
 * Fault injection: links reset at seeded random points, a server restart, grace expiry, connection
 * churn, and a client that stops reading. Every wait is event-driven; the only clocks are the
 * server's own timers (grace, keep-alive) under test.
 */
import { connect as connectTcp } from 'node:net';
import {
  type A2uiAgent,
  A2uiClient,
  BASIC_CATALOG_ID,
  type Connection,
  type DisconnectReason,
  type ServerMessage,
  type StateSnapshot,
  snapshotState,
} from '@a2ui-ts/core';
import {
  createDeferred,
  recordTransport,
  seededRandom,
  waitForClient,
} from '@a2ui-ts/core/testing';
import { createTcpProxy, eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../test/harness.js';
import { connectSseJsonRpc } from './client/connect-sse-json-rpc.js';
import { serveSseJsonRpc } from './node.js';
import { createSseJsonRpcServer } from './server/create-sse-json-rpc-server.js';

const STREAM_LENGTH = 500;
const CHUNK = 50;

const createSurface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID },
};
const update = (index: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'counter', path: `/values/${index}`, value: index },
});
const chunk = (from: number): ServerMessage[] =>
  Array.from({ length: Math.min(CHUNK, STREAM_LENGTH - from) }, (_, offset) =>
    update(from + offset),
  );

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The agent streams 500 updates in chunks of 50, and sends each next chunk only when the client
 * asks for it with a `more` action: a lost or repeated action changes the stream the client sees.
 */
function chunkedAgent() {
  const requests = new Map<string, number[]>();
  let connects = 0;
  const agent: A2uiAgent = {
    onConnect(connection) {
      connects++;
      requests.set(connection.id, []);
      connection.send([createSurface, ...chunk(0)]);
    },
    onAction(connection, action) {
      const next = action.context.next as number;
      requests.get(connection.id)!.push(next);
      connection.send(chunk(next));
    },
  };
  return { agent, requests, connects: () => connects };
}

/** Runs one client through the 500-message exchange, calling `onProgress` after every message. */
async function runExchange(
  client: A2uiClient,
  onProgress: (received: number) => void,
): Promise<number[]> {
  const seen: number[] = [];
  client.subscribe((event) => {
    if (event.type !== 'received') return;
    const message = JSON.parse(event.input as string) as ServerMessage;
    if (!('updateDataModel' in message)) return;
    const value = message.updateDataModel.value as number;
    seen.push(value);
    if (seen.length % CHUNK === 0 && seen.length < STREAM_LENGTH) {
      void client.send({
        version: 'v0.9',
        action: {
          name: 'more',
          surfaceId: 'counter',
          sourceComponentId: 'root',
          timestamp: new Date().toISOString(),
          context: { next: seen.length },
        },
      });
    }
    onProgress(seen.length);
  });
  void client.connect().catch(() => {});
  await waitForClient(client, () => seen.length >= STREAM_LENGTH, `${STREAM_LENGTH} updates`);
  return seen;
}

describe('faults', () => {
  it('loses and repeats nothing when TCP links are reset at random points of a 500-message stream (50 seeded trials)', async () => {
    const chunked = chunkedAgent();
    server = await startTestServer({ agent: chunked.agent, reconnectGraceMs: 60_000 });

    const reference = new A2uiClient().processor;
    reference.process([
      createSurface,
      ...Array.from({ length: STREAM_LENGTH }, (_, index) => update(index)),
    ]);
    const expected: StateSnapshot = snapshotState(reference);
    const allValues = Array.from({ length: STREAM_LENGTH }, (_, index) => index);
    const allRequests = Array.from(
      { length: STREAM_LENGTH / CHUNK - 1 },
      (_, index) => (index + 1) * CHUNK,
    );

    let totalDrops = 0;
    for (let trial = 0; trial < 50; trial++) {
      const random = seededRandom(1000 + trial);
      // 1 to 3 resets per trial, at message counts anywhere in the stream.
      const dropPoints = Array.from(
        { length: 1 + Math.floor(random() * 3) },
        () => 1 + Math.floor(random() * (STREAM_LENGTH - 1)),
      );
      const { transport, proxy } = await server.connectThroughProxy({ random });
      const client = new A2uiClient({ transport });
      const errors: unknown[] = [];
      client.processor.onError((error) => errors.push(error));
      const resets: unknown[] = [];
      client.subscribe((event) => {
        if (event.type === 'reset') resets.push(event);
      });
      const seen = await runExchange(client, (received) => {
        // Some resets hit the `more` call just sent, in flight: its retry must not be applied twice.
        const justAsked = received % CHUNK === 0 && received < STREAM_LENGTH;
        if (justAsked && random() < 0.3) {
          totalDrops++;
          proxy.drop();
        } else if (dropPoints.includes(received)) {
          dropPoints.splice(dropPoints.indexOf(received), 1);
          totalDrops++;
          proxy.drop();
        }
      });
      expect({ trial, seen }).toEqual({ trial, seen: allValues });
      expect(snapshotState(client.processor)).toEqual(expected);
      expect(errors).toEqual([]);
      expect(resets).toEqual([]);
      expect(chunked.requests.get(transport.connectionId!)).toEqual(allRequests);
      await client.close();
      await proxy.close();
    }
    expect(chunked.connects()).toBe(50);
    expect(totalDrops).toBeGreaterThanOrEqual(50);
    await eventually(() => server!.app.registry.size() === 0);
  }, 60_000);

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
    const reasons = new Map<DisconnectReason, number>();
    let connects = 0;
    server = await startTestServer({
      reconnectGraceMs: 10,
      keepAliveIntervalMs: 5,
      agent: {
        onConnect(connection) {
          connects++;
          connection.send([createSurface, update(1)]);
        },
        onDisconnect(_connection, reason) {
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        },
      },
    });
    const timersBefore = process
      .getActiveResourcesInfo()
      .filter((resource) => resource === 'Timeout').length;
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
    for (let batch = 0; batch < 50; batch++) {
      await Promise.all(Array.from({ length: 20 }, (_, offset) => cycle(batch * 20 + offset)));
    }
    await eventually(
      () => server!.app.registry.size() === 0 && (reasons.get('grace-expired') ?? 0) === 500,
    );
    expect(connects).toBe(1000);
    expect(Object.fromEntries(reasons)).toEqual({ 'client-closed': 500, 'grace-expired': 500 });
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
    const timersAfter = process
      .getActiveResourcesInfo()
      .filter((resource) => resource === 'Timeout').length;
    expect(timersAfter).toBeLessThanOrEqual(timersBefore);
  }, 60_000);

  it('bounds what a client that stops reading costs: its link is dropped past maxBufferedBytes', async () => {
    const maxBufferedBytes = 256 * 1024;
    const replayBytes = 1024 * 1024;
    const payload = 'x'.repeat(64 * 1024);
    const sent = createDeferred<void>();
    let connection: Connection | undefined;
    server = await startTestServer({
      maxBufferedBytes,
      replayBuffer: { maxEvents: 1000, maxBytes: replayBytes },
      reconnectGraceMs: 60_000,
      agent: {
        async onConnect(current) {
          connection = current;
          current.send(createSurface);
          // 12.8 MB in all, yielding to I/O between messages as a real producer would.
          for (let index = 0; index < 200; index++) {
            current.send({
              version: 'v0.9',
              updateDataModel: {
                surfaceId: 'counter',
                path: '/blob',
                value: `${index}:${payload}`,
              },
            });
            await new Promise((resolve) => setImmediate(resolve));
          }
          sent.resolve();
        },
      },
    });
    // A raw client that reads the response head and then never reads again.
    const socket = connectTcp(server.node.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    let head = '';
    await new Promise<void>((resolve) => {
      const onData = (data: Buffer) => {
        head += data.toString('latin1');
        if (head.includes('event: connected')) {
          socket.off('data', onData);
          socket.pause();
          resolve();
        }
      };
      socket.on('data', onData);
      socket.write(`GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    });
    await sent.promise;
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
    socket.on('data', () => {}).resume();
    await closed;
  });
});

// A standalone check that the Node helper closes cleanly with links still open.
describe('serveSseJsonRpc', () => {
  it('close() ends open streams with a close event and releases the port', async () => {
    const app = createSseJsonRpcServer({
      agent: { onConnect: (connection) => connection.send(createSurface) },
    });
    const node = await serveSseJsonRpc(app);
    const transport = connectSseJsonRpc({ url: node.url });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await node.close();
    await recording.done;
    expect(recording.statuses().at(-1)).toBe(
      'closed: The server closed the connection (server-closed).',
    );
    expect(node.server.listening).toBe(false);
    expect(app.stats()).toMatchObject({ sessions: 0, links: 0, keepAliveTimer: false });
    const late = await app.fetch(new Request('http://localhost/sse'));
    expect(late.status).toBe(503);
  });
});
