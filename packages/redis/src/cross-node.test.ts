/**
 * Two server nodes in separate processes (separate Redis connections) behind a "load balancer"
 * without sticky sessions: each client's event stream goes to one node and its actions to the
 * other. Real `redis-server`, real SSE + JSON-RPC clients.
 */
import type { ServerMessage } from '@a2ui-ts/core';
import { recordTransport, type TransportRecording } from '@a2ui-ts/core/testing';
import { createTcpProxy } from '@a2ui-ts/core/testing/node';
import type { SseJsonRpcTransport } from '@a2ui-ts/transport-sse-jsonrpc';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectRouted, type Routes, startNode, type TestNode } from '../test/cluster.js';
import { testPrefix } from '../test/stores.js';

const action = (name: string) => ({
  version: 'v0.9' as const,
  action: {
    name,
    surfaceId: 's',
    sourceComponentId: 'b',
    timestamp: new Date().toISOString(),
    context: {},
  },
});

/** Values of the `updateDataModel` messages at `path`, in arrival order. */
function valuesAt(recording: TransportRecording, path: string): unknown[] {
  return (recording.messages() as ServerMessage[]).flatMap((message) =>
    'updateDataModel' in message && message.updateDataModel.path === path
      ? [message.updateDataModel.value]
      : [],
  );
}

const transports = new Set<SseJsonRpcTransport>();
afterEach(async () => {
  await Promise.all([...transports].map((transport) => transport.close().catch(() => {})));
  transports.clear();
});
function client(routes: Routes) {
  const transport = connectRouted(routes);
  transports.add(transport);
  return { transport, recording: recordTransport(transport) };
}

describe('two nodes sharing one Redis', () => {
  let a: TestNode;
  let b: TestNode;
  beforeAll(async () => {
    const keyPrefix = testPrefix();
    const redisUrl = inject('redisUrl');
    [a, b] = await Promise.all([
      startNode({ redisUrl, keyPrefix }),
      startNode({ redisUrl, keyPrefix }),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('hands actions posted to B to the agent on A, each exactly once, and the client sees the answers', async () => {
    const { transport, recording } = client({ sse: a.url, rpc: b.url });
    await recording.until(() => valuesAt(recording, '/node').length === 1);
    expect(valuesAt(recording, '/node')).toEqual([a.nodeId]);
    const names = Array.from({ length: 20 }, (_, index) => `act-${index}`);
    await Promise.all(names.map((name) => transport.send(action(name))));
    await recording.until(() => valuesAt(recording, '/did').length === names.length);
    expect(valuesAt(recording, '/did')).toEqual(names);
    const id = transport.connectionId!;
    expect(a.actions.filter((entry) => entry.startsWith(id))).toEqual(
      names.map((name) => `${id} ${name}`),
    );
    expect(b.actions).toEqual([]);
    expect(b.connects).not.toContain(id);
  });

  it('resumes a link cut on A on B from the shared log, then follows A: nothing lost or repeated', async () => {
    const proxy = await createTcpProxy(Number(new URL(a.url).port));
    try {
      const routes: Routes = { sse: proxy.url, rpc: a.url };
      const { transport, recording } = client(routes);
      await recording.until(() => valuesAt(recording, '/node').length === 1);
      await transport.send(action('before'));
      await recording.until(() => valuesAt(recording, '/did').length === 1);
      // The link breaks; the load balancer sends the reconnect to B. Meanwhile A keeps sending.
      proxy.setRefusing(true);
      proxy.drop();
      routes.sse = b.url;
      routes.rpc = b.url;
      const sends = ['while-down-1', 'while-down-2', 'after-1', 'after-2'].map((name) =>
        transport.send(action(name)),
      );
      await Promise.all(sends);
      await recording.until(() => valuesAt(recording, '/did').length === 5);
      expect(valuesAt(recording, '/did')).toEqual([
        'before',
        'while-down-1',
        'while-down-2',
        'after-1',
        'after-2',
      ]);
      expect(recording.events.some((event) => event.type === 'reset')).toBe(false);
      expect(transport.lastEventId).toBe(recording.messages().length);
      const stats = await b.stats();
      expect(stats.followerLinks).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});
