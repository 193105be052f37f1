/**
 * Faults of the A2A binding that end in what a sender is told: actions in flight while the server
 * closes are answered with their outcome — or `OUTCOME_UNKNOWN` once the client gives up on them —
 * never with a failure for an action the agent took; and a server that accepts a request and
 * never answers does not hold a client call forever.
 */
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { type A2uiAgent, A2uiClient, A2uiError } from '@a2ui-ts/core';
import { STORE_UNAVAILABLE } from '@a2ui-ts/core/link';
import { waitForClient } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { actionMessage, formSurface, update } from '../test/agents.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../test/harness.js';
import { connectA2a } from './client/connect-a2a.js';
import { createAgentCard } from './server/agent-card.js';

const servers: TestServer[] = [];
const clients: A2uiClient[] = [];
const stalls: Server[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
  for (const stall of stalls.splice(0)) await new Promise((resolve) => stall.close(resolve));
});

/** An agent whose actions each wait for their release: a turn is in flight until released. */
function slowAgent() {
  const taken: string[] = [];
  const releases = new Map<string, () => void>();
  const agent: A2uiAgent = {
    onConnect: (connection) => connection.send(formSurface),
    async onAction(connection, action) {
      const id = String(action.context.id);
      taken.push(id);
      await new Promise<void>((resolve) => releases.set(id, resolve));
      connection.send(update('/answer', id));
    },
  };
  return { agent, taken, releases };
}

type Told = { id: string; told: string };

/** Sends action `id` and records what the client is told: `ok`, or the error's code. */
/** Connects `client` in the background; the returned list gathers each reconnect's reason. */
function connectRecordingReconnects(client: A2uiClient): string[] {
  const reasons: string[] = [];
  client.subscribe((event) => {
    if (event.type === 'status' && event.status === 'reconnecting')
      reasons.push(event.reason ?? '');
  });
  void client.connect().catch(() => {});
  return reasons;
}

function sendAndRecord(client: A2uiClient, id: string, told: Told[]): Promise<void> {
  return client.send(actionMessage('submit', { id })).then(
    () => {
      told.push({ id, told: 'ok' });
    },
    (error: unknown) => {
      told.push({ id, told: A2uiError.isInstance(error) ? error.code : String(error) });
    },
  );
}

describe('actions in flight when the server closes', () => {
  it('lets taken actions finish and answers them; none the agent took is reported failed', async () => {
    const slow = slowAgent();
    const server = await startTestServer({ agent: slow.agent });
    servers.push(server);
    const told: Told[] = [];
    const sends: Promise<void>[] = [];
    for (let index = 0; index < 4; index++) {
      const client = new A2uiClient({ transport: server.connect() });
      clients.push(client);
      void client.connect().catch(() => {});
      await waitForClient(client, () => client.processor.getSurface('form') !== undefined, 'form');
      // The first is taken by the agent; the second waits in the client's queue behind it.
      sends.push(sendAndRecord(client, `${index}.taken`, told));
      sends.push(sendAndRecord(client, `${index}.queued`, told));
    }
    await eventually(() => slow.taken.length === 4);
    const closed = server.node.close();
    // The turns end while the server closes: their answers still reach the clients.
    for (const release of slow.releases.values()) release();
    await closed;
    servers.splice(0);
    for (const client of clients) await client.close();
    await Promise.all(sends);

    expect(told).toHaveLength(8);
    for (const { id, told: outcome } of told) {
      if (id.endsWith('.taken')) expect({ id, outcome }).toEqual({ id, outcome: 'ok' });
      // Never taken by the agent: failed, or (it was sent and refused while closing) unknown.
      else expect(['CONNECTION_CLOSED', 'OUTCOME_UNKNOWN']).toContain(outcome);
    }
    expect(slow.taken.filter((id) => id.endsWith('.queued'))).toEqual([]);
  });

  it('answers a turn still running when the grace period ends, or OUTCOME_UNKNOWN naming its task, never a failure', async () => {
    const slow = slowAgent();
    const server = await startTestServer({ agent: slow.agent, closeGraceMs: 0 });
    servers.push(server);
    const told: Told[] = [];
    const sends: Promise<void>[] = [];
    const errors: A2uiError[] = [];
    for (let index = 0; index < 4; index++) {
      const client = new A2uiClient({ transport: server.connect() });
      clients.push(client);
      void client.connect().catch(() => {});
      await waitForClient(client, () => client.processor.getSurface('form') !== undefined, 'form');
      const id = `${index}.taken`;
      sends.push(
        client.send(actionMessage('submit', { id })).then(
          () => {
            told.push({ id, told: 'ok' });
          },
          (error: A2uiError) => {
            errors.push(error);
            told.push({ id, told: error.code });
          },
        ),
      );
    }
    await eventually(() => slow.taken.length === 4);
    // The agent never finishes these turns: they end with their sessions.
    await server.node.close();
    servers.splice(0);
    for (const client of clients) await client.close();
    await Promise.all(sends);

    expect(told).toHaveLength(4);
    for (const { told: outcome } of told) expect(['ok', 'OUTCOME_UNKNOWN']).toContain(outcome);
    for (const error of errors) expect(error.data).toMatchObject({ taskId: expect.any(String) });
    expect(told.map((entry) => entry.id).sort()).toEqual(slow.taken.sort());
  });
});

