/**
 * Actions and errors travel in the negotiated version's shape (issue 20): v1.0's on a link that
 * negotiated v1.0, v0.9's on an older one; the server accepts v1.0's only from a v1.0 connection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { A2uiAgent, Connection } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import { checkInboundMessage } from '../host/inbound.js';
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import { createV10ActionSurface } from '../testing/v1-action-surface.js';
import { v08 } from '../versions/v0-8/v0-8.js';
import { v09 } from '../versions/v0-9.js';
import { v10 } from '../versions/v1-0.js';
import {
  clientMessageVersionOf,
  fromClientMessageParts,
  toClientMessageParts,
} from './client-message-version.js';
import type { ClientTransport } from './client-transport.js';
import { createInMemoryTransport } from './in-memory-transport.js';

const stamp = '2026-01-15T12:00:00.000Z';
const action = {
  name: 'book',
  surfaceId: 's',
  sourceComponentId: 'root',
  timestamp: stamp,
  context: {},
};

const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A v1.0 surface with a button whose event carries a userMessage. */
const v10Surface = [createV10ActionSurface('s', 'Book the table')];

/** A transport that records what it is given and says it negotiated `a2uiVersion`. */
function recording(a2uiVersion: string | undefined): ClientTransport & { sent: ClientMessage[] } {
  const sent: ClientMessage[] = [];
  return {
    a2uiVersion,
    sent,
    async *events(options) {
      // Open until the client closes it, as a real link is.
      await new Promise((resolve) => options?.signal?.addEventListener('abort', resolve));
    },
    async send(message: ClientMessage, _metadata: ClientMessageMetadata) {
      sent.push(message);
    },
    async close() {},
  };
}

describe('clientMessageVersionOf', () => {
  it('writes v1.0 on a v1.0 link, v0.9 on an older one, and the carried surface version without negotiation', () => {
    expect(clientMessageVersionOf({ a2uiVersion: 'v1.0' }, v09)).toBe(v10);
    expect(clientMessageVersionOf({ a2uiVersion: 'v0.9.1' }, v10)).toBe(v09);
    expect(clientMessageVersionOf({ a2uiVersion: 'v0.8' }, v08)).toBe(v09);
    expect(clientMessageVersionOf({}, v10)).toBe(v09);
    expect(clientMessageVersionOf({ clientMessageVersions: ['v1.0'] }, v10)).toBe(v10);
    expect(clientMessageVersionOf(undefined, v10)).toBe(v09);
  });

  it('splits a message for a route and joins it again, naming the version only when it is not the default', () => {
    expect(toClientMessageParts({ version: 'v0.9', action })).toEqual({
      kind: 'action',
      body: action,
    });
    expect(toClientMessageParts({ version: 'v1.0', action })).toEqual({
      kind: 'action',
      body: action,
      version: 'v1.0',
    });
    const response = { functionCallId: 'c', value: 1 };
    expect(toClientMessageParts({ version: 'v1.0', rendererFunctionResponse: response })).toEqual({
      kind: 'rendererFunctionResponse',
      body: response,
    });
    expect(fromClientMessageParts('action', action, undefined)).toEqual({
      version: 'v0.9',
      action,
    });
    expect(fromClientMessageParts('error', {}, 'v1.0')).toEqual({ version: 'v1.0', error: {} });
  });
});

/** A connected client on a recording link that negotiated `a2uiVersion`, holding the v1.0 surface. */
function openClient(a2uiVersion: string) {
  const transport = recording(a2uiVersion);
  const client = new A2uiClient({ transport });
  clients.push(client);
  void client.connect();
  client.process(v10Surface);
  return { transport, client };
}

describe('A2uiClient writes the negotiated version', () => {
  it('sends an action of a v1.0 surface in v1.0 shape, with its userMessage, on a v1.0 link', async () => {
    const { transport, client } = openClient('v1.0');
    await client.dispatchAction('s', 'root');
    expect(transport.sent[0]).toEqual({
      version: 'v1.0',
      action: { ...action, timestamp: expect.any(String), userMessage: 'Book the table' },
    });
  });

  it('sends the same action in v0.9 shape on a v0.9 link, and errors likewise', async () => {
    const { transport, client } = openClient('v0.9');
    await client.dispatchAction('s', 'root');
    expect(transport.sent[0]).toEqual({
      version: 'v0.9',
      action: { ...action, timestamp: expect.any(String) },
    });
    client.processor.reportError({ code: 'EXPRESSION_ERROR', surfaceId: 's', message: 'x' });
    await Promise.resolve();
    expect(transport.sent[1]).toMatchObject({
      version: 'v0.9',
      error: { code: 'EXPRESSION_ERROR' },
    });
  });

  it('reports an error in v1.0 shape on a v1.0 link', async () => {
    const { transport, client } = openClient('v1.0');
    client.processor.reportError({ code: 'EXPRESSION_ERROR', surfaceId: 's', message: 'x' });
    await Promise.resolve();
    expect(transport.sent[0]).toEqual({
      version: 'v1.0',
      error: { code: 'EXPRESSION_ERROR', surfaceId: 's', message: 'x' },
    });
  });
});

