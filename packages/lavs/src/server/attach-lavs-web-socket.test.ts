/**
 * lavs/subscribe, lavs/unsubscribe and lavs/data over WebSocket: several clients fed by one
 * subscription handler, each mutation (from HTTP or a socket) pushed to all of them.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { copyTodoManager, type StartedService, startService } from '../../test/service-fixture.js';

/** A WebSocket client that collects what the server sends. */
class Peer {
  readonly received: any[] = [];
  #next = 0;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.received.push(JSON.parse(data.toString())));
  }
  static async open(url: string): Promise<Peer> {
    const socket = new WebSocket(url.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new Peer(socket);
  }
  /** Sends a request; @returns its response. */
  async request(method: string, params: unknown): Promise<any> {
    const id = ++this.#next;
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    await expect.poll(() => this.received.find((m) => m.id === id)).toBeDefined();
    return this.received.find((m) => m.id === id);
  }
  /** The `data` of every `lavs/data` push of `subscriptionId`. */
  pushes(subscriptionId: string): unknown[] {
    return this.received
      .filter((m) => m.method === 'lavs/data' && m.params.subscriptionId === subscriptionId)
      .map((m) => m.params.data);
  }
}

let service: StartedService;
const peers: Peer[] = [];
beforeEach(async () => {
  service = await startService(await copyTodoManager());
});
afterEach(async () => {
  for (const peer of peers.splice(0)) peer.socket.close();
  await service.close();
});

async function subscribedPeer(): Promise<{ peer: Peer; subscriptionId: string }> {
  const peer = await Peer.open(service.url);
  peers.push(peer);
  const answer = await peer.request('lavs/subscribe', { endpoint: 'todoUpdates' });
  expect(answer).toEqual({
    jsonrpc: '2.0',
    id: 1,
    result: { subscriptionId: expect.stringMatching(/^sub-/) },
  });
  const { subscriptionId } = answer.result;
  // The current state comes first.
  await expect.poll(() => peer.pushes(subscriptionId)).toEqual([[]]);
  return { peer, subscriptionId };
}

it('pushes every change to each of several subscribed clients', async () => {
  const clients = [await subscribedPeer(), await subscribedPeer(), await subscribedPeer()];
  await service.call('addTodo', { text: 'Buy milk' });
  for (const { peer, subscriptionId } of clients)
    await expect
      .poll(() => peer.pushes(subscriptionId).at(-1))
      .toEqual([expect.objectContaining({ id: 1, text: 'Buy milk', done: false })]);
  // A mutation over the socket reaches the others too.
  expect(
    (await clients[0]!.peer.request('lavs/call', { endpoint: 'toggleTodo', input: { id: 1 } }))
      .result,
  ).toMatchObject({ done: true });
  for (const { peer, subscriptionId } of clients)
    await expect
      .poll(() => peer.pushes(subscriptionId).at(-1))
      .toEqual([expect.objectContaining({ id: 1, done: true })]);
});

it('stops pushing after lavs/unsubscribe, and refuses an unknown subscription id', async () => {
  const stays = await subscribedPeer();
  const leaves = await subscribedPeer();
  expect(
    await leaves.peer.request('lavs/unsubscribe', { subscriptionId: leaves.subscriptionId }),
  ).toMatchObject({ result: { unsubscribed: true } });
  await service.call('addTodo', { text: 'One' });
  await expect.poll(() => stays.peer.pushes(stays.subscriptionId).length).toBe(2);
  // The same connection answers in order: by this answer, a push to it would have come.
  expect(
    (await leaves.peer.request('lavs/unsubscribe', { subscriptionId: leaves.subscriptionId }))
      .error,
  ).toMatchObject({ code: -32602 });
  expect(leaves.peer.pushes(leaves.subscriptionId)).toEqual([[]]);
});

it('cleans up the subscriptions of a client that disconnects', async () => {
  const gone = await subscribedPeer();
  const stays = await subscribedPeer();
  expect(service.runtime.watcherCount).toBe(2);
  gone.peer.socket.close();
  await expect.poll(() => service.runtime.watcherCount).toBe(1);
  await service.call('addTodo', { text: 'After' });
  await expect.poll(() => stays.peer.pushes(stays.subscriptionId).length).toBe(2);
});

it('answers bad frames and bad subscriptions in JSON-RPC shape, and keeps the connection', async () => {
  const peer = await Peer.open(service.url);
  peers.push(peer);
  peer.socket.send('{oops');
  await expect
    .poll(() => peer.received[0])
    .toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the frame is not JSON text' },
    });
  expect((await peer.request('lavs/subscribe', { endpoint: 'listTodos' })).error).toEqual({
    code: -32601,
    message: 'Method not found: no subscription endpoint "listTodos"',
  });
  expect((await peer.request('lavs/subscribe', {})).error).toMatchObject({ code: -32602 });
  expect((await peer.request('lavs/call', { endpoint: 'listTodos' })).result).toEqual([]);
});

it('closes a connection whose frame passes maxRequestBytes (1009), others unaffected', async () => {
  const small = await startService(await copyTodoManager(), { maxRequestBytes: 1_024 });
  try {
    const peer = await Peer.open(small.url);
    const closed = new Promise<number>((resolve) => peer.socket.once('close', resolve));
    peer.socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'lavs/call',
        params: { endpoint: 'addTodo', input: { text: 'x'.repeat(2_000) } },
      }),
    );
    expect(await closed).toBe(1009);
    const other = await Peer.open(small.url);
    expect((await other.request('lavs/call', { endpoint: 'listTodos' })).result).toEqual([]);
    other.socket.close();
  } finally {
    await small.close();
  }
});

it('audits subscriptions and the subscription handler runs', async () => {
  await subscribedPeer();
  expect(service.audit).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ method: 'lavs/subscribe', endpoint: 'todoUpdates', outcome: 'ok' }),
      expect.objectContaining({ method: 'lavs/data', endpoint: 'todoUpdates', outcome: 'ok' }),
    ]),
  );
});

it('authenticates the upgrade: refused without a principal, audited with it', async () => {
  const guarded = await startService(await copyTodoManager(), {
    authenticate: (request) => new URL(request.url).searchParams.get('user') ?? undefined,
  });
  try {
    const refused = new WebSocket(guarded.url.replace(/^http/, 'ws'));
    const status = await new Promise((resolve) =>
      refused
        .once('unexpected-response', (_, response) => resolve(response.statusCode))
        .once('open', () => resolve('open')),
    );
    expect(status).toBe(401);
    // Ended by hand after the refusal, the socket reports that it never opened.
    refused.on('error', () => {});
    refused.terminate();
    const peer = await Peer.open(`${guarded.url}/?user=ada`);
    peers.push(peer);
    expect(
      (await peer.request('lavs/subscribe', { endpoint: 'todoUpdates' })).result,
    ).toBeDefined();
    expect(guarded.audit).toContainEqual(
      expect.objectContaining({ method: 'lavs/subscribe', principal: 'ada' }),
    );
  } finally {
    await guarded.close();
  }
});
