/**
 * An agent emits any version core reads over `Connection.send`, and the client ends in the same
 * state whichever version carried the UI (issue 19: "the agent API lets an agent emit any
 * supported version").
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import { migrateMessages } from '../migrate/migrate-messages.js';
import type { ServerMessage } from '../protocol/messages.js';
import { snapshotState } from '../state/snapshot.js';
import { EXAMPLE_STREAMS } from '../testing/example-streams.js';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';
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

/** `messages` (v0.9) written in `version`: v0.9.1 only changes the envelope literal. */
function inVersion(messages: readonly unknown[], version: string): ServerMessage[] {
  if (version === 'v0.9') return messages as ServerMessage[];
  if (version === 'v0.9.1')
    return messages.map((message) => ({
      ...(message as object),
      version: 'v0.9.1',
    })) as unknown as ServerMessage[];
  const { messages: migrated } = migrateMessages(messages, { to: version as 'v0.8' | 'v1.0' });
  return migrated as unknown as ServerMessage[];
}

/** The state a person sees: components and data, whatever catalog id each version names. */
function rendered(client: A2uiClient) {
  const { surfaces } = snapshotState(client.processor);
  return Object.fromEntries(
    Object.entries(surfaces).map(([id, surface]) => [
      id,
      { components: surface.components, dataModel: surface.dataModel },
    ]),
  );
}

const stream: ServerMessage[] = [
  {
    version: 'v0.9',
    createSurface: {
      surfaceId: 'greeting',
      catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
    },
  },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'greeting',
      components: [
        { id: 'root', component: 'Column', children: ['title', 'name', 'go'] },
        { id: 'title', component: 'Text', text: { path: '/title' } },
        { id: 'name', component: 'TextField', label: 'Name', value: { path: '/user/name' } },
        {
          id: 'go',
          component: 'Button',
          child: 'go-label',
          action: { event: { name: 'greet', context: { name: { path: '/user/name' } } } },
        },
        { id: 'go-label', component: 'Text', text: 'Greet' },
      ],
    },
  },
  {
    version: 'v0.9',
    updateDataModel: {
      surfaceId: 'greeting',
      value: { title: 'Hello', user: { name: 'Ada' } },
    },
  },
  {
    version: 'v0.9',
    updateDataModel: { surfaceId: 'greeting', path: '/title', value: 'Hello again' },
  },
];