describe('the server accepts v1.0 actions and errors from a v1.0 connection only', () => {
  async function connect(offeredVersions: readonly string[] | undefined) {
    const seen: { actions: unknown[]; errors: unknown[] } = { actions: [], errors: [] };
    let opened!: (connection: Connection) => void;
    const connection = new Promise<Connection>((resolve) => {
      opened = resolve;
    });
    const agent: A2uiAgent = {
      onConnect(conn) {
        opened(conn);
        if (conn.protocolVersions?.[0] === 'v1.0') conn.send(v10Surface);
      },
      onAction: (_conn, received) => void seen.actions.push(received),
      onError: (_conn, error) => void seen.errors.push(error),
    };
    const transport = createInMemoryTransport({ agent, offeredVersions });
    const client = new A2uiClient({ transport });
    clients.push(client);
    void client.connect().catch(() => {});
    return { client, seen, connection: await connection };
  }

  it('hands the agent a v1.0 action with its userMessage, and a v1.0 error, end to end', async () => {
    const { client, seen } = await connect(undefined);
    await client.until(() => client.processor.getSurface('s') !== undefined);
    await client.dispatchAction('s', 'root');
    expect(seen.actions).toEqual([
      { ...action, timestamp: expect.any(String), userMessage: 'Book the table' },
    ]);
    await client.send({
      version: 'v1.0',
      error: { code: 'UNALLOWED_CHILD', surfaceId: 's', path: '/components/1', message: 'No.' },
    } as unknown as ClientMessage);
    expect(seen.errors).toEqual([
      { code: 'UNALLOWED_CHILD', surfaceId: 's', path: '/components/1', message: 'No.' },
    ]);
    // v0.9's shape is still read from a v1.0 client.
    await client.send({ version: 'v0.9', action: { ...action, timestamp: stamp } });
    expect(seen.actions).toHaveLength(2);
  });

  it('refuses a v1.0 action on a v0.9 connection with NOT_SUPPORTED; the agent never sees it', async () => {
    const { client, seen } = await connect(['v0.9']);
    const refused = await client
      .send({ version: 'v1.0', action: { ...action, userMessage: 'hi' } } as never)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(A2uiError.isInstance(refused) && refused.code).toBe('NOT_SUPPORTED');
    expect(seen.actions).toEqual([]);
    await client.send({ version: 'v0.9', action });
    expect(seen.actions).toHaveLength(1);
  });

  it('checks v1.0 fields: userMessage, metadata.extensions, and the path errors', () => {
    const check = (message: unknown) => checkInboundMessage(message).map((issue) => issue.path);
    expect(check({ version: 'v1.0', action: { ...action, userMessage: 3 } })).toEqual([
      '/action/userMessage',
    ]);
    expect(
      check({ version: 'v1.0', action: { ...action, metadata: { extensions: { a2ui_x: 1 } } } }),
    ).toEqual(['/action/metadata/extensions/a2ui_x']);
    expect(check({ version: 'v1.0', action: { ...action, metadata: { other: 1 } } })).toEqual([
      '/action/metadata/other',
    ]);
    expect(
      check({ version: 'v1.0', error: { code: 'UNALLOWED_PARENT', surfaceId: 's', message: 'm' } }),
    ).toEqual(['/error/path']);
    expect(check({ version: 'v1.0', error: { code: 'X', message: 'm' } })).toEqual([
      '/error/surfaceId',
    ]);
    expect(check({ version: 'v1.0', action: { ...action, timestamp: 'yesterday' } })).toEqual([
      '/action/timestamp',
    ]);
    expect(
      check({
        version: '1.0',
        action: { ...action, userMessage: 'ok', metadata: { extensions: { tracking: 1 } } },
      }),
    ).toEqual([]);
  });
});