describe('a server that accepts and never answers', () => {
  it('does not hold a call forever: the call is given up and retried, an aborted send settles, close settles the rest', async () => {
    const sockets = new Set<Socket>();
    const stall = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    });
    stalls.push(stall);
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    const { port } = stall.address() as { port: number };
    const url = `http://127.0.0.1:${port}/`;
    const transport = connectA2a({
      url,
      // The card is known: every request after it goes to the stalled server.
      card: createAgentCard(url, ['1.0']),
      requestTimeoutMs: 50,
      heartbeatTimeoutMs: 0,
      reconnect: FAST_RECONNECT,
    });
    const client = new A2uiClient({ transport });
    clients.push(client);
    const reasons = connectRecordingReconnects(client);
    // Each unanswered attempt to open the conversation is given up on and retried.
    await eventually(() => reasons.length >= 2);
    expect(reasons[0]).toMatch(/No answer in 50 ms/);

    const abort = new AbortController();
    const aborted = client.send(actionMessage('submit', { id: 'a' }), { signal: abort.signal });
    const waiting = client.send(actionMessage('submit', { id: 'b' }));
    abort.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    await client.close();
    // Never sent (the conversation never opened): it failed, and nothing was applied.
    await expect(waiting).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    for (const socket of sockets) socket.destroy();
  });
});

describe('a server whose shared session store is down', () => {
  it('says so in the status (not "the agent is busy"), and delivers the action once it is back', async () => {
    const slow = slowAgent();
    const server = await startTestServer({ agent: slow.agent });
    servers.push(server);
    // The session host refuses as it does while Redis cannot be reached.
    let storeDown = true;
    const host = server.app.host;
    const receive = host.receive.bind(host);
    host.receive = (id, request) =>
      storeDown
        ? Promise.reject(
            new A2uiError('LIMIT_EXCEEDED', 'The shared session store (Redis) is unavailable.', {
              data: { retryAfterMs: 0, reason: STORE_UNAVAILABLE },
            }),
          )
        : receive(id, request);
    const client = new A2uiClient({ transport: server.connect() });
    clients.push(client);
    const degraded: Array<{ reason?: string; cause?: string }> = [];
    client.subscribe((event) => {
      if (event.type === 'status' && event.status === 'degraded')
        degraded.push({ reason: event.reason, cause: event.cause });
    });
    void client.connect().catch(() => {});
    await waitForClient(client, () => client.processor.getSurface('form') !== undefined, 'form');
    const told: Told[] = [];
    const sent = sendAndRecord(client, 'during', told);
    await eventually(() => degraded.length > 0);
    expect(degraded[0]).toMatchObject({
      cause: 'store-unavailable',
      reason: expect.stringContaining('Server storage unavailable'),
    });
    storeDown = false;
    await eventually(() => slow.releases.has('during'));
    slow.releases.get('during')!();
    await sent;
    expect(told).toEqual([{ id: 'during', told: 'ok' }]);
    await eventually(() => client.status === 'open');
  });
});

describe('a server that sends the headers of a stream and then nothing', () => {
  it('does not wait forever on a stream whose headers came and then nothing: given up and retried', async () => {
    const held = new Set<ServerResponse>();
    const silent = createHttpServer((_request, response) => {
      // Headers of a stream, then silence: the answer has not begun.
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.flushHeaders();
      held.add(response);
    });
    stalls.push(silent as unknown as Server);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const url = `http://127.0.0.1:${port}/`;
    const client = new A2uiClient({
      transport: connectA2a({
        url,
        card: createAgentCard(url, ['1.0']),
        requestTimeoutMs: 50,
        heartbeatTimeoutMs: 0,
        reconnect: FAST_RECONNECT,
      }),
    });
    clients.push(client);
    const reasons = connectRecordingReconnects(client);
    await eventually(() => reasons.length >= 2);
    expect(reasons[0]).toMatch(/No answer in 50 ms/);
    await client.close();
    for (const response of held) response.destroy();
  });
});
