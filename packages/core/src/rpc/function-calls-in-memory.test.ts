import { afterEach, describe, expect, it } from 'vitest';
import type { A2uiAgent, Connection } from '../agent/agent.js';
import { negotiatedVersion } from '../agent/negotiated-version.js';
import { createCatalog } from '../catalog/catalog.js';
import { CatalogRegistry } from '../catalog/catalog-registry.js';
import { basicCatalog } from '../catalog/default-catalogs.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';
import type { RendererFunction } from './renderer-functions.js';

const V10_CATALOG_ID = 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A client over the in-memory transport; resolves with the agent's connection once it opened. */
async function connect(agent: A2uiAgent, rendererFunctions: RendererFunction[] = []) {
  let opened!: (connection: Connection) => void;
  const connection = new Promise<Connection>((resolve) => {
    opened = resolve;
  });
  const onConnect = agent.onConnect;
  const transport = createInMemoryTransport({
    agent: {
      ...agent,
      async onConnect(conn) {
        opened(conn);
        await onConnect?.(conn);
      },
    },
  });
  const client = new A2uiClient({ transport, rendererFunctions });
  clients.push(client);
  void client.connect().catch(() => {});
  return { client, connection: await connection };
}

const failure = async (promise: Promise<unknown>): Promise<A2uiError> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!A2uiError.isInstance(error)) throw new Error(`expected an A2uiError, got ${String(error)}`);
  return error;
};

describe('agent → renderer: connection.callRendererFunction', () => {
  it('runs the renderer function and resolves with its value', async () => {
    const { connection } = await connect({}, [
      {
        name: 'getScreenResolution',
        allowedCallers: 'agentOnly',
        implementation: ({ screenIndex }) => [1920 + Number(screenIndex), 1080],
      },
    ]);
    await expect(
      connection.callRendererFunction(
        'getScreenResolution',
        { screenIndex: 0 },
        { catalogId: BASIC_CATALOG_ID },
      ),
    ).resolves.toEqual([1920, 1080]);
  });

  it('rejects with FUNCTION_CALL_FAILED / INVALID_FUNCTION_CALL for rendererOnly and unknown functions', async () => {
    const { connection } = await connect({}, [
      { name: 'localValidator', allowedCallers: 'rendererOnly', implementation: () => true },
    ]);
    for (const name of ['localValidator', 'missing']) {
      const error = await failure(
        connection.callRendererFunction(name, {}, { catalogId: BASIC_CATALOG_ID }),
      );
      expect(error.code).toBe('FUNCTION_CALL_FAILED');
      expect(error.data?.code).toBe('INVALID_FUNCTION_CALL');
    }
  });

  it('allows an activation-gated function right after a user gesture only', async () => {
    const opened: string[] = [];
    const { client, connection } = await connect({}, [
      {
        name: 'openUrl',
        allowedCallers: 'rendererOrAgent',
        requiresUserActivation: true,
        implementation: ({ url }) => {
          opened.push(String(url));
        },
      },
    ]);
    const args = { url: 'https://example.com' };
    const denied = await failure(
      connection.callRendererFunction('openUrl', args, { catalogId: BASIC_CATALOG_ID }),
    );
    expect(denied.data?.message).toBe(
      "Function 'openUrl' requires user activation context to execute.",
    );
    client.noteUserActivation();
    await expect(
      connection.callRendererFunction('openUrl', args, { catalogId: BASIC_CATALOG_ID }),
    ).resolves.toBeNull();
    expect(opened).toEqual(['https://example.com']);
  });

  it('stops waiting on abort and on timeout; the late answer is dropped', async () => {
    let release!: () => void;
    const { connection } = await connect({}, [
      {
        name: 'slow',
        allowedCallers: 'agentOnly',
        implementation: () =>
          new Promise<string>((resolve) => {
            release = () => resolve('late');
          }),
      },
    ]);
    const abort = new AbortController();
    const aborted = connection.callRendererFunction(
      'slow',
      {},
      {
        catalogId: BASIC_CATALOG_ID,
        signal: abort.signal,
      },
    );
    abort.abort();
    expect((await failure(aborted)).code).toBe('ABORTED');
    const timedOut = await failure(
      connection.callRendererFunction('slow', {}, { catalogId: BASIC_CATALOG_ID, timeoutMs: 1 }),
    );
    expect(timedOut.code).toBe('TIMEOUT');
    release();
    // The connection still works after the dropped answers.
    await expect(
      connection.callRendererFunction('missing', {}, { catalogId: BASIC_CATALOG_ID }),
    ).rejects.toThrow(/INVALID_FUNCTION_CALL/);
  });
});

describe('renderer → agent: client.callAgentFunction', () => {
  const agent: A2uiAgent = {
    functions: [
      {
        name: 'queryInventory',
        parameters: {
          type: 'object',
          properties: { sku: { type: 'string' } },
          required: ['sku'],
        },
        handler: ({ sku }, { surfaceId }) => ({ sku, inStock: 12, surfaceId }),
      },
    ],
  };

  it('resolves with the agent function’s value', async () => {
    const { client } = await connect(agent);
    await expect(
      client.callAgentFunction('main_surface', {
        call: 'queryInventory',
        args: { sku: 'ITEM-404' },
      }),
    ).resolves.toEqual({ sku: 'ITEM-404', inStock: 12, surfaceId: 'main_surface' });
  });

  it('rejects with the agent’s code: UNKNOWN_FUNCTION, INVALID_FUNCTION_CALL', async () => {
    const { client } = await connect(agent);
    const unknown = await failure(client.callAgentFunction('s', { call: 'nope' }));
    expect(unknown.data?.code).toBe('UNKNOWN_FUNCTION');
    const invalid = await failure(
      client.callAgentFunction('s', { call: 'queryInventory', args: {} }),
    );
    expect(invalid.data?.code).toBe('INVALID_FUNCTION_CALL');
  });

  it('fails pending calls when the client closes', async () => {
    const { client } = await connect({
      functions: [{ name: 'forever', handler: () => new Promise(() => {}) }],
    });
    const pending = client.callAgentFunction('s', { call: 'forever' });
    await client.close();
    expect((await failure(pending)).code).toBe('CONNECTION_CLOSED');
  });
});

describe('capabilities over the wire', () => {
  it('advertises v0.9 and v1.0 catalogs under both metadata keys, and the agent negotiates v1.0', async () => {
    let negotiated: unknown;
    const transport = createInMemoryTransport({
      agent: {
        onAction(connection) {
          negotiated = negotiatedVersion(connection, {
            'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] },
            'v1.0': { supportedCatalogIds: [V10_CATALOG_ID] },
          });
        },
      },
    });
    const catalogs = new CatalogRegistry([
      basicCatalog,
      createCatalog({ catalogId: V10_CATALOG_ID, protocolVersion: '1.0', components: ['Text'] }),
    ]);
    const client = new A2uiClient({ transport, catalogs });
    clients.push(client);
    const metadata = client.getMetadata();
    expect(metadata.a2uiClientCapabilities['v0.9'].supportedCatalogIds).toEqual([BASIC_CATALOG_ID]);
    expect(metadata.a2uiRendererCapabilities).toEqual({
      'v1.0': { supportedCatalogIds: [V10_CATALOG_ID] },
    });
    void client.connect().catch(() => {});
    await client.send({
      version: 'v0.9',
      action: {
        name: 'go',
        surfaceId: 's',
        sourceComponentId: 'b',
        timestamp: new Date().toISOString(),
        context: {},
      },
    });
    expect(negotiated).toEqual({ version: 'v1.0', catalogIds: [V10_CATALOG_ID] });
  });
});
