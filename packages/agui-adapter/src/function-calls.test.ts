/**
 * A2UI v1.0 over AG-UI: the negotiated version, and function calls in both directions exactly
 * once, against a real server on 127.0.0.1 with `connectAgUi` + `A2uiClient` and with the real
 * `@ag-ui/client` `HttpAgent` (1.0.0 and 0.0.58, each with its event verifier).
 */
import {
  type A2uiAgent,
  A2uiClient,
  A2uiError,
  BASIC_CATALOG_ID,
  type Connection,
  type RendererFunction,
  withNegotiatedVersions,
} from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { FAST_RECONNECT, useTestServers } from '../test/harness.js';
import { PEERS, runPeer, typesOf } from '../test/peers.js';
import { connectAgUi } from './client/connect-agui.js';

const serve = useTestServers();
const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

const SURFACE = {
  version: 'v0.9',
  createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
} as const;

/** Runs `attempt` and returns the A2uiError it rejects with. */
async function failure(attempt: Promise<unknown>): Promise<A2uiError> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!A2uiError.isInstance(error)) throw new Error(`expected an A2uiError, got ${String(error)}`);
  return error;
}

/**
 * An agent whose action `ask` calls renderer function `args.call` and writes the outcome to
 * `/answer` (the value, or the error code); `outcomes` records them.
 */
function askingAgent(options: { timeoutMs?: number; functions?: A2uiAgent['functions'] } = {}) {
  const outcomes: unknown[] = [];
  const connections: Connection[] = [];
  const agent: A2uiAgent = {
    functions: options.functions,
    onConnect(connection) {
      connections.push(connection);
      connection.send(SURFACE);
    },
    async onAction(connection, action) {
      let outcome: unknown;
      try {
        outcome = await connection.callRendererFunction(
          String(action.context.call ?? 'getTimeZone'),
          {},
          // Only `slow` is timed out: the others get the default, whatever the machine's load.
          {
            catalogId: BASIC_CATALOG_ID,
            ...(action.context.call === 'slow' ? { timeoutMs: options.timeoutMs } : {}),
          },
        );
      } catch (error) {
        outcome = A2uiError.isInstance(error)
          ? String((error.data as { code?: unknown } | undefined)?.code ?? error.code)
          : 'other';
      }
      outcomes.push(outcome);
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'main', path: '/answer', value: outcome },
      });
    },
  };
  // The agent writes v0.9; each client gets the version its run negotiated.
  return { agent: withNegotiatedVersions(agent), outcomes, connections };
}

function clientOf(url: string, rendererFunctions: RendererFunction[] = []) {
  const transport = connectAgUi({ url, reconnect: FAST_RECONNECT });
  const client = new A2uiClient({ transport, rendererFunctions });
  clients.push(client);
  void client.connect().catch(() => {});
  return { client, transport };
}

const ask = (call: string) => ({
  version: 'v1.0',
  action: {
    name: 'ask',
    surfaceId: 'main',
    sourceComponentId: 'b',
    timestamp: new Date().toISOString(),
    context: { call },
  },
});

/** The user presses a button whose action is `ask` (A2uiClient writes it in the link's version). */
const askOf = (client: A2uiClient, call: string) =>
  client.dispatchAction('main', 'b', { action: { event: { name: 'ask', context: { call } } } });

const answerOf = (client: A2uiClient) =>
  client.processor.getSurface('main')?.dataModel.get('/answer');

