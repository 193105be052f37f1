import { A2uiClient, BASIC_CATALOG_ID, createInMemoryTransport } from '@a2ui-ts/core';
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
