import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ServerMessage } from '../protocol/messages.js';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';
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