describe('connectAgUi: v1.0 negotiated, function calls both ways', () => {
  it('negotiates v1.0 and carries v1.0 operations; the renderer function is answered in the resume run', async () => {
    const { agent, outcomes, connections } = askingAgent();
    const server = await serve({ agent, mode: 'activity' });
    const { client, transport } = clientOf(server.url, [
      { name: 'getTimeZone', allowedCallers: 'agentOnly', implementation: () => 'Europe/Berlin' },
    ]);
    await eventually(() => client.processor.getSurface('main') !== undefined);
    expect(transport.protocolVersion).toBe('v1.0');
    expect(connections[0]!.protocolVersions?.[0]).toBe('v1.0');
    await askOf(client, 'getTimeZone');
    await eventually(() => answerOf(client) === 'Europe/Berlin');
    expect(outcomes).toEqual(['Europe/Berlin']);
  });

  it('gives the agent the renderer’s refusal: rendererOnly and unknown functions are INVALID_FUNCTION_CALL', async () => {
    const { agent, outcomes } = askingAgent();
    const server = await serve({ agent, mode: 'state' });
    const { client } = clientOf(server.url, [
      { name: 'localOnly', allowedCallers: 'rendererOnly', implementation: () => 1 },
    ]);
    await eventually(() => client.processor.getSurface('main') !== undefined);
    await askOf(client, 'localOnly');
    await eventually(() => outcomes.length === 1);
    await askOf(client, 'missing');
    await eventually(() => outcomes.length === 2);
    expect(outcomes).toEqual(['INVALID_FUNCTION_CALL', 'INVALID_FUNCTION_CALL']);
  });

  it('times the call out on the agent side when the renderer never answers; the thread goes on', async () => {
    const { agent, outcomes } = askingAgent({ timeoutMs: 50 });
    const server = await serve({ agent });
    const never = createDeferred<string>();
    const { client } = clientOf(server.url, [
      { name: 'slow', allowedCallers: 'agentOnly', implementation: () => never.promise },
      { name: 'fast', allowedCallers: 'agentOnly', implementation: () => 'quick' },
    ]);
    await eventually(() => client.processor.getSurface('main') !== undefined);
    await askOf(client, 'slow');
    await eventually(() => outcomes.length === 1);
    expect(outcomes).toEqual(['TIMEOUT']);
    never.resolve('late');
    await askOf(client, 'fast');
    await eventually(() => outcomes.length === 2);
    expect(outcomes).toEqual(['TIMEOUT', 'quick']);
  });

  it('answers the renderer’s callAgentFunction in the run that carried it, and unknown ones with UNKNOWN_FUNCTION', async () => {
    const calls: unknown[] = [];
    const { agent } = askingAgent({
      functions: [
        {
          name: 'suggestNames',
          handler: ({ prefix }) => {
            calls.push(prefix);
            return [`${String(prefix)}a`, `${String(prefix)}am`];
          },
        },
      ],
    });
    const server = await serve({ agent });
    const { client } = clientOf(server.url);
    await eventually(() => client.processor.getSurface('main') !== undefined);
    await expect(
      client.callAgentFunction('main', { call: 'suggestNames', args: { prefix: 'Ad' } }),
    ).resolves.toEqual(['Ada', 'Adam']);
    expect(calls).toEqual(['Ad']);
    const unknown = await failure(client.callAgentFunction('main', { call: 'nope' }));
    expect(unknown.data?.code).toBe('UNKNOWN_FUNCTION');
  });
});

