/**
 * Lost responses: the server handles a request and answers, then the TCP link is reset before the
 * answer reaches the client (the fault proxy's `drop()` from a middleware that runs after the
 * route). The client retries with the same idempotency key; the agent must see each request once
 * and the client apply each message once — for a lost connect, a lost turn answer, a lost poll,
 * and all of them at seeded random points of a longer exchange.
 */

import { fileURLToPath } from 'node:url';
import {
  type A2uiAgent,
  A2uiClient,
  BASIC_CATALOG_ID,
  type Connection,
  type ServerMessage,
  snapshotState,
} from '@a2ui-ts/core';
import {
  recordTransport,
  runGracefulRestart,
  runStoreOutageScenario,
  seededRandom,
  waitForClient,
} from '@a2ui-ts/core/testing';
import {
  createTcpProxy,
  eventually,
  expectKillTrialHeld,
  runKillTrial,
  type TcpProxy,
} from '@a2ui-ts/core/testing/node';
import type { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { action, capabilities, createMain, echoAgent, update } from '../test/fixtures.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../test/harness.js';
import { listen } from '../test/listen.js';
import { connectRest } from './client/connect-rest.js';
import { createRestServer } from './server/create-rest-server.js';

let server: TestServer | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  server = undefined;
  proxy = undefined;
});

/** Drops the link after the server answered each request `shouldDrop` picks. */
function dropAfterAnswer(shouldDrop: (path: string, method: string) => boolean) {
  return (parent: Hono) => {
    parent.use('*', async (c, next) => {
      await next();
      if (shouldDrop(c.req.path, c.req.method)) proxy?.drop();
    });
  };
}

async function startBehindProxy(agent: A2uiAgent, configure: (parent: Hono) => void) {
  server = await startTestServer({ agent, configure, reconnectGraceMs: 60_000 });
  proxy = await createTcpProxy(server.node.port);
  return connectRest({ url: proxy.url, reconnect: FAST_RECONNECT });
}

/** `true` the first time `path` is answered, then never. */
function once(target: string) {
  let done = false;
  return (path: string) => {
    if (done || path !== target) return false;
    done = true;
    return true;
  };
}

describe('lost responses', () => {
  it('a lost connect answer: the retry with the same key gets the same connection, onConnect ran once', async () => {
    const recorder = echoAgent();
    const transport = await startBehindProxy(recorder.agent, dropAfterAnswer(once('/connect')));
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    expect(recorder.connections).toHaveLength(1);
    expect(transport.connectionId).toBe(recorder.connections[0]!.id);
    expect(server!.app.stats().sessions).toBe(1);
    await transport.close();
  });

  it('a lost turn answer: the retried POST is not delivered again and its answer is applied once', async () => {
    const recorder = echoAgent();
    const transport = await startBehindProxy(recorder.agent, dropAfterAnswer(once('/action')));
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await transport.send({ version: 'v0.9', action: action('once') }, capabilities);
    expect(recorder.actions).toEqual(['once']);
    expect(recording.messages()).toEqual([createMain, update('/last', 'once')]);
    await transport.close();
  });

  it('a lost poll answer: the next poll asks from the same seq, and each push is applied once', async () => {
    const recorder = echoAgent();
    let dropPolls = false;
    const transport = await startBehindProxy(
      recorder.agent,
      dropAfterAnswer((path) => {
        if (path !== '/messages' || !dropPolls) return false;
        dropPolls = false;
        return true;
      }),
    );
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await eventually(() => server!.app.stats().polls === 1);
    dropPolls = true;
    recorder.connections[0]!.send([update('/a', 1), update('/b', 2)]);
    await recording.until(() => recording.messages().length === 3);
    recorder.connections[0]!.send(update('/c', 3));
    await recording.until(() => recording.messages().length === 4);
    expect(dropPolls).toBe(false);
    expect(recording.messages()).toEqual([
      createMain,
      update('/a', 1),
      update('/b', 2),
      update('/c', 3),
    ]);
    await transport.close();
  });
});

const CHUNK = 20;
const CHUNKS = 10;
const surface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID },
};
const value = (index: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'counter', path: `/values/${index}`, value: index },
});
const tick = (index: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'counter', path: `/ticks/t${index}`, value: index },
});