describe('Connection.send in every version', () => {
  it.each(['v0.8', 'v0.9.1', 'v1.0'])(
    'sends the same UI in %s and the client renders what v0.9 renders',
    async (version) => {
      const expected = await render(stream);
      const messages = inVersion(stream, version);
      if (version === 'v0.8')
        expect(messages.every((message) => !('version' in message))).toBe(true);
      const client = await render(messages);
      expect(client.surfaces).toEqual(expected.surfaces);
      expect(client.errors).toEqual([]);
      expect(client.versions).toEqual({ greeting: version });
      expect(expected.surfaces.greeting?.dataModel).toEqual({
        title: 'Hello again',
        user: { name: 'Ada' },
      });
    },
  );

  const login = EXAMPLE_STREAMS.find((example) => example.file === '09_login-form.json')!;
  it.each(['v0.8', 'v1.0'])('streams the official login form in %s', async (version) => {
    const expected = await render(login.messages as ServerMessage[]);
    const client = await render(inVersion(login.messages, version));
    expect(client.errors).toEqual([]);
    expect(Object.keys(client.surfaces)).toEqual(Object.keys(expected.surfaces));
    for (const [id, surface] of Object.entries(expected.surfaces))
      expect(client.surfaces[id]?.dataModel).toEqual(surface.dataModel);
  });

  // The outgoing v1.0 catalog check refuses nothing the client accepts: every official example,
  // as `a2ui migrate --to v1.0` writes it, passes it whole.
  it.each(
    EXAMPLE_STREAMS.filter((example) => example.catalog === 'basic').map((example) => [
      example.file,
      example,
    ]),
  )('sends the official %s migrated to v1.0 past the v1.0 catalog check', (_file, example) => {
    const session = new ConnectionSession({ agent: {} });
    const messages = inVersion(example.messages, 'v1.0');
    session.send(messages);
    expect(session.lastSeq).toBe(messages.length);
    session.close();
  });

  it('refuses a v1.0 stream keeping what v1.0 removed, where v0.9 sends it', async () => {
    const { client, connection } = await connect();
    const heading = { id: 'title', component: 'Text', text: 'Hello', variant: 'h1' };
    const [create, components] = inVersion(stream.slice(0, 2), 'v1.0') as unknown as [
      ServerMessage,
      { updateComponents: { components: Array<{ id: string }> } },
    ];
    const withHeading = {
      ...components,
      updateComponents: {
        ...components.updateComponents,
        components: components.updateComponents.components.map((component) =>
          component.id === 'title' ? heading : component,
        ),
      },
    } as unknown as ServerMessage;
    let refused: unknown;
    try {
      connection.send([create, withHeading]);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/updateComponents/components/1/variant',
      surfaceId: 'greeting',
    });
    // The v0.9 basic catalog still has the heading variants.
    connection.send([
      stream[0]!,
      {
        ...stream[1]!,
        updateComponents: { surfaceId: 'greeting', components: [heading] },
      } as ServerMessage,
    ]);
    await client.until(() => client.processor.getSurface('greeting') !== undefined, {
      timeoutMs: 5000,
    });
    expect(client.processor.getSurface('greeting')?.protocolVersion.name).toBe('v0.9');
  });

  it('refuses a malformed v0.8 message and one mixing versions, sending nothing', async () => {
    const { client, connection } = await connect();
    const code = (messages: unknown) => {
      try {
        connection.send(messages as ServerMessage[]);
      } catch (error) {
        return A2uiError.isInstance(error) ? error.code : String(error);
      }
      return 'sent';
    };
    const begin = { beginRendering: { surfaceId: 's', root: 'root' } };
    // beginRendering requires `root`; the whole batch is refused, the valid first message too.
    expect(code([begin, { beginRendering: { surfaceId: 's2' } }])).toBe('VALIDATION_FAILED');
    // A v0.8 kind under a v0.9 envelope is neither.
    expect(code([{ version: 'v0.9', ...begin }])).toBe('VALIDATION_FAILED');
    // Once beginRendering named the standard catalog, a component it lacks is refused.
    expect(code([begin])).toBe('sent');
    expect(
      code([
        {
          surfaceUpdate: {
            surfaceId: 's',
            components: [{ id: 'root', component: { Blink: { text: { literalString: 'x' } } } }],
          },
        },
      ]),
    ).toBe('VALIDATION_FAILED');
    await client.until(() => client.processor.getSurface('s') !== undefined, { timeoutMs: 5000 });
    expect(client.processor.getSurface('s2')).toBeUndefined();
    expect(client.processor.getSurface('s')?.protocolVersion.name).toBe('v0.8');
  });
});

/** What the client shows after `messages`, sent one by one over the in-memory transport. */
async function render(messages: readonly ServerMessage[]) {
  const { client, connection } = await connect();
  const errors: unknown[] = [];
  client.subscribe((event) => {
    if (event.type === 'received') errors.push(...event.result.errors);
  });
  for (const message of messages) connection.send(message);
  // A marker surface in v0.9 after the stream: the transport delivers in order, so once it is
  // there every message before it was applied.
  connection.send({
    version: 'v0.9',
    createSurface: {
      surfaceId: 'zz-marker',
      catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
    },
  });
  await client.until(() => client.processor.getSurface('zz-marker') !== undefined, {
    timeoutMs: 5000,
  });
  const surfaces = rendered(client);
  delete surfaces['zz-marker'];
  const versions = Object.fromEntries(
    client.processor
      .getSurfaces()
      .filter((surface) => surface.surfaceId !== 'zz-marker')
      .map((surface) => [surface.surfaceId, surface.protocolVersion.name]),
  );
  return { surfaces, errors, versions };
}