describe('HttpAgent peers: the exact events', () => {
  for (const { version, HttpAgent } of PEERS) {
    it(`@ag-ui/client ${version}: v1.0 state and activity, a renderer function as a frontend tool answered by a tool message`, async () => {
      const { agent, outcomes } = askingAgent();
      const server = await serve({ agent, mode: 'activity' });
      const peer = new HttpAgent({ url: server.url });
      const offer = { a2uiVersions: ['v1.0', 'v0.9'] };
      const opened = await runPeer(peer, { forwardedProps: offer });
      expect(opened.failure).toBeUndefined();
      expect(peer.state).toMatchObject({ a2uiVersion: 'v1.0' });
      const snapshot = opened.events.find((event) => event.type === 'ACTIVITY_SNAPSHOT');
      expect(snapshot?.content).toMatchObject({
        a2ui_operations: [{ version: 'v1.0', createSurface: { surfaceId: 'main' } }],
      });

      const asked = await runPeer(peer, {
        forwardedProps: { ...offer, a2uiAction: ask('getTimeZone') },
      });
      expect(asked.failure).toBeUndefined();
      expect(typesOf(asked).slice(-5)).toEqual([
        'TOOL_CALL_START',
        'TOOL_CALL_ARGS',
        'TOOL_CALL_END',
        'STATE_DELTA',
        'RUN_FINISHED',
      ]);
      const custom = asked.events.find((event) => event.type === 'CUSTOM');
      expect(custom).toMatchObject({
        name: 'a2ui.functionCall',
        value: {
          version: 'v1.0',
          callRendererFunction: { callFunction: { call: 'getTimeZone', args: {} } },
        },
      });
      const start = asked.events.find((event) => event.type === 'TOOL_CALL_START')!;
      expect(start.toolCallName).toBe('getTimeZone');
      const toolCallId = String(start.toolCallId);
      expect(outcomes).toEqual([]);

      // The page runs the tool and sends its result; the same result twice is executed once.
      const result = {
        id: `${toolCallId}-result`,
        role: 'tool' as const,
        toolCallId,
        content: '"Europe/Paris"',
      };
      peer.addMessage(result);
      const resumed = await runPeer(peer, { forwardedProps: offer });
      expect(resumed.failure).toBeUndefined();
      expect(outcomes).toEqual(['Europe/Paris']);
      const delta = resumed.events.find((event) => event.type === 'ACTIVITY_DELTA');
      expect(delta?.patch).toContainEqual({
        op: 'add',
        path: '/a2ui_operations/-',
        value: {
          version: 'v1.0',
          updateDataModel: { surfaceId: 'main', path: '/answer', value: 'Europe/Paris' },
        },
      });
      const again = await runPeer(peer, {
        forwardedProps: {
          ...offer,
          a2uiFunctionCall: {
            version: 'v1.0',
            rendererFunctionResponse: { functionCallId: toolCallId, value: 'Asia/Tokyo' },
          },
        },
      });
      expect(again.failure).toBeUndefined();
      expect(outcomes).toEqual(['Europe/Paris']);
    });
  }

  it('runs a retransmitted callAgentFunction once and answers each run', async () => {
    let runs = 0;
    const { agent } = askingAgent({
      functions: [{ name: 'count', handler: () => ++runs }],
    });
    const server = await serve({ agent });
    const peer = new PEERS[0].HttpAgent({ url: server.url });
    const offer = { a2uiVersions: ['v1.0'] };
    await runPeer(peer, { forwardedProps: offer });
    const call = {
      version: 'v1.0',
      callAgentFunction: {
        surfaceId: 'main',
        functionCallId: 'call-1',
        callFunction: { call: 'count', args: {} },
      },
    };
    const answers: unknown[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const sent = await runPeer(peer, { forwardedProps: { ...offer, a2uiFunctionCall: call } });
      expect(sent.failure).toBeUndefined();
      answers.push(sent.events.find((event) => event.type === 'CUSTOM')?.value);
    }
    expect(runs).toBe(1);
    const answer = {
      version: 'v1.0',
      agentFunctionResponse: { functionCallId: 'call-1', value: 1 },
    };
    expect(answers).toEqual([answer, answer, answer]);
  });

  it('an old client (v0.9 only) is served v0.9 unchanged; the agent’s renderer call is refused NOT_SUPPORTED', async () => {
    const { agent, outcomes } = askingAgent();
    const server = await serve({ agent, mode: 'activity' });
    const peer = new PEERS[0].HttpAgent({ url: server.url });
    const offer = { a2uiVersions: ['v0.9'] };
    const opened = await runPeer(peer, { forwardedProps: offer });
    expect(peer.state).toMatchObject({ a2uiVersion: 'v0.9' });
    const snapshot = opened.events.find((event) => event.type === 'ACTIVITY_SNAPSHOT');
    expect(snapshot?.content).toMatchObject({
      a2ui_operations: [{ version: 'v0.9', createSurface: { surfaceId: 'main' } }],
    });
    const asked = await runPeer(peer, {
      forwardedProps: { ...offer, a2uiAction: { ...ask('getTimeZone'), version: 'v0.9' } },
    });
    expect(asked.failure).toBeUndefined();
    expect(typesOf(asked)).not.toContain('TOOL_CALL_START');
    expect(outcomes).toEqual(['NOT_SUPPORTED']);
  });

  it('refuses a v1.0-only client when the server does not speak v1.0 (406 NOT_SUPPORTED)', async () => {
    const { agent } = askingAgent();
    const server = await serve({ agent, a2uiVersions: ['v0.9'] });
    const peer = new PEERS[0].HttpAgent({ url: server.url });
    const refused = await runPeer(peer, { forwardedProps: { a2uiVersions: ['v1.0'] } });
    expect(refused.failure?.message).toMatch(/406/);
  });
});