/**
 * Each `more` action is answered with the next chunk of values (its turn), and followed by a push
 * (a tick) between turns: a lost or repeated action, or a lost push, changes what the client ends with.
 */
function chunkedAgent() {
  const requests: number[] = [];
  let connects = 0;
  const agent: A2uiAgent = {
    onConnect(connection) {
      connects++;
      connection.send([surface, ...Array.from({ length: CHUNK }, (_, index) => value(index))]);
    },
    onAction(connection, event) {
      const next = event.context.next as number;
      requests.push(next);
      connection.send(Array.from({ length: CHUNK }, (_, offset) => value(next + offset)));
      setImmediate(() => {
        if (!connection.closed) connection.send(tick(next / CHUNK));
      });
    },
  };
  return { agent, requests, connects: () => connects };
}

it('loses and repeats nothing when answers of every kind are lost at seeded random points (20 trials)', async () => {
  const expected = new A2uiClient().processor;
  expected.process([
    surface,
    ...Array.from({ length: CHUNK * CHUNKS }, (_, index) => value(index)),
    ...Array.from({ length: CHUNKS - 1 }, (_, index) => tick(index + 1)),
  ]);
  let drops = 0;
  for (let trial = 0; trial < 20; trial++) {
    const random = seededRandom(1_000 + trial);
    const chunked = chunkedAgent();
    const transport = await startBehindProxy(
      chunked.agent,
      dropAfterAnswer(() => {
        const drop = random() < 0.25;
        if (drop) drops++;
        return drop;
      }),
    );
    const client = new A2uiClient({ transport });
    let applied = 0;
    let asked = CHUNK;
    const valuesSeen = () =>
      ((client.processor.getSurface('counter')?.dataModel.get('/values') as unknown[]) ?? [])
        .length;
    const ticksSeen = () =>
      Object.keys((client.processor.getSurface('counter')?.dataModel.get('/ticks') as object) ?? {})
        .length;
    client.subscribe((event) => {
      if (event.type !== 'received') return;
      applied += event.result.applied;
      // A whole chunk is in: ask for the next one.
      if (valuesSeen() === asked && asked < CHUNK * CHUNKS) {
        // Its answer may still be on its way (retried) when the poll has brought everything.
        client
          .send({
            version: 'v0.9',
            action: { ...action('more', { next: asked }), surfaceId: 'counter' },
          })
          .catch(() => {});
        asked += CHUNK;
      }
    });
    void client.connect().catch(() => {});
    await waitForClient(
      client,
      () => valuesSeen() === CHUNK * CHUNKS && ticksSeen() === CHUNKS - 1,
      `trial ${trial}: every chunk and tick`,
    );
    expect(chunked.connects()).toBe(1);
    expect(chunked.requests).toEqual(
      Array.from({ length: CHUNKS - 1 }, (_, index) => (index + 1) * CHUNK),
    );
    expect(applied).toBe(1 + CHUNK * CHUNKS + CHUNKS - 1);
    expect(snapshotState(client.processor)).toEqual(snapshotState(expected));
    await client.close();
    await proxy!.close();
    await server!.close();
    proxy = undefined;
    server = undefined;
  }
  // About a quarter of some 25 answers per trial.
  expect(drops).toBeGreaterThan(50);
});

describe('a server killed between acknowledgement and apply', () => {
  it('has applied every action the client saw acknowledged, none twice, and the client comes back to its successor', async () => {
    const figures = await runKillTrial({
      script: fileURLToPath(new URL('../test/fault-server.ts', import.meta.url)),
      connect: (url) => connectRest({ url, reconnect: FAST_RECONNECT }),
      killAfterAcks: 3,
    });
    expectKillTrialHeld(figures, 3);
  });
});

describe('a graceful restart', () => {
  it('answers the waiting poll closed with retryAfterMs; the client comes back and starts over on the server that follows', async () => {
    await runGracefulRestart({
      async start(agent, port) {
        const app = createRestServer({ agent, restartRetryAfterMs: 5 });
        const node = await listen(app, port);
        return { port: node.port, close: () => node.close(), idle: () => app.stats().polls === 1 };
      },
      connect: (port) =>
        connectRest({ url: `http://127.0.0.1:${port}`, reconnect: FAST_RECONNECT }),
    });
  });
});

