/**
 * The shared transport conformance suite (ARCHITECTURE §3, §6): every transport package runs it
 * against a real server with its own factory. Requires vitest.
 *
 * @example
 * ```ts
 * describeTransportConformance('sse-jsonrpc', {
 *   async start(agent, { reconnectGraceMs }) {
 *     const server = await listen(createSseJsonRpcServer({ agent, reconnectGraceMs }));
 *     return { createTransport: () => connectSseJsonRpc({ url: server.url }), close: server.close };
 *   },
 * });
 * ```
 */
import { describe, expect, it } from 'vitest';
import type { A2uiAgent, Connection, DisconnectReason } from '../agent/agent.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type {
  ActionEvent,
  ClientError,
  ClientMessageMetadata,
  ServerMessage,
} from '../protocol/messages.js';
import { MessageProcessor } from '../state/message-processor.js';
import { snapshotState } from '../state/snapshot.js';
import type { ClientTransport } from '../transport/client-transport.js';
import { EXAMPLE_STREAMS } from './example-streams.js';
import { createDeferred, waitForClient } from './wait-for.js';

/** A running server under test. */
export interface ConformanceServer {
  /** A new client transport connected to this server. */
  createTransport(): ClientTransport;
  /**
   * Breaks the link under `transport` as a network fault would (the TCP connection is destroyed,
   * not closed politely). Without it the resume tests are skipped.
   */
  dropLink?(transport: ClientTransport): void | Promise<void>;
  /** Live server-side sessions, for leak checks. */
  sessionCount?(): number;
  close(): Promise<void>;
}

/** How the suite starts servers. */
export interface TransportConformanceHarness {
  /** Starts a server hosting `agent` on 127.0.0.1, port 0. */
  start(agent: A2uiAgent, options: { reconnectGraceMs: number }): Promise<ConformanceServer>;
}

interface RecordedInbound {
  kind: 'action' | 'error';
  action?: ActionEvent;
  error?: ClientError;
  metadata: ClientMessageMetadata | undefined;
}

function recordingAgent(onConnect: (connection: Connection) => void | Promise<void>) {
  const inbound: RecordedInbound[] = [];
  const disconnected = createDeferred<DisconnectReason>();
  let connects = 0;
  const listeners = new Set<() => void>();
  const agent: A2uiAgent = {
    async onConnect(connection) {
      connects++;
      await onConnect(connection);
    },
    onAction(_connection, action, metadata) {
      inbound.push({ kind: 'action', action, metadata });
      for (const listener of listeners) listener();
    },
    onError(_connection, error, metadata) {
      inbound.push({ kind: 'error', error, metadata });
      for (const listener of listeners) listener();
    },
    onDisconnect(_connection, reason) {
      disconnected.resolve(reason);
    },
  };
  const inboundCount = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (inbound.length >= count) {
          listeners.delete(check);
          resolve();
        }
      };
      listeners.add(check);
      check();
    });
  return {
    agent,
    inbound,
    disconnected: disconnected.promise,
    connects: () => connects,
    inboundCount,
  };
}

/** Messages applied (or rejected) by the client so far. */
function countReceived(client: A2uiClient): () => number {
  let count = 0;
  client.subscribe((event) => {
    if (event.type === 'received') count += event.result.applied + event.result.errors.length;
  });
  return () => count;
}

const counterStream = (count: number): ServerMessage[] => [
  { version: 'v0.9', createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID } },
  ...Array.from(
    { length: count },
    (_, index): ServerMessage => ({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'counter', path: `/values/${index}`, value: index },
    }),
  ),
];

function expectedState(messages: readonly ServerMessage[]) {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  processor.process([...messages]);
  return snapshotState(processor);
}

/**
 * Registers the conformance tests under `describe(name)`.
 */
