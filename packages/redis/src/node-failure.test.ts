/**
 * A node killed mid-stream (SIGKILL: no goodbye): once its lease expires, its clients are reset
 * onto the live node with a fresh `onConnect`, explicitly, and no action is applied twice.
 */
import type { ServerMessage } from '@a2ui-ts/core';
import { recordTransport } from '@a2ui-ts/core/testing';
import { createTcpProxy } from '@a2ui-ts/core/testing/node';
import { afterAll, expect, inject, it } from 'vitest';
import { connectRouted, type Routes, startNode, type TestNode } from '../test/cluster.js';
import { action, METADATA } from '../test/messages.js';
import { testPrefix } from '../test/stores.js';

const nodes: TestNode[] = [];
afterAll(async () => {
  await Promise.all(nodes.map((node) => node.close()));
});

it('resets the clients of a node killed mid-stream onto the live node; nothing is applied twice', async () => {
  const config = {
    redisUrl: inject('redisUrl'),
    keyPrefix: testPrefix(),
    leaseTtlMs: 1_500,
    routeTimeoutMs: 1_000,
    pushIntervalMs: 20,
  };
  const [a, b] = await Promise.all([startNode(config), startNode(config)]);
  nodes.push(a!, b!);
  // Two clients stream from A; two others stream through a proxy that is moved to B below.
  const proxies = await Promise.all([0, 1].map(() => createTcpProxy(Number(new URL(a!.url).port))));
  const clients = Array.from({ length: 4 }, (_, index) => {
    const routes: Routes =
      index < 2 ? { sse: a!.url, rpc: b!.url } : { sse: proxies[index - 2]!.url, rpc: a!.url };
    const transport = connectRouted(routes);
    return { routes, transport, recording: recordTransport(transport) };
  });
  const ticks = (recording: (typeof clients)[number]['recording']) =>
    (recording.messages() as ServerMessage[]).filter(
      (message) => 'updateDataModel' in message && message.updateDataModel.path === '/tick',
    ).length;
  await Promise.all(clients.map(({ recording }) => recording.until(() => ticks(recording) >= 3)));
  // Their links drop and resume on B, which follows A's sessions from the shared log.
  for (const proxy of proxies) {
    proxy.setTarget(Number(new URL(b!.url).port));
    proxy.drop();
  }
  await expect.poll(async () => (await b!.stats()).followerLinks).toBe(2);
  const followed = clients.slice(2).map(({ recording }) => ticks(recording));
  await Promise.all(
    clients
      .slice(2)
      .map(({ recording }, index) =>
        recording.until(() => ticks(recording) > followed[index]! + 2),
      ),
  );
  const names = clients.map((_, index) => `before-${index}`);
  await Promise.all(
    clients.map(({ transport }, index) => transport.send(action(names[index]!), METADATA)),
  );
  const firstIds = clients.map(({ transport }) => transport.connectionId!);
  for (const id of firstIds) expect(a!.connects).toContain(id);

  // Mid-stream, A dies; the load balancer takes it out and sends everything to B. B ends the
  // links that follow A's sessions, so their clients come back too.
  await a!.kill();
  for (const { routes } of clients) {
    routes.sse = b!.url;
    routes.rpc = b!.url;
  }
  await Promise.all(
    clients.map(({ recording }) =>
      recording.until((events) => events.some((event) => event.type === 'reset')),
    ),
  );
  const resets = clients.map(({ recording }) =>
    recording.events.find((event) => event.type === 'reset'),
  );
  // The clients following A from the shared log are reset because A is gone. The two that
  // streamed from A itself may hold a message A sent in its last moment but whose append to Redis
  // (pipelined, not awaited) died with it: resuming there is then a replay gap, the same explicit
  // reset with a truthful reason, never a silent loss.
  resets.forEach((reset, index) => {
    expect(reset).toMatchObject({
      reason: expect.stringMatching(
        index < 2 ? /node .* gone|no longer buffered/i : /node .* gone/i,
      ),
    });
  });
  // A fresh onConnect on B, with a new connection id.
  await Promise.all(
    clients.map(
      ({ transport }) =>
        new Promise<void>((resolve) => {
          const check = () =>
            transport.connectionId && !firstIds.includes(transport.connectionId)
              ? resolve()
              : setImmediate(check);
          check();
        }),
    ),
  );
  for (const { transport } of clients) expect(b!.connects).toContain(transport.connectionId);
  await Promise.all(
    clients.map(({ transport }, index) => transport.send(action(`after-${index}`), METADATA)),
  );
  // Every action was applied once, by the node that owned its connection then.
  const applied = [...a!.actions, ...b!.actions].map((entry) => entry.split(' ')[1]);
  expect(applied.sort()).toEqual([...names, ...clients.map((_, index) => `after-${index}`)].sort());
  await Promise.all(clients.map(({ transport }) => transport.close()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
});
