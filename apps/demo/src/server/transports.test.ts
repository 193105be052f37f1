import { migrateMessages, type ServerMessage } from '@a2ui-ts/core';
import { ConnectionSession } from '@a2ui-ts/core/host';
import { describe, expect, it } from 'vitest';
import { loadExampleStreams } from '../agents/example-streams.js';
import { validateOutgoingMessage } from './transports.js';

const session = () =>
  new ConnectionSession({ agent: {}, validateOutgoing: validateOutgoingMessage });

describe('validateOutgoingMessage', () => {
  // The gallery streams every basic example in v1.0 through this validator.
  it.each(
    loadExampleStreams()
      .filter((example) => example.catalog === 'basic')
      .map((example) => [example.file, example.messages] as const),
  )('passes the official %s as a2ui migrate --to v1.0 writes it', (_file, messages) => {
    const connection = session();
    const migrated = migrateMessages(messages, { to: 'v1.0' })
      .messages as unknown as ServerMessage[];
    connection.send(migrated);
    expect(connection.lastSeq).toBe(migrated.length);
    connection.close();
  });

  it('refuses a v1.0 component the v1.0 basic catalog forbids, and an unknown v0.9 catalog', () => {
    const connection = session();
    const [create] = migrateMessages(
      [
        {
          version: 'v0.9',
          createSurface: {
            surfaceId: 's',
            catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
          },
        },
      ],
      { to: 'v1.0' },
    ).messages as unknown as ServerMessage[];
    connection.send(create!);
    const heading = {
      version: 'v1.0',
      updateComponents: {
        surfaceId: 's',
        components: [{ id: 'root', component: 'Text', text: 'Hi', variant: 'h1' }],
      },
    } as unknown as ServerMessage;
    expect(() => connection.send(heading)).toThrowError(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        path: '/updateComponents/components/0/variant',
      }),
    );
    expect(() =>
      connection.send({ version: 'v0.9', createSurface: { surfaceId: 't', catalogId: 'urn:x' } }),
    ).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/createSurface/catalogId' }),
    );
    expect(connection.lastSeq).toBe(1);
    connection.close();
  });
});
