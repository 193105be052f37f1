/**
 * An agent emits every version core reads over `Connection.send`: typed for each version's
 * messages (no cast) and refusing what is none, in the type checker (`tsc -p packages/core`
 * compiles this file; each `@ts-expect-error` fails the build when its line stops being an error)
 * and at run time alike.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { Connection } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ServerMessage } from '../protocol/messages.js';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';
import type {
  AnyServerMessage,
  V10ServerMessage,
  V091ServerMessage,
} from '../versions/server-messages.js';
import type { V08ServerMessage } from '../versions/v0-8/v08-messages.js';
import { V0_9_1_BASIC_CATALOG_ID } from '../versions/v0-9-1.js';
import { V1_0_BASIC_CATALOG_ID } from '../versions/v1-0-catalogs.js';

const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(): Promise<{ client: A2uiClient; connection: Connection }> {
  let opened!: (connection: Connection) => void;
  const connection = new Promise<Connection>((resolve) => {
    opened = resolve;
  });
  const client = new A2uiClient({
    transport: createInMemoryTransport({ agent: { onConnect: opened } }),
  });
  clients.push(client);
  void client.connect().catch(() => {});
  return { client, connection: await connection };
}

describe('an agent emits any supported version', () => {
  it('sends v1.0 and v0.9.1 messages that the client applies in their version', async () => {
    const { client, connection } = await connect();
    connection.send([
      {
        version: 'v1.0',
        createSurface: {
          surfaceId: 'new',
          catalogId: V1_0_BASIC_CATALOG_ID,
          components: [{ id: 'root', component: 'Text', text: 'Hello' }],
        },
      },
      {
        version: 'v0.9.1',
        createSurface: { surfaceId: 'old', catalogId: V0_9_1_BASIC_CATALOG_ID },
      },
    ]);
    await client.until(() => client.processor.getSurface('old') !== undefined, { timeoutMs: 5000 });
    expect(client.processor.getSurface('new')?.protocolVersion.name).toBe('v1.0');
    expect(client.processor.getSurface('old')?.protocolVersion.name).toBe('v0.9.1');
    expect(client.processor.getSurface('new')?.components.get('root')?.type).toBe('Text');
  });

  it('refuses a malformed v1.0 message and an unknown version, sending nothing', async () => {
    const { connection } = await connect();
    const refused = (message: unknown) => {
      try {
        connection.send(message as ServerMessage);
      } catch (error) {
        return A2uiError.isInstance(error) ? error.code : String(error);
      }
      return 'sent';
    };
    // v1.0 made updateDataModel.value required.
    expect(refused({ version: 'v1.0', updateDataModel: { surfaceId: 's', path: '/a' } })).toBe(
      'VALIDATION_FAILED',
    );
    expect(refused({ version: 'v99.0', deleteSurface: { surfaceId: 's' } })).toBe(
      'VALIDATION_FAILED',
    );
  });
});

/** The code `send` throws, or `'sent'`. */
function outcome(send: () => void): string {
  try {
    send();
    return 'sent';
  } catch (error) {
    return A2uiError.isInstance(error) ? error.code : String(error);
  }
}

type Sendable = Parameters<Connection['send']>[0];

describe('Connection.send', () => {
  it('is typed for every version: v0.8, v0.9, v0.9.1, v1.0 messages, one or a batch', () => {
    expectTypeOf<V08ServerMessage>().toExtend<Sendable>();
    expectTypeOf<ServerMessage>().toExtend<Sendable>();
    expectTypeOf<V091ServerMessage>().toExtend<Sendable>();
    expectTypeOf<V10ServerMessage>().toExtend<Sendable>();
    expectTypeOf<readonly AnyServerMessage[]>().toExtend<Sendable>();
    expectTypeOf<{ hello: 'world' }>().not.toExtend<Sendable>();
    expectTypeOf<string>().not.toExtend<Sendable>();
    expectTypeOf<{
      version: 'v2.0';
      deleteSurface: { surfaceId: string };
    }>().not.toExtend<Sendable>();
  });

  it('sends v0.8 and v1.0 messages written as literals, and the client applies them', async () => {
    const { client, connection } = await connect();
    connection.send([
      { beginRendering: { surfaceId: 'old', root: 'title' } },
      {
        surfaceUpdate: {
          surfaceId: 'old',
          components: [{ id: 'title', component: { Text: { text: { literalString: 'v0.8' } } } }],
        },
      },
      {
        version: 'v1.0',
        createSurface: {
          surfaceId: 'new',
          catalogId: V1_0_BASIC_CATALOG_ID,
          components: [{ id: 'root', component: 'Text', text: { path: '/greeting' } }],
          dataModel: { greeting: 'Hello', stale: true },
        },
      },
      // The later drafts' envelope spelling; v1.0 deletes with `null`.
      { version: '1.0', updateDataModel: { surfaceId: 'new', path: '/stale', value: null } },
      { version: 'v0.9.1', deleteSurface: { surfaceId: 'gone' } },
    ]);
    // Messages arrive one by one: wait for the last one's effect.
    await client.until(
      () => {
        const surface = client.processor.getSurface('new');
        return surface !== undefined && surface.dataModel.get('/stale') === undefined;
      },
      { timeoutMs: 5000 },
    );
    expect(client.processor.getSurface('old')?.protocolVersion.name).toBe('v0.8');
    const surface = client.processor.getSurface('new')!;
    expect(surface.protocolVersion.name).toBe('v1.0');
    expect(surface.dataModel.get('/')).toEqual({ greeting: 'Hello' });
  });

  it('refuses garbage in the type checker and at run time, sending nothing', async () => {
    const { connection } = await connect();
    // @ts-expect-error -- no message of any version
    expect(outcome(() => connection.send({ hello: 'world' }))).toBe('VALIDATION_FAILED');
    expect(
      // @ts-expect-error -- an unknown version
      outcome(() => connection.send({ version: 'v2.0', deleteSurface: { surfaceId: 's' } })),
    ).toBe('VALIDATION_FAILED');
    expect(
      outcome(() =>
        // @ts-expect-error -- v1.0 made updateDataModel.value required
        connection.send({ version: 'v1.0', updateDataModel: { surfaceId: 's', path: '/a' } }),
      ),
    ).toBe('VALIDATION_FAILED');
    // @ts-expect-error -- v0.8's beginRendering names its root
    expect(outcome(() => connection.send({ beginRendering: { surfaceId: 's' } }))).toBe(
      'VALIDATION_FAILED',
    );
  });
});
