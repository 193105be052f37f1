/**
 * Function calls exist from A2UI v1.0 on: on a connection that negotiated an older version (or
 * none) neither side sends or accepts them, each refusal is a typed `NOT_SUPPORTED`, and the
 * connection goes on serving everything else.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { A2uiAgent, Connection } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import type { ClientTransport, TransportEvent } from '../transport/client-transport.js';
import { createEventQueue } from '../transport/event-queue.js';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';

const V10_CATALOG_ID = 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(agent: A2uiAgent, offeredVersions: readonly string[] | null | undefined) {
  let opened!: (connection: Connection) => void;
  const connection = new Promise<Connection>((resolve) => {
    opened = resolve;
  });
  const actions: string[] = [];
  const agentCalls: string[] = [];
  const transport = createInMemoryTransport({
    offeredVersions,
    agent: {
      ...agent,
      functions: [
        {
          name: 'suggest',
          handler: () => {
            agentCalls.push('suggest');
            return ['Lyon'];
          },
        },
      ],
      onConnect(conn) {
        opened(conn);
        conn.send({
          version: 'v0.9',
          createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
        });
      },
      onAction(_conn, action) {
        actions.push(action.name);
      },
    },
  });
  const client = new A2uiClient({
    transport,
    rendererFunctions: [
      { name: 'getLocale', allowedCallers: 'agentOnly', implementation: () => 'fr-FR' },
    ],
  });
  clients.push(client);
  void client.connect().catch(() => {});
  return { client, transport, connection: await connection, actions, agentCalls };
}

const failure = async (promise: Promise<unknown>): Promise<A2uiError> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!A2uiError.isInstance(error)) throw new Error(`expected an A2uiError, got ${String(error)}`);
  return error;
};

describe('function calls need a connection that negotiated v1.0', () => {
  it('works when v1.0 was negotiated (the in-memory client offers every version by default)', async () => {
    const { client, transport, connection } = await connect({}, undefined);
    expect(connection.protocolVersions?.[0]).toBe('v1.0');
    expect(transport.a2uiVersion).toBe('v1.0');
    await expect(
      connection.callRendererFunction('getLocale', {}, { catalogId: V10_CATALOG_ID }),
    ).resolves.toBe('fr-FR');
    await expect(client.callAgentFunction('s', { call: 'suggest', args: {} })).resolves.toEqual([
      'Lyon',
    ]);
  });

  it.each([
    ['v0.9', ['v0.9'] as const],
    ['no version (a client older than negotiation)', null],
  ])(
    'refuses both directions on a connection that negotiated %s; actions still flow',
    async (_label, offered) => {
      const { client, transport, connection, actions, agentCalls } = await connect({}, offered);
      // Agent → renderer: refused before anything is sent.
      const toRenderer = await failure(
        connection.callRendererFunction('getLocale', {}, { catalogId: V10_CATALOG_ID }),
      );
      expect(toRenderer.code).toBe('NOT_SUPPORTED');
      expect(toRenderer.message).toMatch(/"callRendererFunction" is an A2UI v1\.0 message/);
      expect(() =>
        connection.send({
          version: 'v1.0',
          agentFunctionResponse: { functionCallId: 'x', value: 1 },
        } as never),
      ).toThrow(expect.objectContaining({ code: 'NOT_SUPPORTED' }));
      // Renderer → agent: the client refuses to send; the agent never runs the function.
      const toAgent = await failure(client.callAgentFunction('s', { call: 'suggest', args: {} }));
      expect(toAgent.code).toBe('NOT_SUPPORTED');
      expect(agentCalls).toEqual([]);
      // A client that sends one anyway is refused by the host in the binding's error shape.
      const raw = await failure(
        transport.host.receive(connection.id, {
          principal: undefined,
          message: {
            version: 'v1.0',
            callAgentFunction: {
              surfaceId: 's',
              functionCallId: 'f1',
              callFunction: { call: 'suggest', args: {} },
            },
          } as unknown as ClientMessage,
          metadata: undefined,
          bytes: 100,
        }),
      );
      expect(raw.code).toBe('NOT_SUPPORTED');
      expect(raw.data?.httpStatus).toBe(400);
      expect(agentCalls).toEqual([]);
      // Nothing else is disturbed: the surface is there and an action reaches the agent.
      await expect.poll(() => client.processor.getSurface('s')).toBeDefined();
      await client.dispatchAction('s', 'c', { action: { event: { name: 'go', context: {} } } });
      expect(actions).toEqual(['go']);
      expect(connection.closed).toBe(false);
    },
  );
});

describe('A2uiClient on a link that negotiated v0.9', () => {
  it('answers a callRendererFunction with a v0.9 error and runs nothing', async () => {
    const queue = createEventQueue<TransportEvent>();
    const sent: ClientMessage[] = [];
    let ran = 0;
    const transport: ClientTransport = {
      a2uiVersion: 'v0.9',
      events: () => queue,
      async send(message: ClientMessage, _metadata: ClientMessageMetadata) {
        sent.push(message);
      },
      async close() {
        queue.end();
      },
    };
    const client = new A2uiClient({
      transport,
      rendererFunctions: [
        {
          name: 'getLocale',
          allowedCallers: 'agentOnly',
          implementation: () => {
            ran++;
            return 'fr-FR';
          },
        },
      ],
    });
    clients.push(client);
    void client.connect().catch(() => {});
    queue.push({ type: 'status', status: 'open' });
    queue.push({
      type: 'messages',
      messages: [
        {
          version: 'v1.0',
          callRendererFunction: {
            functionCallId: 'fn-1',
            callFunction: { call: 'getLocale', catalogId: V10_CATALOG_ID, args: {} },
          },
        },
      ],
    } as unknown as TransportEvent);
    await expect.poll(() => sent.length).toBe(1);
    expect(ran).toBe(0);
    expect(sent[0]).toEqual({
      version: 'v0.9',
      error: {
        code: 'NOT_SUPPORTED',
        surfaceId: '',
        message: expect.stringMatching(/negotiated v0\.9/),
      },
    });
  });
});
