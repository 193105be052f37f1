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
import { ConnectionSession } from './connection-session.js';

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

/** A v1.0 message the test builds loosely (the checks under test are at run time). */
const v10 = (body: Record<string, unknown>) =>
  ({ version: 'v1.0', ...body }) as unknown as ServerMessage;

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
function sendCode(send: () => void): string {
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
    expect(sendCode(() => connection.send({ hello: 'world' }))).toBe('VALIDATION_FAILED');
    expect(
      // @ts-expect-error -- an unknown version
      sendCode(() => connection.send({ version: 'v2.0', deleteSurface: { surfaceId: 's' } })),
    ).toBe('VALIDATION_FAILED');
    expect(
      sendCode(() =>
        // @ts-expect-error -- v1.0 made updateDataModel.value required
        connection.send({ version: 'v1.0', updateDataModel: { surfaceId: 's', path: '/a' } }),
      ),
    ).toBe('VALIDATION_FAILED');
    // @ts-expect-error -- v0.8's beginRendering names its root
    expect(sendCode(() => connection.send({ beginRendering: { surfaceId: 's' } }))).toBe(
      'VALIDATION_FAILED',
    );
  });
});

/** What `send` did: `"sent"`, or the code, pointer and surface of the error it threw. */
function outcome(send: () => void): Record<string, unknown> | 'sent' {
  try {
    send();
  } catch (error) {
    if (!A2uiError.isInstance(error)) throw error;
    return { code: error.code, path: error.path, surfaceId: error.surfaceId };
  }
  return 'sent';
}

const basicSurface = (surfaceId: string, components?: unknown[]) =>
  v10({
    createSurface: {
      surfaceId,
      catalogId: V1_0_BASIC_CATALOG_ID,
      ...(components ? { components } : {}),
    },
  });
const update = (surfaceId: string, components: unknown[], version = 'v1.0') =>
  ({ version, updateComponents: { surfaceId, components } }) as unknown as ServerMessage;

