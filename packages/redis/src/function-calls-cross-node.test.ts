/**
 * v1.0 function calls across two node processes sharing one Redis, with the client's event
 * stream on one node and its posts on the other (a load balancer without sticky sessions): the
 * renderer's answer posted on B reaches the agent's call on A, a retransmitted call or answer is
 * applied once whichever node it lands on, and a call whose connection is reset (its owner died)
 * is rejected with `CONNECTION_CLOSED`.
 */
import { A2uiClient, A2uiError, type ClientMessage, FUNCTION_CALL_VERSION } from '@a2ui-ts/core';
import { createChangeNotifier } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectRouted, type Routes, startNode, type TestNode } from '../test/cluster.js';
import { action, METADATA } from '../test/messages.js';
import { testPrefix } from '../test/stores.js';

const nodes: TestNode[] = [];
const clients: A2uiClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await Promise.all(nodes.map((node) => node.close()));
});

async function startPair(config: { leaseTtlMs?: number; routeTimeoutMs?: number } = {}) {
  const shared = { redisUrl: inject('redisUrl'), keyPrefix: testPrefix(), ...config };
  const pair = await Promise.all([startNode(shared), startNode(shared)]);
  nodes.push(...pair);
  return pair as [TestNode, TestNode];
}

/**
 * A client on `routes` that answers `getTimeZone`, counting its runs; `recording` keeps the server
 * messages it received and whether it was reset (the client reads the transport's events).
 */
async function connectClient(routes: Routes) {
  const transport = connectRouted(routes);
  const runs = { zone: 0 };
  const client = new A2uiClient({
    transport,
    rendererFunctions: [
      {
        name: 'getTimeZone',
        allowedCallers: 'agentOnly',
        implementation: () => {
          runs.zone++;
          return 'Europe/Berlin';
        },
      },
    ],
  });
  clients.push(client);
  const { notify, until } = createChangeNotifier();
  const received: Record<string, unknown>[] = [];
  let resets = 0;
  client.subscribe((event) => {
    if (event.type === 'received') {
      const input = typeof event.input === 'string' ? JSON.parse(event.input) : event.input;
      received.push(...(Array.isArray(input) ? input : [input]));
    } else if (event.type === 'reset') resets++;
    notify();
  });
  const recording = {
    until: (condition: () => boolean) => until(condition),
    messages: () => received,
    valuesAt: (path: string) =>
      received.flatMap((message) => {
        const update = message.updateDataModel as { path?: string; value?: unknown } | undefined;
        return update?.path === path ? [update.value] : [];
      }),
    resets: () => resets,
  };
  void client.connect().catch(() => {});
  await recording.until(() => recording.valuesAt('/node').length === 1);
  return { transport, recording, client, runs };
}

const countCall = (functionCallId: string): ClientMessage =>
  ({
    version: FUNCTION_CALL_VERSION,
    callAgentFunction: { surfaceId: 's', functionCallId, callFunction: { call: 'count' } },
  }) as unknown as ClientMessage;

describe('function calls on two nodes sharing one Redis', () => {
  it("answers the agent's renderer call on A with the answer posted on B, once, however often it is retransmitted", async () => {
    const [a, b] = await startPair();
    const routes: Routes = { sse: a.url, rpc: b.url };
    const { transport, recording, runs } = await connectClient(routes);
    const id = transport.connectionId!;
    await transport.send(action('ask-zone'), METADATA);
    await recording.until(() => recording.valuesAt('/zone').length === 1);
    expect(recording.valuesAt('/zone')).toEqual(['Europe/Berlin']);
    const call = recording.messages().find((message) => 'callRendererFunction' in message) as
      | { callRendererFunction: { functionCallId: string } }
      | undefined;
    const functionCallId = call!.callRendererFunction.functionCallId;
    // The same answer again, on B and then on A, as a client retrying a lost POST would send it.
    const again = {
      version: FUNCTION_CALL_VERSION,
      rendererFunctionResponse: { functionCallId, value: 'Pacific/Auckland' },
    } as unknown as ClientMessage;
    await transport.send(again, METADATA);
    routes.rpc = a.url;
    await transport.send(again, METADATA);
    // Every message of the client reaches A in order: after this action, the copies were seen.
    await transport.send(action('after'), METADATA);
    await recording.until(() => recording.valuesAt('/did').includes('after'));
    expect(recording.valuesAt('/zone')).toEqual(['Europe/Berlin']);
    expect(a.functions).toEqual([`${id} getTimeZone Europe/Berlin`]);
    expect(b.functions).toEqual([]);
    expect(runs.zone).toBe(1);
  });

  it('runs a callAgentFunction retransmitted to either node once, on the owner, and answers every copy', async () => {
    const [a, b] = await startPair();
    const routes: Routes = { sse: a.url, rpc: b.url };
    const { transport, recording, client } = await connectClient(routes);
    await expect(
      client.callAgentFunction('s', { call: 'count' }, { functionCallId: 'dup-1' }),
    ).resolves.toBe(1);
    await transport.send(countCall('dup-1'), METADATA);
    routes.rpc = a.url;
    await transport.send(countCall('dup-1'), METADATA);
    const answers = () =>
      recording.messages().filter((message) => 'agentFunctionResponse' in message);
    await recording.until(() => answers().length === 3);
    expect(answers().map((message) => (message as never as Answer).agentFunctionResponse)).toEqual(
      Array(3).fill({ functionCallId: 'dup-1', value: 1 }),
    );
    expect(a.functions).toEqual(['dup-1 count']);
    expect(b.functions).toEqual([]);
  });

  it("rejects the client's pending call with CONNECTION_CLOSED when the owner dies and the connection is reset on the other node", async () => {
    const [a, b] = await startPair({ leaseTtlMs: 1_500, routeTimeoutMs: 1_000 });
    const routes: Routes = { sse: a.url, rpc: b.url };
    const { transport, recording, client } = await connectClient(routes);
    const firstId = transport.connectionId!;
    const waiting = client.callAgentFunction('s', { call: 'wait' }).then(
      (value) => new Error(`resolved with ${JSON.stringify(value)}`),
      (error: unknown) => error,
    );
    // The call reached the agent on A (its hook runs, and holds the connection's later messages).
    await eventually(() => a.functions.some((entry) => entry.endsWith(' wait')));
    await a.kill();
    routes.sse = b.url;
    routes.rpc = b.url;
    const outcome = await waiting;
    expect(A2uiError.isInstance(outcome) && outcome.code).toBe('CONNECTION_CLOSED');
    await recording.until(() => recording.resets() > 0);
    // The client starts over on B, where its calls work again.
    await recording.until(() => transport.connectionId !== firstId);
    await expect(client.callAgentFunction('s', { call: 'count' })).resolves.toBe(1);
    expect(b.connects).toContain(transport.connectionId);
  });
});

interface Answer {
  agentFunctionResponse: unknown;
}