export function describeTransportConformance(
  name: string,
  harness: TransportConformanceHarness,
): void {
  describe(`transport conformance: ${name}`, () => {
    it('delivers every official example stream in order, one message per frame, none lost or repeated', async () => {
      const all = EXAMPLE_STREAMS.flatMap((stream) => stream.messages);
      const { agent } = recordingAgent((connection) => {
        for (const message of all) connection.send(message);
      });
      const server = await harness.start(agent, { reconnectGraceMs: 60_000 });
      const client = new A2uiClient({ transport: server.createTransport() });
      const received = countReceived(client);
      const errors: ClientError[] = [];
      client.processor.onError((error) => errors.push(error));
      void client.connect().catch(() => {});
      try {
        await waitForClient(client, () => received() >= all.length, `${all.length} messages`);
        expect(received()).toBe(all.length);
        expect(errors).toEqual([]);
        expect(snapshotState(client.processor)).toEqual(expectedState(all));
      } finally {
        await client.close();
        await server.close();
      }
    });

    it('keeps the order of a long stream and of batches sent as one array', async () => {
      const stream = counterStream(300);
      const { agent } = recordingAgent((connection) => {
        connection.send(stream.slice(0, 101));
        for (const message of stream.slice(101)) connection.send(message);
      });
      const server = await harness.start(agent, { reconnectGraceMs: 60_000 });
      const client = new A2uiClient({ transport: server.createTransport() });
      const seen: number[] = [];
      client.subscribe((event) => {
        if (event.type !== 'received') return;
        const input = typeof event.input === 'string' ? JSON.parse(event.input) : event.input;
        for (const message of Array.isArray(input) ? input : [input]) {
          if (message.updateDataModel) seen.push(message.updateDataModel.value);
        }
      });
      void client.connect().catch(() => {});
      try {
        await waitForClient(client, () => seen.length >= 300, '300 data updates');
        expect(seen).toEqual(Array.from({ length: 300 }, (_, index) => index));
      } finally {
        await client.close();
        await server.close();
      }
    });

    it('carries actions and errors to the agent in order, each with client capabilities and the client data model', async () => {
      const surface: ServerMessage[] = [
        {
          version: 'v0.9',
          createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID, sendDataModel: true },
        },
        {
          version: 'v0.9',
          updateComponents: {
            surfaceId: 'form',
            components: [
              {
                id: 'root',
                component: 'Button',
                child: 'label',
                action: { event: { name: 'submit', context: { n: { path: '/n' }, fixed: 'x' } } },
              },
              { id: 'label', component: 'Text', text: 'Send' },
            ],
          },
        },
      ];
      const recorder = recordingAgent((connection) => connection.send(surface));
      const server = await harness.start(recorder.agent, { reconnectGraceMs: 60_000 });
      const client = new A2uiClient({ transport: server.createTransport() });
      const received = countReceived(client);
      void client.connect().catch(() => {});
      try {
        await waitForClient(client, () => received() >= 2, 'the form surface');
        const model = client.processor.getSurface('form')!.dataModel;
        for (let n = 0; n < 10; n++) {
          model.set('/n', n);
          await client.dispatchAction('form', 'root');
        }
        await client.send({
          version: 'v0.9',
          error: { code: 'CUSTOM', surfaceId: 'form', message: 'after the actions' },
        });
        await recorder.inboundCount(11);
        const actions = recorder.inbound.filter((entry) => entry.kind === 'action');
        expect(actions.map((entry) => entry.action!.context)).toEqual(
          Array.from({ length: 10 }, (_, n) => ({ n, fixed: 'x' })),
        );
        for (const entry of recorder.inbound) {
          expect(entry.metadata?.a2uiClientCapabilities).toEqual(
            client.getMetadata().a2uiClientCapabilities,
          );
        }
        expect(actions[3]!.metadata?.a2uiClientDataModel).toEqual({
          version: 'v0.9',
          surfaces: { form: { n: 3 } },
        });
        expect(actions[3]!.action).toMatchObject({
          name: 'submit',
          surfaceId: 'form',
          sourceComponentId: 'root',
        });
        expect(recorder.inbound[10]).toMatchObject({
          kind: 'error',
          error: { code: 'CUSTOM', message: 'after the actions' },
        });
      } finally {
        await client.close();
        await server.close();
      }
    });

    it('tells the agent when the client closes, and forgets the session', async () => {
      const recorder = recordingAgent((connection) => connection.send(counterStream(1)));
      const server = await harness.start(recorder.agent, { reconnectGraceMs: 60_000 });
      const client = new A2uiClient({ transport: server.createTransport() });
      const received = countReceived(client);
      void client.connect().catch(() => {});
      try {
        await waitForClient(client, () => received() >= 2, 'the first messages');
        await client.close();
        expect(await recorder.disconnected).toBe('client-closed');
        if (server.sessionCount) await expectEventually(() => server.sessionCount!() === 0);
      } finally {
        await server.close();
      }
    });

    it('closes the client when the agent closes the connection', async () => {
      const recorder = recordingAgent((connection) => {
        connection.send(counterStream(3));
        connection.close();
      });
      const server = await harness.start(recorder.agent, { reconnectGraceMs: 60_000 });
      const client = new A2uiClient({ transport: server.createTransport() });
      const received = countReceived(client);
      const done = client.connect().catch(() => {});
      try {
        await done;
        expect(received()).toBe(4);
        expect(client.status).toBe('closed');
        expect(await recorder.disconnected).toBe('server-closed');
      } finally {
        await client.close();
        await server.close();
      }
    });

    it('resumes after a dropped link without losing or repeating a message, and the agent sees one connection', async (context) => {
      const stream = counterStream(200);
      const recorder = recordingAgent((connection) => {
        for (const message of stream) connection.send(message);
      });
      const server = await harness.start(recorder.agent, { reconnectGraceMs: 60_000 });
      if (!server.dropLink) {
        await server.close();
        context.skip();
        return;
      }
      const transport = server.createTransport();
      const client = new A2uiClient({ transport });
      const received = countReceived(client);
      let dropped = false;
      client.subscribe(() => {
        if (!dropped && received() >= 50) {
          dropped = true;
          void server.dropLink!(transport);
        }
      });
      void client.connect().catch(() => {});
      try {
        await waitForClient(client, () => received() >= stream.length, 'the whole stream');
        expect(dropped).toBe(true);
        expect(received()).toBe(stream.length);
        expect(snapshotState(client.processor)).toEqual(expectedState(stream));
        expect(recorder.connects()).toBe(1);
      } finally {
        await client.close();
        await server.close();
      }
    });
  });
}

/** Polls `condition` on the event loop's macrotask queue; the test timeout bounds it. */
async function expectEventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
