import { afterEach, describe, expect, it } from 'vitest';
import { A2uiClient } from '../client/a2ui-client.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ServerMessage } from '../protocol/messages.js';
import type { TransportEvent } from '../transport/client-transport.js';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';
import type { Connection } from './agent.js';
import {
  emitVersionOf,
  supportsFunctionCalls,
  withNegotiatedVersion,
  withNegotiatedVersions,
} from './negotiated-connection.js';

const V10_CATALOG_ID = 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

/** What an agent written for v0.9 sends on connect. */
const V09_SURFACE: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
  { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/name', value: 'Ada' } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 's',
      components: [{ id: 'root', component: 'Text', text: { path: '/name' } }],
    },
  },
];

const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** Connects a client offering `offered`; resolves with the raw messages it received and its surface. */
async function run(offered: readonly string[] | null) {
  const received: unknown[] = [];
  const issues: unknown[] = [];
  let connection!: Connection;
  const transport = createInMemoryTransport({
    offeredVersions: offered,
    agent: {
      onConnect(conn) {
        connection = conn;
        withNegotiatedVersion(conn, { onIssues: (found) => issues.push(...found) }).send([
          ...V09_SURFACE,
        ]);
      },
    },
  });
  const events = transport.events.bind(transport);
  transport.events = (options) => {
    const inner = events(options);
    return {
      async *[Symbol.asyncIterator]() {
        for await (const event of inner as AsyncIterable<TransportEvent>) {
          if (event.type === 'messages')
            received.push(
              ...[event.messages]
                .flat()
                .map((item) => (typeof item === 'string' ? JSON.parse(item) : item)),
            );
          yield event;
        }
      },
    };
  };
  const client = new A2uiClient({ transport });
  clients.push(client);
  void client.connect().catch(() => {});
  await expect.poll(() => client.processor.getSurface('s')?.components.get('root')).toBeDefined();
  return { received, issues, client, connection };
}

describe('withNegotiatedVersion', () => {
  it('writes a v0.9 agent’s messages as v1.0 for a client that negotiated v1.0', async () => {
    const { received, issues, client, connection } = await run(['v1.0', 'v0.9']);
    expect(emitVersionOf(connection)).toBe('v1.0');
    expect(supportsFunctionCalls(connection)).toBe(true);
    expect(received).toEqual([
      { version: 'v1.0', createSurface: { surfaceId: 's', catalogId: V10_CATALOG_ID } },
      { version: 'v1.0', updateDataModel: { surfaceId: 's', path: '/name', value: 'Ada' } },
      V09_SURFACE[2] && { ...V09_SURFACE[2], version: 'v1.0' },
    ]);
    expect(issues).toEqual([]);
    expect(client.processor.getSurface('s')!.protocolVersion.name).toBe('v1.0');
  });

  it.each([
    [['v0.9'], 'v0.9'],
    [null, 'v0.9'],
    [['v0.9.1'], 'v0.9.1'],
  ] as const)('offered %j: writes %s', async (offered, expected) => {
    const { received, connection } = await run(offered);
    expect(emitVersionOf(connection)).toBe(expected);
    expect(supportsFunctionCalls(connection)).toBe(false);
    expect(received).toEqual(V09_SURFACE.map((message) => ({ ...message, version: expected })));
  });

  it('reports what v1.0 cannot express and sends the rest; refuses a batch with a non-message', async () => {
    const issues: unknown[] = [];
    let connection!: Connection;
    const transport = createInMemoryTransport({
      agent: {
        onConnect(conn) {
          connection = conn;
        },
      },
    });
    const client = new A2uiClient({ transport });
    clients.push(client);
    void client.connect().catch(() => {});
    await expect.poll(() => connection).toBeDefined();
    const versioned = withNegotiatedVersion(connection, {
      onIssues: (found) => issues.push(...found),
    });
    versioned.send({
      version: 'v0.9',
      createSurface: {
        surfaceId: 't',
        catalogId: BASIC_CATALOG_ID,
        theme: { primaryColor: '#123456' },
      },
    });
    expect(issues).toEqual([expect.objectContaining({ index: 0, path: '/createSurface/theme' })]);
    await expect.poll(() => client.processor.getSurface('t')?.protocolVersion.name).toBe('v1.0');
    expect(() =>
      versioned.send([
        { version: 'v0.9', deleteSurface: { surfaceId: 't' } },
        { hello: 1 } as never,
      ]),
    ).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', data: { index: 1 } }));
    // Nothing of the refused batch went out: the surface is still there.
    expect(client.processor.getSurface('t')).toBeDefined();
    expect(versioned.id).toBe(connection.id);
    expect(versioned.protocolVersions).toEqual(connection.protocolVersions);
  });
});

describe('withNegotiatedVersions', () => {
  it('gives every hook the converting connection', async () => {
    const seen: Connection[] = [];
    const transport = createInMemoryTransport({
      offeredVersions: ['v1.0'],
      agent: withNegotiatedVersions({
        onConnect(connection) {
          seen.push(connection);
          connection.send([...V09_SURFACE]);
        },
        onAction(connection, action) {
          seen.push(connection);
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 's', path: '/name', value: action.name },
          });
        },
      }),
    });
    const client = new A2uiClient({ transport });
    clients.push(client);
    void client.connect().catch(() => {});
    await expect.poll(() => client.processor.getSurface('s')?.protocolVersion.name).toBe('v1.0');
    await client.dispatchAction('s', 'root', { action: { event: { name: 'Grace', context: {} } } });
    await expect.poll(() => client.processor.getSurface('s')?.dataModel.get('/name')).toBe('Grace');
    expect(seen[0]).toBe(seen[1]);
  });
});
