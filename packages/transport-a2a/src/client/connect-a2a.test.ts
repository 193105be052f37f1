/**
 * The client transport against this package's server, where the other side says no: a missing
 * card, a card that is down for a while, authentication, a server that restarts, a session that
 * expired, a v0.3-only agent; and text input.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { waitForClient } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { actionMessage, formAgent, update } from '../../test/agents.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../../test/harness.js';
import { connectA2a } from './connect-a2a.js';

const servers: TestServer[] = [];
const proxies: TcpProxy[] = [];
const clients: A2uiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
  for (const proxy of proxies.splice(0)) await proxy.close();
});

async function start(options: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

function track(client: A2uiClient) {
  clients.push(client);
  const resets: string[] = [];
  const statuses: string[] = [];
  client.subscribe((event) => {
    if (event.type === 'reset') resets.push(event.reason ?? '');
    if (event.type === 'status') statuses.push(event.status);
  });
  return { resets, statuses };
}

const formReady = (client: A2uiClient) =>
  client.processor.getSurface('form')?.components.has('label') ?? false;
const answer = (client: A2uiClient) =>
  client.processor.getSurface('form')?.dataModel.get('/answer');

describe('connectA2a', () => {
  it('fails with NOT_SUPPORTED when the agent has no card, and retries a card that is down for a while', async () => {
    let refusals = 2;
    const server = await start({
      agent: formAgent().agent,
      configure(parent) {
        parent.get('/.well-known/agent-card.json', async (c, next) => {
          if (refusals-- > 0) return c.text('down', 503, { 'Retry-After': '0' });
          return next();
        });
      },
    });
    const missing = new A2uiClient({
      transport: connectA2a({ url: `${server.node.url}/no-agent-here`, reconnect: FAST_RECONNECT }),
    });
    track(missing);
    await expect(missing.connect()).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });

    const client = new A2uiClient({ transport: server.connect() });
    const { statuses } = track(client);
    void client.connect().catch(() => {});
    await waitForClient(client, () => formReady(client), 'the form');
    expect(statuses.filter((status) => status === 'reconnecting')).toHaveLength(2);
  });

  it("sends A2UI data parts as application/a2ui+json, the spec's spelling", async () => {
    const recorder = formAgent();
    const sent: unknown[] = [];
    const server = await start({
      agent: recorder.agent,
      configure(parent) {
        parent.post('/', async (c, next) => {
          const body = await c.req.raw.clone().json();
          for (const part of body.params?.message?.parts ?? []) if (part.data) sent.push(part);
          return next();
        });
      },
    });
    const client = new A2uiClient({ transport: server.connect({ serverPush: false }) });
    track(client);
    void client.connect().catch(() => {});
    await waitForClient(client, () => formReady(client), 'the form');
    await client.send(actionMessage('go'));
    expect(recorder.actions.map((action) => action.name)).toEqual(['go']);
    expect(sent).toEqual([
      expect.objectContaining({
        mediaType: 'application/a2ui+json',
        metadata: expect.objectContaining({ mimeType: 'application/a2ui+json' }),
      }),
    ]);
  });

  it('sends its headers (a function is asked each time), and stops at UNAUTHORIZED without them', async () => {
    const recorder = formAgent();
    const server = await start({
      agent: recorder.agent,
      authenticate: (request) => request.headers.get('authorization') ?? undefined,
    });
    const anonymous = new A2uiClient({ transport: server.connect() });
    track(anonymous);
    await expect(anonymous.connect()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    let asked = 0;
    const client = new A2uiClient({
      transport: server.connect({
        headers: () => {
          asked++;
          return { authorization: 'ada-x' };
        },
      }),
    });
    track(client);
    void client.connect().catch(() => {});
    await waitForClient(client, () => formReady(client), 'the form');
    await client.dispatchAction('form', 'root');
    expect(recorder.connections[0]!.principal).toBe('ada-x');
    expect(asked).toBeGreaterThanOrEqual(3);
  });

  it("opens with the user's text and sends what the user types as text parts", async () => {
    const recorder = formAgent();
    const server = await start({ agent: recorder.agent });
    const transport = server.connect({ open: { text: 'a table for two' } });
    const client = new A2uiClient({ transport });
    track(client);
    void client.connect().catch(() => {});
    await waitForClient(
      client,
      () => client.processor.getSurface('form')?.dataModel.get('/heard') === 'a table for two',
      'the opening text',
    );
    await transport.sendText('by the window');
    expect(client.processor.getSurface('form')!.dataModel.get('/heard')).toBe('by the window');
    expect(recorder.inputs.map((input) => input.text)).toEqual([
      'a table for two',
      'by the window',
    ]);
    expect(recorder.connections).toHaveLength(1);
  });

  it('resets when the server restarted: the send is refused, the surfaces go, a fresh session opens', async () => {
    const first = formAgent();
    const before = await start({ agent: first.agent });
    const proxy = await createTcpProxy(before.node.port);
    proxies.push(proxy);
    const transport = connectA2a({ url: proxy.url, reconnect: FAST_RECONNECT, serverPush: false });
    const client = new A2uiClient({ transport });
    const { resets } = track(client);
    void client.connect().catch(() => {});
    await waitForClient(client, () => formReady(client), 'the form');
    const contextBefore = transport.contextId;

    const second = formAgent();
    const after = await start({ agent: second.agent });
    proxy.setTarget(after.node.port);
    proxy.drop();
    // Refused by the new server; or, when an attempt was cut on its way (the dropped link), it may
    // have reached the old one: never "failed" then, but OUTCOME_UNKNOWN.
    const refusal = await client.send(actionMessage('lost')).then(
      () => undefined,
      (error: { code?: string }) => error.code,
    );
    expect(['CONNECTION_CLOSED', 'OUTCOME_UNKNOWN']).toContain(refusal);
    expect(resets).toHaveLength(1);
    await waitForClient(client, () => formReady(client), 'the fresh session');
    expect(transport.contextId).not.toBe(contextBefore);
    await client.dispatchAction('form', 'root');
    expect(answer(client)).toBe('submit');
    expect(second.actions.map((action) => action.name)).toEqual(['submit']);
    expect(first.actions).toEqual([]);
  });

  it('resets when its session expired on the server (its task ended with it)', async () => {
    const recorder = formAgent();
    const server = await start({ agent: recorder.agent, reconnectGraceMs: 30 });
    const transport = server.connect({ serverPush: false });
    const client = new A2uiClient({ transport });
    const { resets } = track(client);
    void client.connect().catch(() => {});
    await waitForClient(client, () => formReady(client), 'the form');
    await new Promise<void>((resolve) => {
      const check = () => (recorder.disconnects.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(recorder.disconnects).toEqual(['grace-expired']);
    await expect(client.send(actionMessage('late'))).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
    expect(resets).toHaveLength(1);
    await waitForClient(client, () => formReady(client), 'the fresh session');
    expect(recorder.connections).toHaveLength(2);
    expect(recorder.actions).toEqual([]);
    // Nothing is kept for the session that was gone: at most the fresh one (whose 30 ms grace
    // may run out too on a busy machine), its state, and its task remain.
    const stats = server.app.stats();
    expect(stats.sessions).toBeLessThanOrEqual(1);
    expect(stats.a2aSessions).toBeLessThanOrEqual(1);
    expect(stats.tasks).toBeLessThanOrEqual(1);
  });

  it('reconnects a subscription that went silent (a dead link), and pushes arrive again', async () => {
    const recorder = formAgent();
    const server = await start({ agent: recorder.agent, keepAliveIntervalMs: 20 });
    const proxy = await createTcpProxy(server.node.port);
    proxies.push(proxy);
    const transport = connectA2a({
      url: proxy.url,
      reconnect: FAST_RECONNECT,
      heartbeatTimeoutMs: 150,
    });
    const client = new A2uiClient({ transport });
    const { statuses } = track(client);
    void client.connect().catch(() => {});
    await waitForClient(client, () => formReady(client), 'the form');
    proxy.setBlackhole(true);
    await waitForClient(client, () => statuses.includes('reconnecting'), 'the heartbeat to expire');
    proxy.setBlackhole(false);
    recorder.connections[0]!.send(update('/pushed', 'after the outage'));
    await waitForClient(
      client,
      () => client.processor.getSurface('form')!.dataModel.get('/pushed') === 'after the outage',
      'the push',
    );
    expect(recorder.connections).toHaveLength(1);
  });

  it('speaks v0.3 to a v0.3-only agent, pushes included, and cancels on close', async () => {
    const recorder = formAgent();
    const server = await start({ agent: recorder.agent, protocolVersions: ['0.3'] });
    const transport = server.connect();
    const client = new A2uiClient({ transport });
    track(client);
    void client.connect().catch(() => {});
    await waitForClient(client, () => formReady(client), 'the form');
    expect(transport.protocolVersion).toBe('0.3');
    await client.dispatchAction('form', 'root');
    expect(answer(client)).toBe('submit');
    recorder.connections[0]!.send(update('/pushed', true));
    await waitForClient(
      client,
      () => client.processor.getSurface('form')!.dataModel.get('/pushed') === true,
      'the push',
    );
    await client.close();
    await new Promise<void>((resolve) => {
      const check = () => (recorder.disconnects.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(recorder.disconnects).toEqual(['client-closed']);
  });
});
