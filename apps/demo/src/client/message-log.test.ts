import {
  A2uiClient,
  BASIC_CATALOG_ID,
  type ClientTransport,
  createInMemoryTransport,
  defaultProtocolVersions,
  V1_0_BASIC_CATALOG_ID,
} from '@a2ui-ts/core';
import { describe, expect, it } from 'vitest';
import { MAX_LOG_ENTRIES, MessageLog } from './message-log.js';

const createSurface = (surfaceId: string) => ({
  version: 'v0.9' as const,
  createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID },
});
const update = (surfaceId: string, value: number) => ({
  version: 'v0.9' as const,
  updateDataModel: { surfaceId, path: '/n', value },
});

describe('MessageLog counts', () => {
  it('counts each message of a batch (REST answers a turn with one batch)', () => {
    const client = new A2uiClient({});
    const log = new MessageLog(client);
    client.process([createSurface('s'), update('s', 1), update('s', 2)]);
    client.process(update('s', 3));
    expect(log.getSnapshot().filter((entry) => entry.direction === 'in')).toHaveLength(2);
    expect(log.receivedCount).toBe(4);
    expect(log.transcriptSize.messages).toBe(4);
  });

  it(`keeps counting after the first ${MAX_LOG_ENTRIES} entries are dropped`, () => {
    const client = new A2uiClient({});
    const log = new MessageLog(client);
    client.process(createSurface('s'));
    for (let n = 0; n < MAX_LOG_ENTRIES + 200; n++) client.process(update('s', n));
    expect(log.getSnapshot()).toHaveLength(MAX_LOG_ENTRIES);
    expect(log.receivedCount).toBe(MAX_LOG_ENTRIES + 201);
  });

  it('counts sent messages', async () => {
    const client = new A2uiClient({
      transport: createInMemoryTransport({
        agent: { onConnect: (connection) => connection.send(createSurface('s')) },
      }),
    });
    const log = new MessageLog(client);
    const done = client.connect();
    await client.until(() => client.processor.getSurface('s') !== undefined);
    const action = {
      version: 'v0.9' as const,
      action: {
        name: 'go',
        surfaceId: 's',
        sourceComponentId: 'root',
        timestamp: new Date(0).toISOString(),
        context: {},
      },
    };
    await client.send(action);
    await client.send(action);
    expect(log.sentCount).toBe(2);
    await client.close();
    await done;
  });

  it('clear() forgets entries and counters, keeps the transcript, and keeps recording', () => {
    const client = new A2uiClient({});
    const log = new MessageLog(client);
    let notified = 0;
    log.subscribe(() => notified++);
    client.process([createSurface('s'), update('s', 1)]);
    log.clear();
    expect(notified).toBe(2);
    expect(log.getSnapshot()).toEqual([]);
    expect([log.receivedCount, log.sentCount, log.errorCount]).toEqual([0, 0, 0]);
    expect(log.transcriptSize.messages).toBe(2);
    client.process(update('s', 2));
    expect(log.getSnapshot()).toHaveLength(1);
    expect(log.receivedCount).toBe(1);
  });
});

/** A v0.8 agent's stream: no `version`, v0.8's own message kinds. */
const v08Stream = [
  { beginRendering: { surfaceId: 'old', root: 'go' } },
  { dataModelUpdate: { surfaceId: 'old', contents: [{ key: 'who', valueString: 'Ann' }] } },
  {
    surfaceUpdate: {
      surfaceId: 'old',
      components: [
        {
          id: 'go',
          component: { Button: { child: 'label', action: { name: 'greet', context: [] } } },
        },
        { id: 'label', component: { Text: { text: { literalString: 'Hi' } } } },
      ],
    },
  },
];

const kindsOf = (log: MessageLog, direction: 'in' | 'out') =>
  log
    .getSnapshot()
    .filter((entry) => entry.direction === direction)
    .map((entry) => [entry.kind, entry.surfaceId]);

describe('MessageLog kinds', () => {
  it('names the messages of every version core speaks, with their surface id', async () => {
    // A transport that carries every version's client messages, so the action leaves as v0.8's.
    const transport: ClientTransport = {
      clientMessageVersions: defaultProtocolVersions.names,
      async *events() {},
      async send() {},
      async close() {},
    };
    const client = new A2uiClient({ transport });
    const log = new MessageLog(client);
    for (const message of v08Stream) client.process(message);
    expect(await client.dispatchAction('old', 'go')).toBe(true);
    client.process({ deleteSurface: { surfaceId: 'old' } });
    client.process({
      version: 'v1.0',
      createSurface: { surfaceId: 'new', catalogId: V1_0_BASIC_CATALOG_ID },
    });
    client.process({
      version: 'v1.0',
      updateDataModel: { surfaceId: 'new', path: '/n', value: 1 },
    });
    client.process({
      version: 'v1.0',
      callRendererFunction: { functionCallId: 'f1', callFunction: { call: 'now', catalogId: 'x' } },
    });
    client.process(createSurface('mid'));
    // Every message applied: these are the kinds of valid messages, not of refused ones.
    expect(log.getSnapshot().flatMap((entry) => entry.errors)).toEqual([]);
    expect(kindsOf(log, 'in')).toEqual([
      ['beginRendering', 'old'],
      ['dataModelUpdate', 'old'],
      ['surfaceUpdate', 'old'],
      ['deleteSurface', 'old'],
      ['createSurface', 'new'],
      ['updateDataModel', 'new'],
      ['callRendererFunction', undefined],
      ['createSurface', 'mid'],
    ]);
    expect(kindsOf(log, 'out')).toEqual([['userAction', 'old']]);
    await client.close();
  });
});
