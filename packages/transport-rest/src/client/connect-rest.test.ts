/**
 * The client connector against a real server: turn answers and polls applied in seq order and
 * once, status events, refusals, garbage, a restarted server, the server's end, and the one-shot
 * helpers.
 */
import { A2uiClient, type ServerMessage } from '@a2ui-ts/core';
import { createDeferred, recordTransport } from '@a2ui-ts/core/testing';
import { createTcpProxy, eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { action, capabilities, createMain, echoAgent, update } from '../../test/fixtures.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../../test/harness.js';
import { connectRest } from './connect-rest.js';
import { restPoll, restTurn } from './rest-turn.js';

let servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

async function start(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  const server = await startTestServer(...args);
  servers.push(server);
  return server;
}

/** The status names a recording saw, without their reasons. */
const statusNames = (recording: ReturnType<typeof recordTransport>) =>
  recording.statuses().map((status) => status.split(':')[0]);

/** The data-model values at `path` among the messages a recording received. */
const valuesAt = (messages: readonly unknown[], path: string) =>
  (messages as ServerMessage[]).flatMap((message) =>
    'updateDataModel' in message && message.updateDataModel.path === path
      ? [message.updateDataModel.value]
      : [],
  );

describe('connectRest', () => {
  it('applies a turn answer after the push the poll has not brought yet, each message once, and only then settles send', async () => {
    const recorder = echoAgent();
    const server = await start({ agent: recorder.agent });
    // Poll answers are held back until released, so the turn answer arrives first.
    let holdPolls = false;
    const heldPolls: Array<() => void> = [];
    const turnAnswered = createDeferred<void>();
    const transport = connectRest({
      url: server.url,
      reconnect: FAST_RECONNECT,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const url = String(input);
        if (url.includes('/messages') && holdPolls) {
          await new Promise<void>((resolve) => heldPolls.push(resolve));
        }
        if (!url.endsWith('/action')) return response;
        const text = await response.text();
        turnAnswered.resolve();
        return new Response(text, { status: response.status, headers: response.headers });
      },
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await eventually(() => server.app.stats().polls === 1);
    holdPolls = true;
    recorder.connections[0]!.send(update('/pushed', 'first'));
    await eventually(() => heldPolls.length === 1);
    let settled = false;
    const sent = transport
      .send({ version: 'v0.9', action: action('go') }, capabilities)
      .then(() => {
        settled = true;
      });
    await turnAnswered.promise;
    // Let the client read and apply the answer it now has.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    // The turn (seq 3) waits for the push (seq 2): nothing is applied out of order.
    expect(recording.messages()).toEqual([createMain]);
    expect(settled).toBe(false);
    holdPolls = false;
    for (const release of heldPolls) release();
    await sent;
    expect(recording.messages()).toEqual([
      createMain,
      update('/pushed', 'first'),
      update('/last', 'go'),
    ]);
    expect(transport.lastSeq).toBe(3);
  });

  it('settles send with what a turn longer than turnTimeoutMs sent so far; the rest arrives by poll', async () => {
    const finish = createDeferred<void>();
    const recorder = echoAgent({
      async onAction(connection) {
        connection.send(update('/step', 1));
        await finish.promise;
        connection.send(update('/step', 2));
      },
    });
    const server = await start({ agent: recorder.agent, turnTimeoutMs: 50 });
    const transport = server.connect();
    const recording = recordTransport(transport);
    await transport.send({ version: 'v0.9', action: action('slow') }, capabilities);
    expect(valuesAt(recording.messages(), '/step')).toEqual([1]);
    finish.resolve();
    await recording.until(() => valuesAt(recording.messages(), '/step').length === 2);
    expect(recording.messages()).toEqual([createMain, update('/step', 1), update('/step', 2)]);
  });

  it('reports connecting, open, reconnecting while polls fail, and open again', async () => {
    const recorder = echoAgent();
    const server = await start({ agent: recorder.agent });
    const { transport, proxy } = await server.connectThroughProxy();
    const recording = recordTransport(transport);
    await recording.until(() => statusNames(recording).includes('open'));
    proxy.setRefusing(true);
    proxy.drop();
    await recording.until(() => statusNames(recording).includes('reconnecting'));
    proxy.setRefusing(false);
    await recording.until(() => statusNames(recording).at(-1) === 'open');
    recorder.connections[0]!.send(update('/after', 'outage'));
    await recording.until(() => recording.messages().length === 2);
    expect(statusNames(recording).slice(0, 2)).toEqual(['connecting', 'open']);
    expect(recorder.connections).toHaveLength(1);
  });

  it('notices a network that went silent by the poll’s deadline, and polls again once it is back', async () => {
    const recorder = echoAgent();
    const server = await start({ agent: recorder.agent });
    const { transport, proxy } = await server.connectThroughProxy({
      pollWaitMs: 20,
      requestTimeoutMs: 50,
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    // No reset, no close: the bytes just stop, both ways.
    proxy.setBlackhole(true);
    await recording.until(() => statusNames(recording).includes('reconnecting'));
    recorder.connections[0]!.send(update('/while', 'silent'));
    proxy.setBlackhole(false);
    proxy.drop();
    await recording.until(() => recording.messages().length === 2);
    expect(recording.messages()[1]).toEqual(update('/while', 'silent'));
    expect(statusNames(recording).at(-1)).toBe('open');
    expect(recorder.connections).toHaveLength(1);
  });

  it("waits at least a poll's Retry-After before polling again", async () => {
    const recorder = echoAgent();
    const polls: number[] = [];
    let refuse = false;
    const server = await start({
      agent: recorder.agent,
      configure(parent) {
        parent.use('/messages', async (c, next) => {
          polls.push(Date.now());
          if (!refuse) return next();
          refuse = false;
          return c.json({ error: { code: 'LIMIT_EXCEEDED', message: 'busy' } }, 503, {
            'Retry-After': '1',
          });
        });
      },
    });
    const transport = server.connect({ reconnect: { ...FAST_RECONNECT, maxDelayMs: 5_000 } });
    const recording = recordTransport(transport);
    await recording.until(() => statusNames(recording).includes('open'));
    await eventually(() => server.app.stats().polls === 1);
    refuse = true;
    const refusedAt = polls.length;
    recorder.connections[0]!.send(update('/n', 1));
    await recording.until(() => recording.messages().length === 2);
    await eventually(() => polls.length > refusedAt + 1);
    expect(polls[refusedAt + 1]! - polls[refusedAt]!).toBeGreaterThanOrEqual(1_000);
  });

  it('closes for good with UNAUTHORIZED when the server refuses the principal', async () => {
    const server = await start({ agent: echoAgent().agent, authenticate: () => undefined });
    const client = new A2uiClient({ transport: server.connect() });
    await expect(client.connect()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(client.status).toBe('closed');
  });

  it('rejects a send the server refuses with its code and path, and the next send goes through', async () => {
    const recorder = echoAgent();
    const server = await start({ agent: recorder.agent });
    const transport = server.connect();
    recordTransport(transport);
    const refused = transport.send(
      { version: 'v0.9', action: { ...action('bad'), timestamp: 'yesterday' } },
      capabilities,
    );
    await expect(refused).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/action/timestamp',
      data: { httpStatus: 400 },
    });
    await transport.send({ version: 'v0.9', action: action('good') }, capabilities);
    expect(recorder.actions).toEqual(['good']);
  });

  it('keeps retrying, with the same key, answers that are not the server’s (a proxy page), and applies the real one once', async () => {
    const recorder = echoAgent();
    let garbage = 0;
    const keys: string[] = [];
    const server = await start({
      agent: recorder.agent,
      configure(parent) {
        parent.use('/action', async (c, next) => {
          keys.push(c.req.header('idempotency-key')!);
          await next();
          if (garbage-- > 0) c.res = new Response('<html>Bad gateway</html>', { status: 200 });
        });
      },
    });
    const transport = server.connect();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    garbage = 2;
    await transport.send({ version: 'v0.9', action: action('once') }, capabilities);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(recorder.actions).toEqual(['once']);
    expect(valuesAt(recording.messages(), '/last')).toEqual(['once']);
    expect(statusNames(recording)).toContain('degraded');
  });

  it('retries a /connect answered 200 with a body that is not JSON (a proxy page), with no internal error text, and then connects', async () => {
    const recorder = echoAgent();
    let garbage = 2;
    const server = await start({
      agent: recorder.agent,
      configure(parent) {
        parent.use('/connect', async (c, next) => {
          await next();
          if (garbage-- > 0) c.res = new Response('<html>Bad gateway</html>', { status: 200 });
        });
      },
    });
    const transport = server.connect({ reconnect: FAST_RECONNECT });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    expect(statusNames(recording)).toContain('reconnecting');
    expect(statusNames(recording)).not.toContain('closed');
    expect(recording.statuses().join('\n')).not.toMatch(/Cannot read|undefined/);
    expect(garbage).toBeLessThan(0);
  });

  it('resets and opens a new connection when the server no longer knows its connection (a restart)', async () => {
    const first = echoAgent();
    const before = await start({ agent: first.agent });
    const proxy = await createTcpProxy(before.node.port);
    const transport = connectRest({ url: proxy.url, reconnect: FAST_RECONNECT });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    const oldId = transport.connectionId;
    const second = echoAgent();
    const after = await start({ agent: second.agent });
    proxy.setTarget(after.node.port);
    proxy.drop();
    await eventually(() => second.connections.length === 1);
    await recording.until(() => recording.events.some((event) => event.type === 'reset'));
    await recording.until(() => recording.messages().length === 2);
    expect(transport.connectionId).not.toBe(oldId);
    await transport.send({ version: 'v0.9', action: action('again') }, capabilities);
    expect(second.actions).toEqual(['again']);
    await transport.close();
    await proxy.close();
  });

  it('closes, without reconnecting, when the agent ends the connection between turns', async () => {
    const recorder = echoAgent();
    const server = await start({ agent: recorder.agent });
    const client = new A2uiClient({ transport: server.connect() });
    const done = client.connect();
    await client.until(() => client.processor.getSurface('main') !== undefined);
    await eventually(() => server.app.stats().polls === 1);
    recorder.connections[0]!.send(update('/bye', true));
    recorder.connections[0]!.close();
    await done;
    expect(client.status).toBe('closed');
    expect(client.processor.getSurface('main')?.dataModel.get('/bye')).toBe(true);
    expect(recorder.connections).toHaveLength(1);
  });

  it('ends its waiting poll before it says goodbye, so no poll is answered 404 for the connection it left', async () => {
    const recorder = echoAgent();
    const server = await start({ agent: recorder.agent });
    const polls: Array<Promise<number | 'aborted'>> = [];
    const transport = connectRest({
      url: server.url,
      reconnect: FAST_RECONNECT,
      fetch: async (input, init) => {
        const response = fetch(input, init);
        const url = String(input);
        if (url.includes('/messages'))
          polls.push(
            response.then(
              (answer) => answer.status,
              () => 'aborted' as const,
            ),
          );
        // The goodbye's answer waits for the polls': a poll still waiting when the server forgot
        // the connection gets its answer first, whatever the order the two arrive in.
        if (url.endsWith('/disconnect')) await Promise.all(polls);
        return response;
      },
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await eventually(() => server.app.stats().polls === 1);
    await transport.close();
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['client-closed']);
    // A browser logs a 404 as an error in the console, though nothing went wrong.
    expect(await Promise.all(polls)).not.toContain(404);
    expect(await Promise.all(polls)).toContain('aborted');
  });

  it('closes when its signal aborts, telling the server', async () => {
    const recorder = echoAgent();
    const server = await start({ agent: recorder.agent });
    const abort = new AbortController();
    const transport = server.connect({ signal: abort.signal });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    abort.abort();
    await recording.done;
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['client-closed']);
    await expect(
      transport.send({ version: 'v0.9', action: action('late') }, capabilities),
    ).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });
});

describe('restTurn and restPoll', () => {
  it('connects, acts and leaves in one call, and polls for what follows', async () => {
    const recorder = echoAgent({
      onAction(connection, event) {
        recorder.actions.push(event.name);
        connection.send(update('/last', event.name));
        setTimeout(() => {
          if (!connection.closed) connection.send(update('/later', event.name));
        }, 0);
      },
    });
    const server = await start({ agent: recorder.agent });
    const first = await restTurn({ url: server.url });
    expect(first).toEqual({
      connectionId: expect.any(String),
      messages: [createMain],
      seq: 1,
      more: false,
    });
    const turn = await restTurn({
      url: server.url,
      connectionId: first.connectionId,
      message: { version: 'v0.9', action: action('go') },
      metadata: capabilities,
      requestId: 'once',
    });
    expect(turn).toMatchObject({ messages: [update('/last', 'go')], seq: 2, more: false });
    const later = await restPoll({
      url: server.url,
      connectionId: first.connectionId,
      after: turn.seq,
      waitMs: 30_000,
    });
    expect(later).toEqual({ messages: [update('/later', 'go')], seq: 3, more: false });
    const oneShot = await restTurn({
      url: server.url,
      message: { version: 'v0.9', action: action('webhook') },
      disconnect: true,
    });
    expect(oneShot).toMatchObject({
      messages: [createMain, update('/last', 'webhook')],
      seq: 2,
      closed: 'client-closed',
    });
    expect(recorder.actions).toEqual(['go', 'webhook']);
    await eventually(() => recorder.disconnects.length === 1);
  });

  it('throws the server’s code, TRANSPORT_ERROR when unreachable or the answer is too large, ABORTED on abort', async () => {
    const server = await start({ agent: echoAgent().agent });
    await expect(
      restTurn({
        url: server.url,
        connectionId: 'AAAAAAAAAAAAAAAAAAAAAA',
        message: { version: 'v0.9', action: action('x') },
      }),
    ).rejects.toMatchObject({ code: 'CONNECTION_CLOSED', data: { httpStatus: 404 } });
    await expect(restTurn({ url: server.url, maxResponseBytes: 10 })).rejects.toMatchObject({
      code: 'TRANSPORT_ERROR',
    });
    const abort = new AbortController();
    abort.abort();
    await expect(restTurn({ url: server.url, signal: abort.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    const proxy = await createTcpProxy(server.node.port);
    proxy.setRefusing(true);
    await expect(restTurn({ url: proxy.url })).rejects.toMatchObject({ code: 'TRANSPORT_ERROR' });
    await proxy.close();
  });
});
