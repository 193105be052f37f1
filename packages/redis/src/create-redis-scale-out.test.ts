import { type A2uiAgent, A2uiError } from '@a2ui-ts/core';
import {
  createSessionHost,
  type ReadResult,
  type SessionHostOptions,
  type SessionSink,
} from '@a2ui-ts/core/host';
import { readSessionSnapshot } from '@a2ui-ts/core/link';
import { createClient } from '@redis/client';
import { afterEach, describe, expect, it } from 'vitest';
import { action } from '../test/messages.js';
import { startNodes } from '../test/stores.js';
import { createRedisScaleOut } from './create-redis-scale-out.js';
import type { RedisConnectionRegistry } from './redis-connection-registry.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const sink = (): SessionSink => ({ deliver: () => {}, close: () => {} });

/** Session hosts on two nodes (stores of their own, one Redis). */
async function twoHosts(
  agent: A2uiAgent,
  options: Parameters<typeof startNodes>[1] = {},
  hostOptions: Partial<SessionHostOptions> = {},
) {
  const cluster = await startNodes(2, options);
  const [a, b] = cluster.nodes.map((node) =>
    createSessionHost({ agent, ...node.hostOptions, onAgentError: () => {}, ...hostOptions }),
  );
  cleanup = async () => {
    await Promise.all([a!.close(), b!.close()]);
    await cluster.close();
  };
  return { a: a!, b: b!, cluster };
}

const update = (value: unknown) => ({
  version: 'v0.9' as const,
  updateDataModel: { surfaceId: 's', path: '/v', value },
});

