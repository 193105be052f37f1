/**
 * Scale-out: two REST servers share a registry, replay logs and a router (core's in-process
 * stand-in for Redis), and every request of one client goes to the next node in turn, as behind a
 * round-robin load balancer. Every request names its connection, so either node answers it: the
 * agent runs on the node that opened the connection and sees each action once, turns come back
 * through the other node, pushes arrive by polls the other node follows from the shared log.
 */
import { createMemoryCluster, recordTransport } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, expect, it } from 'vitest';
import { action, capabilities, createMain, echoAgent, update } from '../test/fixtures.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../test/harness.js';
import { connectRest } from './client/connect-rest.js';

let nodes: TestServer[] = [];
afterEach(async () => {
  for (const node of nodes) await node.close();
  nodes = [];
});

it('serves one client from two nodes in turn: each action once, each message once, in order', async () => {
  const cluster = createMemoryCluster();
  const recorder = echoAgent();
  const errors: unknown[] = [];
  for (const id of ['a', 'b'])
    nodes.push(
      await startTestServer({
        agent: recorder.agent,
        registry: cluster.registry,
        createReplayLog: cluster.createReplayLog,
        router: cluster.router(id),
        onAgentError: (error) => errors.push(error),
      }),
    );
  const [a, b] = nodes as [TestServer, TestServer];
  // Each kind of request alternates between the nodes on its own, so that both nodes answer
  // actions and polls however the client's polls and actions interleave.
  const nextByPath = new Map<string, number>();
  const served: string[] = [];
  const transport = connectRest({
    url: a.url,
    reconnect: FAST_RECONNECT,
    // The load balancer: each request to the next node, whatever connection it names.
    fetch: (input, init) => {
      const { pathname } = new URL(String(input));
      const turn = nextByPath.get(pathname) ?? 0;
      nextByPath.set(pathname, turn + 1);
      const node = nodes[turn % nodes.length]!;
      served.push(`${node === a ? 'a' : 'b'} ${pathname}`);
      return fetch(String(input).replace(a.url, node.url), init);
    },
  });
  const recording = recordTransport(transport);
  await recording.until(() => recording.messages().length === 1);
  for (let index = 0; index < 6; index++)
    await transport.send({ version: 'v0.9', action: action(`act-${index}`) }, capabilities);
  recorder.connections[0]!.send(update('/pushed', true));
  await recording.until(() => recording.messages().length === 8);
  expect(recorder.connections).toHaveLength(1);
  expect(recorder.actions).toEqual(Array.from({ length: 6 }, (_, index) => `act-${index}`));
  expect(recording.messages()).toEqual([
    createMain,
    ...Array.from({ length: 6 }, (_, index) => update('/last', `act-${index}`)),
    update('/pushed', true),
  ]);
  // Both nodes answered actions and polls.
  for (const expected of ['a /action', 'b /action', 'a /messages', 'b /messages'])
    expect(served).toContain(expected);
  expect(cluster.forwarded).toBeGreaterThan(0);
  // Only the node that opened it runs the connection.
  expect([a.app.stats().sessions, b.app.stats().sessions]).toEqual([1, 0]);
  await transport.close();
  await eventually(() => recorder.disconnects.length === 1);
  expect(recorder.disconnects).toEqual(['client-closed']);
  expect(errors).toEqual([]);
});