describe('a server whose shared session store is down', () => {
  it('says so in the status (not "the agent is busy"), and delivers the action once it is back', async () => {
    const outcome = await runStoreOutageScenario(async (agent) => {
      const app = createRestServer({ agent });
      const node = await listen(app, 0);
      return {
        host: app.host,
        connect: () =>
          connectRest({ url: `http://127.0.0.1:${node.port}`, reconnect: FAST_RECONNECT }),
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

describe('close()', () => {
  it('answers every request that arrives once it was called with the shutdown answer and its retryAfterMs', async () => {
    const app = createRestServer({ agent: echoAgent().agent, restartRetryAfterMs: 250 });
    const node = await listen(app);
    const request = async (path: string, body?: unknown) => {
      const response = await fetch(`${node.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return [response.status, response.headers.get('retry-after'), await response.json()];
    };
    const [, , opened] = await request('/connect', {});
    const connectionId = (opened as { connectionId: string }).connectionId;
    // The app closes; its listener still takes requests (a balancer's, a client's in flight).
    await app.close();
    const closed = {
      messages: [],
      seq: 1,
      more: false,
      closed: 'server-closed',
      retryAfterMs: 250,
    };
    expect(await request(`/messages?connectionId=${connectionId}&after=1&waitMs=60000`)).toEqual([
      200,
      null,
      closed,
    ]);
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
    expect(await request(`/messages?connectionId=${unknown}&after=1`)).toEqual([200, null, closed]);
    const refused = {
      error: {
        code: 'CONNECTION_CLOSED',
        message: 'The server is shutting down; come back after retryAfterMs.',
        reason: 'server-closed',
        retryAfterMs: 250,
      },
    };
    expect(await request('/action', { connectionId, action: action('late') })).toEqual([
      503,
      '1',
      refused,
    ]);
    expect(
      await request('/error', {
        connectionId,
        error: { code: 'CUSTOM', surfaceId: 'main', message: 'oops' },
      }),
    ).toEqual([503, '1', refused]);
    expect(await request('/connect', {})).toEqual([503, '1', refused]);
    expect(await request('/disconnect', { connectionId })).toEqual([200, null, { closed: true }]);
    // Bad input is still refused as such.
    expect(await request('/messages?connectionId=nope')).toMatchObject([400, null, {}]);
    await node.close();
  });

  it('a client that connects while the server shuts down comes back after retryAfterMs', async () => {
    const app = createRestServer({ agent: echoAgent().agent, restartRetryAfterMs: 250 });
    const node = await listen(app);
    await app.close();
    // The backoff alone would retry within a few ms: the hint decides.
    const transport = connectRest({
      url: node.url,
      reconnect: { initialDelayMs: 1, maxDelayMs: 60_000 },
    });
    const recording = recordTransport(transport);
    await recording.until(() =>
      recording.statuses().some((status) => status.startsWith('reconnecting')),
    );
    expect(recording.statuses()).toContain(
      'reconnecting: POST /connect answered HTTP 503; retrying in 250 ms.',
    );
    await transport.close();
    await node.close();
  });

  it('answers a waiting poll closed with retryAfterMs, and a poll of a connection its agent closed without it', async () => {
    const connections: Connection[] = [];
    const app = createRestServer({
      agent: { onConnect: (connection) => void connections.push(connection) },
      restartRetryAfterMs: 250,
    });
    const node = await listen(app);
    const connect = async () => {
      const response = await fetch(`${node.url}/connect`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      return ((await response.json()) as { connectionId: string }).connectionId;
    };
    const poll = (connectionId: string) =>
      fetch(`${node.url}/messages?connectionId=${connectionId}&after=0&waitMs=60000`).then(
        async (response) => [response.status, await response.json()],
      );
    const byAgent = await connect();
    connections[0]!.close();
    expect(await poll(byAgent)).toEqual([
      200,
      { messages: [], seq: 0, more: false, closed: 'server-closed' },
    ]);
    const waiting = poll(await connect());
    await eventually(() => app.stats().polls === 1);
    await node.close();
    expect(await waiting).toEqual([
      200,
      { messages: [], seq: 0, more: false, closed: 'server-closed', retryAfterMs: 250 },
    ]);
  });
});