describe('session hosts over Redis', () => {
  it("answers turn-based requests on another node with the owner's turn (REST, A2A, AG-UI)", async () => {
    const { a, b } = await twoHosts({
      onConnect: (connection) => connection.send(update('hello')),
      onAction: (connection, event) => connection.send([update(event.name), update('done')]),
      onInput: (connection, input) => connection.send(update(`heard ${input.text}`)),
    });
    const opened = await a.open({ principal: 'p', id: 'thread-1', awaitTurn: true });
    expect(opened).toMatchObject({ created: true, turn: { startSeq: 0, endSeq: 1 } });
    // The same chosen id through B: the existing connection on A, not a new one.
    expect(await b.open({ principal: 'p', id: 'thread-1' })).toEqual({
      connectionId: 'thread-1',
      created: false,
    });
    const received = await b.receive('thread-1', {
      principal: 'p',
      message: action('go'),
      requestId: 'r1',
      bytes: 10,
      awaitTurn: true,
    });
    expect(received).toEqual({
      duplicate: false,
      turn: { startSeq: 1, endSeq: 3, outcome: 'completed' },
    });
    const again = await b.receive('thread-1', {
      principal: 'p',
      message: action('go'),
      requestId: 'r1',
      bytes: 10,
      awaitTurn: true,
    });
    expect(again).toMatchObject({ duplicate: true, turn: { startSeq: 1, endSeq: 3 } });
    const heard = await b.input('thread-1', {
      principal: 'p',
      input: { text: 'hi' },
      awaitTurn: true,
    });
    expect(heard.turn).toEqual({ startSeq: 3, endSeq: 4, outcome: 'completed' });
    // The turn's messages, read through B from the shared log.
    await expect
      .poll(async () => {
        const read = await b.read('thread-1', { principal: 'p', afterSeq: 1 });
        return read.ok
          ? read.entries.map((entry) => JSON.parse(entry.data).updateDataModel.value)
          : [];
      })
      .toEqual(['go', 'done', 'heard hi']);
    await expect(
      b.receive('thread-1', { principal: 'q', message: action('x'), bytes: 10 }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  /** A long poll through B, then B acknowledges what it read; `afterAck` checks a read from before it. */
  async function longPollThenAcknowledge(
    hostOptions: Partial<SessionHostOptions>,
    afterAck: (read: () => Promise<ReadResult>) => Promise<void>,
  ) {
    let connection: Parameters<NonNullable<A2uiAgent['onConnect']>>[0] | undefined;
    const { a, b } = await twoHosts(
      {
        onConnect: (opened) => {
          connection = opened;
          opened.send(update(1));
        },
      },
      {},
      hostOptions,
    );
    const { connectionId } = await a.open({ principal: 'p', awaitTurn: true });
    await expect
      .poll(async () => (await b.read(connectionId, { principal: 'p', afterSeq: 0 })).lastSeq)
      .toBe(1);
    const poll = b.read(connectionId, { principal: 'p', afterSeq: 1, waitMs: 20_000 });
    connection!.send(update(2));
    const polled = await poll;
    expect(polled.ok && polled.entries.map((entry) => entry.seq)).toEqual([2]);
    await b.acknowledge(connectionId, { principal: 'p', seq: 2 });
    await afterAck(() => b.read(connectionId, { principal: 'p', afterSeq: 1 }));
    await b.disconnect(connectionId, { principal: 'p' });
    await expect
      .poll(() => b.read(connectionId, { principal: 'p', afterSeq: 2 }).catch((error) => error))
      .toMatchObject({ code: 'CONNECTION_CLOSED' });
  }

  it('long-polls and acknowledges through another node; a read from before the acknowledged position gets a snapshot from the owner', async () => {
    // Before: this waited for `ok: false` (a reset), which snapshots replace, until the 600 s
    // test timeout. The acknowledged entry is gone from the shared log, so the reader gets the
    // owner's surfaces as one snapshot entry through seq 2 (no surface was created: none).
    await longPollThenAcknowledge({}, async (read) => {
      await expect
        .poll(async () => {
          const answer = await read();
          return answer.ok && answer.entries.map((entry) => readSessionSnapshot(entry.data));
        })
        .toEqual([{ throughSeq: 2, messages: [] }]);
    });
  });

  it('with snapshots off, a read from before the acknowledged position is refused (the client resets)', async () => {
    await longPollThenAcknowledge({ snapshots: false }, async (read) => {
      await expect.poll(async () => (await read()).ok).toBe(false);
    });
  });

  it('answers a request whose turn wait ended on another node as accepted, at once; a retry is a duplicate', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: string[] = [];
    const { a, b, cluster } = await twoHosts({
      onAction: async (connection, event) => {
        handled.push(event.name);
        await gate;
        connection.send(update(event.name));
      },
    });
    const { connectionId } = await a.open({ principal: 'p' });
    const wait = new AbortController();
    const request = {
      principal: 'p',
      message: action('slow'),
      requestId: 'r1',
      bytes: 10,
      awaitTurn: true,
    };
    const answer = b.receive(connectionId, { ...request, signal: wait.signal });
    await expect.poll(() => handled).toEqual(['slow']);
    // The binding stops waiting for the turn (its `turnWaitMs`) while A's agent still works.
    wait.abort();
    expect(await answer).toEqual({ duplicate: false });
    expect(cluster.nodes[1]!.health().pendingForwards).toBe(0);
    const retried = b.receive(connectionId, request);
    release();
    expect(await retried).toMatchObject({ duplicate: true, turn: { endSeq: 1 } });
    expect(handled).toEqual(['slow']);
  });

  it('fails a request waiting for a turn when the owner leaves', async () => {
    const { a, b, cluster } = await twoHosts(
      { onAction: () => new Promise<void>(() => {}) },
      { leaseTtlMs: 1_500 },
    );
    const { connectionId } = await a.open({ principal: undefined });
    const waiting = b.receive(connectionId, {
      principal: undefined,
      message: action('forever'),
      bytes: 10,
      awaitTurn: true,
    });
    await expect.poll(() => cluster.nodes[1]!.health().pendingForwards).toBe(1);
    // A's process stops answering: its stores close (lease given back) while the turn hangs.
    await cluster.nodes[0]!.close();
    await expect(waiting).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(cluster.nodes[1]!.health().pendingForwards).toBe(0);
  });
});

describe('a node whose lease lapsed', () => {
  it('ends its session of a chosen id that another node took over meanwhile, so one node runs it', async () => {
    const disconnects: string[] = [];
    const { a, b, cluster } = await twoHosts(
      {
        onConnect: (connection) => connection.send(update('hello')),
        onDisconnect: (connection, reason) => {
          disconnects.push(`${connection.id} ${reason}`);
        },
      },
      { leaseTtlMs: 900 },
    );
    await a.open({ principal: 'p', id: 'thread-1', awaitTurn: true });
    // A is cut from Redis long enough to be dead to B (here: its lease is removed). Removed
    // again and again until B took over: A's next renewal (every leaseTtlMs / 3) writes it back,
    // and on a loaded machine that came before B looked, so B's poll waited for a takeover that
    // never came, until the 600 s test timeout.
    const raw = createClient({ url: cluster.url, RESP: 2 });
    await raw.connect();
    const cutA = () =>
      raw.sendCommand(['ZREM', `${cluster.prefix}nodes`, cluster.nodes[0]!.nodeId]);
    let cutting = true;
    const cutter = (async () => {
      while (cutting) {
        await cutA();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      // B takes the thread over: a fresh connection of the same id, on B.
      await expect
        .poll(async () => (await b.open({ principal: 'p', id: 'thread-1' })).created)
        .toBe(true);
    } finally {
      cutting = false;
      await cutter;
    }
    // Once more after the takeover, so that A's next renewal finds its lease lapsed after it.
    await cutA();
    await raw.close();
    expect(b.session('thread-1')).toBeDefined();
    // A renews, finds its lease had lapsed, and ends its own, stale, session.
    await expect.poll(() => disconnects).toEqual(['thread-1 reset']);
    expect(a.session('thread-1')).toBeUndefined();
    expect(cluster.nodes[0]!.health().leaseLapses).toBeGreaterThanOrEqual(1);
    // The record is B's: A's session ending did not delete it.
    expect(await cluster.nodes[0]!.registry.get('thread-1')).toMatchObject({
      owner: cluster.nodes[1]!.nodeId,
    });
  });
});

describe('createRedisScaleOut', () => {
  it('routes each request to the session host of the same name on the owner', async () => {
    const cluster = await startNodes(2);
    const seen: string[] = [];
    const agent = (name: string): A2uiAgent => ({
      onAction: (_connection, event) => {
        seen.push(`${name} ${event.name}`);
      },
    });
    const hosts = cluster.nodes.flatMap((node) =>
      ['x', 'y'].map((name) => createSessionHost({ agent: agent(name), ...node.forHost(name) })),
    );
    cleanup = async () => {
      await Promise.all(hosts.map((host) => host.close()));
      await cluster.close();
    };
    const [ax, ay, bx, by] = hosts;
    const onX = await ax!.connect({ principal: undefined, sink: sink() });
    const onY = await ay!.connect({ principal: undefined, sink: sink() });
    const request = (name: string) => ({
      principal: undefined,
      message: action(name),
      bytes: 10,
      awaitTurn: true,
    });
    await bx!.receive(onX.connectionId, request('to-x'));
    await by!.receive(onY.connectionId, request('to-y'));
    expect(seen).toEqual(['x to-x', 'y to-y']);
    // A connection of host x is unknown to host y.
    await expect(by!.receive(onX.connectionId, request('lost'))).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
    expect(() => cluster.nodes[0]!.forHost('no spaces')).toThrow(A2uiError);
    expect(cluster.nodes[0]!.forHost('x')).toBe(cluster.nodes[0]!.forHost('x'));
  });

  it('never overwrites or deletes the record of a connection another live node owns', async () => {
    const cluster = await startNodes(2);
    cleanup = cluster.close;
    const [a, b] = cluster.nodes;
    const record = { id: 'c', principal: 'p', owner: a!.nodeId, createdAt: 1, lastSeq: 0 };
    await a!.registry.set(record);
    await expect(b!.registry.set({ ...record, owner: b!.nodeId })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      data: { owner: a!.nodeId },
    });
    await b!.registry.delete('c');
    expect(await b!.registry.get('c')).toEqual(record);
    expect(await b!.registry.size()).toBe(1);
    await a!.registry.delete('c');
    expect(await b!.registry.get('c')).toBeUndefined();
  });

  it('hands out a larger fencing token each time a connection is taken; the superseded holder is refused', async () => {
    const cluster = await startNodes(2);
    cleanup = cluster.close;
    const [a, b] = cluster.nodes.map((node) => ({
      nodeId: node.nodeId,
      registry: node.registry as RedisConnectionRegistry,
    }));
    const record = { id: 'c', principal: 'p', owner: a!.nodeId, createdAt: 1, lastSeq: 0 };
    expect(a!.registry.fencingToken('c')).toBeUndefined();
    await a!.registry.set(record);
    expect(a!.registry.fencingToken('c')).toBe(1);
    // A's lease lapses; B takes the connection over (and ends it again).
    const raw = createClient({ url: cluster.url, RESP: 2 });
    await raw.connect();
    await raw.sendCommand(['ZREM', `${cluster.prefix}nodes`, a!.nodeId]);
    await raw.close();
    await b!.registry.set({ ...record, owner: b!.nodeId });
    expect(b!.registry.fencingToken('c')).toBe(2);
    await b!.registry.delete('c');
    // A writes its record again (as after a lapse): refused, though no record is left to clash.
    expect(await a!.registry.reassert()).toEqual(['c']);
    expect(a!.registry.fencingToken('c')).toBeUndefined();
    expect(await a!.registry.get('c')).toBeUndefined();
  });

  it('takes one fencing token for writes of a new connection sent at once', async () => {
    const cluster = await startNodes(1);
    cleanup = cluster.close;
    const node = cluster.nodes[0]!;
    const registry = node.registry as RedisConnectionRegistry;
    const record = { id: 'c', principal: 'p', owner: node.nodeId, createdAt: 1, lastSeq: 0 };
    await Promise.all([registry.set(record), registry.set({ ...record, lastSeq: 1 })]);
    expect(registry.fencingToken('c')).toBe(1);
    const raw = createClient({ url: cluster.url, RESP: 2 });
    await raw.connect();
    expect(await raw.sendCommand(['GET', `${cluster.prefix}fence:c`])).toBe('1');
    await raw.close();
  });

  it('fails to start with a clear error when Redis cannot be reached', async () => {
    await expect(
      createRedisScaleOut({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 500, onError: () => {} }),
    ).rejects.toMatchObject({
      code: 'TRANSPORT_ERROR',
      message: expect.stringContaining('127.0.0.1:1'),
    });
  });
});
