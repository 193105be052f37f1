import { describe, expect, it } from 'vitest';
import type { Connection } from '../agent/agent.js';
import { readSessionSnapshot } from '../transport/session-snapshot.js';
import type { ReplayEntry } from './replay-log.js';
import { createSessionHost } from './session-host.js';

describe('snapshot instead of reset', () => {
  it('debug', async () => {
    let connection: Connection | undefined;
    const host = createSessionHost({
      agent: { onConnect: (c) => { connection = c; } },
      replayBuffer: { maxEvents: 5 },
    });
    const got: ReplayEntry[] = [];
    const first = await host.connect({ principal: undefined, sink: { deliver: (e) => got.push(e), close() {} } });
    await new Promise((r) => setTimeout(r, 10));
    connection!.send({ version: 'v0.9', createSurface: { surfaceId: 'counter', catalogId: 'https://a2ui.org/specification/v0_9/basic_catalog.json' } });
    first.detach();
    for (let i = 0; i < 20; i++) connection!.send({ version: 'v0.9', updateDataModel: { surfaceId: 'counter', path: `/values/${i}`, value: i } });
    const again: ReplayEntry[] = [];
    let info: unknown;
    const link = await host.connect({ principal: undefined, connectionId: first.connectionId, lastSeq: 1, sink: { open: (i) => { info = i; }, deliver: (e) => again.push(e), close() {} } });
    console.log(link, info, again.map((e) => e.data.slice(0, 300)));
    expect(readSessionSnapshot(again[0]!.data)).toBeDefined();
    await host.close();
  });
});