describe('outgoing v1.0 messages are checked against the v1.0 catalog they target', () => {
  it('refuses what the v1.0 basic catalog forbids, sends nothing, and keeps serving', async () => {
    const { client, connection } = await connect();
    const send = (messages: ServerMessage | ServerMessage[]) =>
      outcome(() => connection.send(messages));
    const failed = (path: string, surfaceId = 's') => ({
      code: 'VALIDATION_FAILED',
      path,
      surfaceId,
    });
    expect(send(basicSurface('s'))).toBe('sent');
    // v1.0 removed the heading variants; `text` is a DynamicString.
    expect(
      send(update('s', [{ id: 'root', component: 'Text', text: 'Hi', variant: 'h1' }])),
    ).toEqual(failed('/updateComponents/components/0/variant'));
    expect(send(update('s', [{ id: 'root', component: 'Text', text: 5 }], '1.0'))).toEqual(
      failed('/updateComponents/components/0/text'),
    );
    // Unknown types and properties are refused as v0.9's are (the renderer would degrade).
    expect(send(update('s', [{ id: 'root', component: 'Blink' }]))).toEqual(
      failed('/updateComponents/components/0/component'),
    );
    // Inline components of createSurface too; a refused batch sends none of its messages.
    expect(
      send([
        basicSurface('t'),
        basicSurface('u', [{ id: 'root', component: 'Text', text: 'x', usageHint: 'h1' }]),
      ]),
    ).toEqual({ ...failed('/createSurface/components/0/usageHint', 'u') });
    connection.send(
      update('s', [{ id: 'root', component: 'Text', text: 'Hello', variant: 'caption' }]),
    );
    connection.send(basicSurface('done'));
    await client.until(() => client.processor.getSurface('done') !== undefined, {
      timeoutMs: 5000,
    });
    expect(client.processor.getSurface('t')).toBeUndefined();
    expect(client.processor.getSurface('u')).toBeUndefined();
    expect(client.processor.getSurface('s')?.components.get('root')?.properties).toEqual({
      id: 'root',
      component: 'Text',
      text: 'Hello',
      variant: 'caption',
    });
  });

  it("checks each component against its own catalogId, in either spelling, pointing at the agent's keys", async () => {
    const { client, connection } = await connect();
    const send = (message: ServerMessage) => outcome(() => connection.send(message));
    // A surface with no default catalog: each component names its own.
    expect(send(v10({ createSurface: { surfaceId: 'm' } }))).toBe('sent');
    expect(
      send(
        update('m', [{ id: 'root', component: 'Text', catalogId: V1_0_BASIC_CATALOG_ID, text: 5 }]),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      path: '/updateComponents/components/0/text',
      surfaceId: 'm',
    });
    expect(
      send(
        update('m', [
          {
            id: 'root',
            component: 'Text',
            '@catalogId': V1_0_BASIC_CATALOG_ID,
            text: 'Hi',
            '@accessibility': { label: 5 },
          },
        ]),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      path: '/updateComponents/components/0/@accessibility/label',
      surfaceId: 'm',
    });
    const valid = {
      id: 'root',
      component: 'Text',
      '@catalogId': V1_0_BASIC_CATALOG_ID,
      text: { '@path': '/title' },
      '@accessibility': { label: 'Title' },
    };
    expect(send(update('m', [valid], '1.0'))).toBe('sent');
    connection.send(v10({ updateDataModel: { surfaceId: 'm', path: '/title', value: 'Hello' } }));
    await client.until(
      () => client.processor.getSurface('m')?.components.get('root') !== undefined,
      { timeoutMs: 5000 },
    );
    expect(client.processor.getSurface('m')?.components.get('root')?.properties.text).toEqual({
      path: '/title',
    });
  });

  it('leaves components of catalogs it does not know to their owner', () => {
    const session = new ConnectionSession({ agent: {} });
    session.send(v10({ createSurface: { surfaceId: 'c', catalogId: 'urn:mine' } }));
    session.send(update('c', [{ id: 'root', component: 'Gauge', variant: 'h1' }]));
    // …but one that names the basic catalog on that surface is checked against it.
    expect(
      outcome(() =>
        session.send(
          update('c', [
            { id: 'x', component: 'Text', catalogId: V1_0_BASIC_CATALOG_ID, variant: 'h1' },
          ]),
        ),
      ),
    ).toMatchObject({ code: 'VALIDATION_FAILED', path: '/updateComponents/components/0/text' });
    // An inline template (drafted shape) is hoisted as the reader does: its basic-catalog
    // component is checked, and the problem points at the template.
    const collection = (text: unknown) =>
      update('c', [
        {
          id: 'list',
          component: 'Collection',
          items: '/rows',
          template: { id: 'row', component: 'Text', '@catalogId': V1_0_BASIC_CATALOG_ID, text },
        },
      ]);
    expect(outcome(() => session.send(collection(5)))).toEqual({
      code: 'VALIDATION_FAILED',
      path: '/updateComponents/components/0/template',
      surfaceId: 'c',
    });
    expect(outcome(() => session.send(collection({ '@path': 'name' })))).toBe('sent');
    expect(session.lastSeq).toBe(3);
    session.close();
  });

  it('with validateOutgoing: false only the v1.0 reader checks', () => {
    const session = new ConnectionSession({ agent: {}, validateOutgoing: false });
    session.send([
      basicSurface('s'),
      update('s', [{ id: 'root', component: 'Text', text: 'Hi', variant: 'h1' }]),
    ]);
    expect(session.lastSeq).toBe(2);
    expect(
      outcome(() => session.send(v10({ updateDataModel: { surfaceId: 's', path: '/a' } }))),
    ).toMatchObject({ code: 'VALIDATION_FAILED', path: '/updateDataModel/value' });
    session.close();
  });

  it('hands a custom validateOutgoing the v1.0 message in one spelling, with its surface catalog', () => {
    const seen: Array<[unknown, string | undefined]> = [];
    const session = new ConnectionSession({
      agent: {},
      validateOutgoing: (message, catalogId) => {
        seen.push([message, catalogId]);
        const text = JSON.stringify(message);
        return text.includes('"/secret"')
          ? { path: '/updateComponents/components/0/text/path', message: 'No secrets.' }
          : undefined;
      },
    });
    const component = (path: string) => ({
      id: 'root',
      component: 'Text',
      variant: 'h1',
      text: { '@path': path },
    });
    session.send([
      { ...basicSurface('s'), version: '1.0' } as unknown as ServerMessage,
      update('s', [component('/title')], '1.0'),
    ]);
    // The custom validator replaces the built-in one: `h1` is its call.
    expect(session.lastSeq).toBe(2);
    expect(seen).toEqual([
      [basicSurface('s'), V1_0_BASIC_CATALOG_ID],
      [
        update('s', [{ id: 'root', component: 'Text', variant: 'h1', text: { path: '/title' } }]),
        V1_0_BASIC_CATALOG_ID,
      ],
    ]);
    expect(outcome(() => session.send(update('s', [component('/secret')])))).toEqual({
      code: 'VALIDATION_FAILED',
      path: '/updateComponents/components/0/text/@path',
      surfaceId: 's',
    });
    expect(session.lastSeq).toBe(2);
    session.close();
  });
});
