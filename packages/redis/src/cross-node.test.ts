import { recordTransport } from '@a2ui-ts/core/testing';
import { createTcpProxy, eventually } from '@a2ui-ts/core/testing/node';
import type { SseJsonRpcTransport } from '@a2ui-ts/transport-sse-jsonrpc';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectRouted, type Routes, startNode, type TestNode } from '../test/cluster.js';
import { action, METADATA, valuesAt } from '../test/messages.js';
import { testPrefix } from '../test/stores.js';

let prefix = '';

/** Lists, with `SCAN`, every key of this file's prefix except the node leases. */
async function scanner() {
  const redis = createClient({ url: inject('redisUrl'), RESP: 2 });
  await redis.connect();
  return {
    async connectionKeys() {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await redis.sendCommand<[string, string[]]>([
          'SCAN',
          cursor,
          'MATCH',
          `${prefix}*`,
          'COUNT',
          '1000',
        ]);
        cursor = next;
        keys.push(...found.filter((key) => key !== `${prefix}nodes`));
      } while (cursor !== '0');
      return keys.sort();
    },
    close: () => redis.close(),
  };
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

const CLIENTS = 1_000;
const CYCLES = 1_000;

describe('two nodes sharing one Redis', () => {
  let a: TestNode;
  let b: TestNode;
  beforeAll(async () => {
    const keyPrefix = testPrefix();
    prefix = keyPrefix;
    const redisUrl = inject('redisUrl');
    [a, b] = await Promise.all([
      startNode({ redisUrl, keyPrefix }),
      startNode({ redisUrl, keyPrefix }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('hands actions posted to B to the agent on A, each exactly once, and the client sees the answers', async () => {
    const { transport, recording } = client({ sse: a.url, rpc: b.url });
    await recording.until(() => valuesAt(recording, '/node').length === 1);
    expect(valuesAt(recording, '/node')).toEqual([a.nodeId]);
    const names = Array.from({ length: 20 }, (_, index) => `act-${index}`);
    await Promise.all(names.map((name) => transport.send(action(name), METADATA)));
    await recording.until(() => valuesAt(recording, '/did').length === names.length);
    expect(valuesAt(recording, '/did')).toEqual(names);
    const id = transport.connectionId!;
    // Reports come over IPC and may lag behind the answers.
    await eventually(
      () => a.actions.filter((entry) => entry.startsWith(id)).length >= names.length,
    );
    expect(a.actions.filter((entry) => entry.startsWith(id))).toEqual(
      names.map((name) => `${id} ${name}`),
    );
    expect(b.actions).toEqual([]);
    expect(b.connects).not.toContain(id);
  });

  it('answers a REST action posted to B with the turn the agent on A took, once, and B long-polls what A pushes', async () => {
    const post = async (base: string, path: string, body: unknown, key?: string) => {
      const response = await fetch(`${base}/rest${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const values = (body: Record<string, unknown>, path: string) =>
      (body.messages as Array<{ updateDataModel?: { path: string; value: unknown } }>).flatMap(
        (message) =>
          message.updateDataModel?.path === path ? [message.updateDataModel.value] : [],
      );
    const opened = await post(a.url, '/connect', {});
    expect(opened.status).toBe(200);
    const connectionId = opened.body.connectionId as string;
    expect(values(opened.body, '/node')).toEqual([a.nodeId]);
    const request = { connectionId, action: action('via-b').action, metadata: METADATA };
    const answer = await post(b.url, '/action', request, 'k-1');
    expect(answer.status).toBe(200);
    expect(values(answer.body, '/did')).toEqual(['via-b']);
    // A retry reaching B again: the same turn, and the agent on A saw the action once.
    const retried = await post(b.url, '/action', request, 'k-1');
    expect(retried.body.seq).toBe(answer.body.seq);
    await eventually(() => a.actions.some((entry) => entry.startsWith(connectionId)));
    expect(a.actions.filter((entry) => entry.startsWith(connectionId))).toEqual([
      `${connectionId} via-b`,
    ]);
    expect(b.actions).toEqual([]);
    // A long poll on B for what comes next; an action on A makes the agent push.
    const poll = fetch(
      `${b.url}/rest/messages?connectionId=${connectionId}&after=${answer.body.seq}&waitMs=20000`,
    ).then((response) => response.json() as Promise<Record<string, unknown>>);
    await post(a.url, '/action', { ...request, action: action('on-a').action }, 'k-2');
    expect(values(await poll, '/did')).toEqual(['on-a']);
    await post(b.url, '/disconnect', { connectionId });
  });

  it('resumes a link cut on A on B from the shared log, then follows A: nothing lost or repeated', async () => {
    const proxy = await createTcpProxy(Number(new URL(a.url).port));
    try {
      const routes: Routes = { sse: proxy.url, rpc: a.url };
      const { transport, recording } = client(routes);
      await recording.until(() => valuesAt(recording, '/node').length === 1);
      await transport.send(action('before'), METADATA);
      await recording.until(() => valuesAt(recording, '/did').length === 1);
      // The link breaks; the load balancer sends the reconnect to B. Meanwhile A keeps sending.
      proxy.setRefusing(true);
      proxy.drop();
      routes.sse = b.url;
      routes.rpc = b.url;
      const sends = ['while-down-1', 'while-down-2', 'after-1', 'after-2'].map((name) =>
        transport.send(action(name), METADATA),
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
      expect(recording.statuses()).toContainEqual(expect.stringMatching(/^reconnecting/));
      expect(recording.events.some((event) => event.type === 'reset')).toBe(false);
      expect(transport.lastEventId).toBe(recording.messages().length);
      const stats = await b.stats();
      expect(stats.followerLinks).toBe(1);
    } finally {
      await proxy.close();
    }
  });
  it(`delivers the actions of ${CLIENTS} clients spread over both nodes, each posted to the other node, in order`, async () => {
    const clients = Array.from({ length: CLIENTS }, (_, index) => {
      const [stream, post] = index % 2 === 0 ? [a, b] : [b, a];
      return { ...client({ sse: stream.url, rpc: post.url }), stream };
    });
    await Promise.all(
      clients.map(({ recording }) =>
        recording.until(() => valuesAt(recording, '/node').length === 1),
      ),
    );
    for (const { recording, stream } of clients)
      expect(valuesAt(recording, '/node')).toEqual([stream.nodeId]);
    const names = ['one', 'two', 'three'];
    await Promise.all(
      clients.map(async ({ transport }) => {
        for (const name of names) await transport.send(action(name), METADATA);
      }),
    );
    await Promise.all(
      clients.map(({ recording }) =>
        recording.until(() => valuesAt(recording, '/did').length === 3),
      ),
    );
    for (const { recording } of clients) expect(valuesAt(recording, '/did')).toEqual(names);
    // Each handled once, by the node that streams to its client. The nodes report over IPC,
    // which may lag behind the answers the clients already have.
    const handled = (id: string, node: TestNode) =>
      node.actions.filter((entry) => entry.startsWith(id)).length;
    await eventually(() =>
      clients.every(({ transport, stream }) => handled(transport.connectionId!, stream) >= 3),
    );
    for (const { transport, stream } of clients) {
      expect(handled(transport.connectionId!, stream)).toBe(3);
      expect(handled(transport.connectionId!, stream === a ? b : a)).toBe(0);
    }
  });

  it(`leaves no key behind after ${CYCLES} connect/disconnect cycles, once the TTLs pass`, async () => {
    for (let batch = 0; batch < CYCLES / 100; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, async (_, index) => {
          const [stream, post] = index % 2 === 0 ? [a, b] : [b, a];
          const { transport, recording } = client({ sse: stream.url, rpc: post.url });
          await recording.until(() => valuesAt(recording, '/node').length === 1);
          await transport.send(action('bye'), METADATA);
          await transport.close();
          transports.delete(transport);
        }),
      );
    }
    const redis = await scanner();
    try {
      // Closed sessions delete their records and logs at once; tombstones and inboxes expire.
      await expect.poll(() => redis.connectionKeys(), { interval: 250 }).toEqual([]);
    } finally {
      await redis.close();
    }
    expect(await a.stats()).toMatchObject({ sessions: 0, followerLinks: 0 });
    expect(await b.stats()).toMatchObject({ sessions: 0, followerLinks: 0 });
  });
});
