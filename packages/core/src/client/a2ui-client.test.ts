import { describe, expect, it } from 'vitest';
import type { A2uiAgent } from '../agent/agent.js';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import type {
  ActionEvent,
  ClientDataModel,
  ClientError,
  ClientMessageMetadata,
  ServerMessage,
} from '../protocol/messages.js';
import { createDeferred } from '../testing/wait-for.js';
import { createInMemoryTransport } from '../transport/in-memory-transport.js';
import { A2uiClient } from './a2ui-client.js';

interface Inbound {
  action?: ActionEvent;
  error?: ClientError;
  metadata: ClientMessageMetadata | undefined;
}

function setup(
  messages: ServerMessage[],
  options: ConstructorParameters<typeof A2uiClient>[0] = {},
  validateOutgoing = true,
  offeredVersions?: readonly string[],
) {
  const inbound: Inbound[] = [];
  /** `connection.clientDataModel` as the agent saw it at each action. */
  const dataModels: ClientDataModel[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  const push = (entry: Inbound) => {
    inbound.push(entry);
    if (waiter && inbound.length >= waiter.count) waiter.resolve();
  };
  const connected = createDeferred();
  const agent: A2uiAgent = {
    onConnect(connection) {
      connection.send(messages);
      connected.resolve();
    },
    onAction: (connection, action, metadata) => {
      if (connection.clientDataModel) dataModels.push(connection.clientDataModel);
      push({ action, metadata });
    },
    onError: (_c, error, metadata) => push({ error, metadata }),
  };
  // Tests of the client's error reporting need an agent that sends invalid messages on purpose.
  const transport = createInMemoryTransport({
    agent,
    ...(validateOutgoing ? {} : { validateOutgoing: false }),
    ...(offeredVersions ? { offeredVersions } : {}),
  });
  const client = new A2uiClient({ transport, ...options });
  let received = 0;
  const applied = new Promise<void>((resolve) => {
    const off = client.subscribe((event) => {
      if (event.type !== 'received') return;
      received += event.result.applied + event.result.errors.length;
      if (received >= messages.length) {
        off();
        resolve();
      }
    });
  });
  void client.connect();
  const inboundCount = (count: number) =>
    new Promise<void>((resolve) => {
      if (inbound.length >= count) resolve();
      else waiter = { count, resolve };
    });
  return {
    client,
    inbound,
    ready: Promise.all([connected.promise, applied]),
    inboundCount,
    dataModels,
  };
}

const form = (sendDataModel: boolean): ServerMessage[] => [
  {
    version: 'v0.9',
    createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID, sendDataModel },
  },
  { version: 'v0.9', createSurface: { surfaceId: 'other', catalogId: MINIMAL_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'form',
      components: [
        { id: 'root', component: 'List', children: { componentId: 'row', path: '/items' } },
        {
          id: 'row',
          component: 'Button',
          child: 'label',
          action: {
            event: {
              name: 'pick',
              context: {
                name: { path: 'name' },
                all: { path: '/items' },
                label: { call: 'formatString', args: { value: 'Item ${name}' } },
                n: 7,
              },
            },
          },
        },
        { id: 'label', component: 'Text', text: { path: 'name' } },
        {
          id: 'guarded',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'guarded' } },
          checks: [
            {
              condition: { call: 'required', args: { value: { path: '/email' } } },
              message: 'Email is required',
            },
          ],
        },
        {
          id: 'link',
          component: 'Button',
          child: 'label',
          action: { functionCall: { call: 'openUrl', args: { url: 'javascript:alert(1)' } } },
        },
      ],
    },
  },
  {
    version: 'v0.9',
    updateDataModel: { surfaceId: 'form', path: '/items', value: [{ name: 'a' }, { name: 'b' }] },
  },
];

