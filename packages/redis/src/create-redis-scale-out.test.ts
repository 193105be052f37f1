import { type A2uiAgent, A2uiError, createSessionHost, type SessionSink } from '@a2ui-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { action } from '../test/messages.js';
import { startNodes } from '../test/stores.js';
import { createRedisScaleOut } from './create-redis-scale-out.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const sink = (): SessionSink => ({ deliver: () => {}, close: () => {} });

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

  it('fails to start with a clear error when Redis cannot be reached', async () => {
    await expect(
      createRedisScaleOut({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 500, onError: () => {} }),
    ).rejects.toMatchObject({
      code: 'TRANSPORT_ERROR',
      message: expect.stringContaining('127.0.0.1:1'),
    });
  });
});