describe('A2uiClient actions (spec §3.1, §8.5)', () => {
  it('resolves the context in the template item scope at event time and stamps a timestamp', async () => {
    const { client, inbound, ready, inboundCount } = setup(form(false));
    await ready;
    const before = Date.now();
    await client.dispatchAction('form', 'row', { scope: '/items/1' });
    await inboundCount(1);
    const action = inbound[0]!.action!;
    expect(action).toMatchObject({ name: 'pick', surfaceId: 'form', sourceComponentId: 'row' });
    expect(action.context).toEqual({
      name: 'b',
      all: [{ name: 'a' }, { name: 'b' }],
      label: 'Item b',
      n: 7,
    });
    expect(Date.parse(action.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(action.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    await client.close();
  });

  it('refuses an action while a check of its button fails, and sends it once valid', async () => {
    const { client, inbound, ready, inboundCount } = setup(form(false));
    await ready;
    expect(await client.dispatchAction('form', 'guarded')).toBe(false);
    client.processor.getSurface('form')!.dataModel.set('/email', 'a@b.c');
    expect(await client.dispatchAction('form', 'guarded')).toBe(true);
    await inboundCount(1);
    expect(inbound.map((entry) => entry.action?.name)).toEqual(['guarded']);
    await client.close();
  });

  it('runs functionCall actions locally through the URL policy and sends nothing', async () => {
    const opened: string[] = [];
    const { client, inbound, ready } = setup(form(false), { openUrl: (url) => opened.push(url) });
    await ready;
    await client.dispatchAction('form', 'link');
    await client.dispatchAction('form', 'link', {
      action: { functionCall: { call: 'openUrl', args: { url: 'https://a2ui.org/help' } } },
    });
    expect(opened).toEqual(['https://a2ui.org/help']);
    expect(inbound.filter((entry) => entry.action)).toEqual([]);
    await client.close();
  });
});

describe('A2uiClient metadata (digest §4)', () => {
  it('attaches a2uiClientCapabilities to every message, keyed by version, in preference order', async () => {
    const { client, inbound, ready, inboundCount } = setup(form(false));
    await ready;
    await client.dispatchAction('form', 'row', { scope: '/items/0' });
    await client.send({
      version: 'v0.9',
      error: { code: 'CUSTOM', surfaceId: 'form', message: 'm' },
    });
    await inboundCount(2);
    for (const entry of inbound) {
      expect(entry.metadata?.a2uiClientCapabilities).toEqual({
        'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID, MINIMAL_CATALOG_ID] },
      });
      expect(entry.metadata).not.toHaveProperty('a2uiClientDataModel');
    }
    expect(inbound[0]!.action).not.toHaveProperty('a2uiClientCapabilities');
    await client.close();
  });

  it("attaches the data model of the sendDataModel surfaces only, under v1.0's a2uiRendererDataModel on a v1.0 link, and the agent reads it", async () => {
    const { client, inbound, ready, inboundCount, dataModels } = setup(form(true));
    await ready;
    client.processor.getSurface('form')!.dataModel.set('/email', 'typed@x.y');
    await client.dispatchAction('form', 'row', { scope: '/items/0' });
    await inboundCount(1);
    const surfaces = { form: { items: [{ name: 'a' }, { name: 'b' }], email: 'typed@x.y' } };
    expect(inbound[0]!.metadata?.a2uiRendererDataModel).toEqual({ version: 'v1.0', surfaces });
    expect(inbound[0]!.metadata).not.toHaveProperty('a2uiClientDataModel');
    // The host reads either name into the connection's data model.
    expect(dataModels).toEqual([{ version: 'v0.9', surfaces }]);
    await client.close();
  });

  it('attaches the older a2uiClientDataModel on a v0.9 link', async () => {
    const { client, inbound, ready, inboundCount, dataModels } = setup(form(true), {}, true, [
      'v0.9',
    ]);
    await ready;
    await client.dispatchAction('form', 'row', { scope: '/items/0' });
    await inboundCount(1);
    const surfaces = { form: { items: [{ name: 'a' }, { name: 'b' }], email: '' } };
    expect(inbound[0]!.metadata?.a2uiClientDataModel).toMatchObject({ version: 'v0.9' });
    expect(inbound[0]!.metadata).not.toHaveProperty('a2uiRendererDataModel');
    expect(dataModels).toHaveLength(1);
    expect(Object.keys(surfaces)).toEqual(Object.keys(dataModels[0]!.surfaces));
    await client.close();
  });

  it('includes inline catalogs only when asked', () => {
    const client = new A2uiClient({ includeInlineCatalogs: true });
    const inline = client.getMetadata().a2uiClientCapabilities['v0.9'].inlineCatalogs!;
    expect(inline.map((catalog) => catalog.catalogId)).toEqual([
      BASIC_CATALOG_ID,
      MINIMAL_CATALOG_ID,
    ]);
    const basic = inline[0]!;
    expect(Object.keys(basic.components!)).toHaveLength(18);
    expect(basic.functions!.map((fn) => fn.name)).toContain('formatCurrency');
    expect(basic.functions!.find((fn) => fn.name === 'formatCurrency')!.returnType).toBe('string');
  });
});

describe('A2uiClient error reporting', () => {
  it('reports validation errors to the agent once, with the spec error shape', async () => {
    const bad: ServerMessage[] = [
      { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'root', component: 'Text', text: 5 }],
        },
      },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'root', component: 'Text', text: 5 }],
        },
      },
    ];
    const { client, inbound, ready, inboundCount } = setup(bad, {}, false);
    await ready;
    await inboundCount(1);
    await client.send({
      version: 'v0.9',
      error: { code: 'MARKER', surfaceId: 's', message: 'end' },
    });
    await inboundCount(2);
    expect(inbound.map((entry) => entry.error)).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/0/text',
        message: expect.any(String),
      },
      { code: 'MARKER', surfaceId: 's', message: 'end' },
    ]);
    await client.close();
  });

  it('reports an unknown function as EXPRESSION_ERROR and evaluates it to undefined', async () => {
    const { client, inbound, ready, inboundCount } = setup(form(false));
    await ready;
    const context = client.getDataContext('form');
    expect(context.evaluate({ call: 'noSuchFunction', args: {} })).toBeUndefined();
    expect(context.evaluate({ call: 'noSuchFunction', args: {} })).toBeUndefined();
    await inboundCount(1);
    expect(inbound[0]!.error).toMatchObject({
      code: 'EXPRESSION_ERROR',
      surfaceId: 'form',
      message: expect.stringContaining('noSuchFunction'),
    });
    await client.close();
  });
});

describe('A2uiClient.until', () => {
  it('resolves when the awaited state arrives, without polling', async () => {
    const { client } = setup(form(false));
    await client.until(() => client.processor.getSurface('form')?.components.has('row') ?? false);
    expect(client.processor.getSurface('form')!.components.get('row')!.type).toBe('Button');
    await client.close();
  });

  it('rejects with ABORTED when the signal aborts, and CONNECTION_CLOSED when the link ends', async () => {
    const { client, ready } = setup(form(false));
    await ready;
    const abort = new AbortController();
    const aborted = client.until(() => false, { signal: abort.signal });
    abort.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    const closed = client.until(() => false);
    await client.close();
    await expect(closed).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });
});
