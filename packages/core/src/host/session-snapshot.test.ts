/**
 * Snapshot instead of reset (docs/session-host.md): a client the replay log no longer covers gets
 * the session's surfaces on the same connection — through `connect`, `read` and `follow`, on the
 * owner and on another node — and a session whose surfaces cannot be kept resets as before.
 */
import { describe, expect, it } from 'vitest';
import type { Connection } from '../agent/agent.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ServerMessage } from '../protocol/messages.js';
import { createMemoryCluster } from '../testing/memory-cluster.js';
import { readSessionSnapshot } from '../transport/session-snapshot.js';
import type { LinkOpenInfo } from './connection-session.js';
import type { ReplayEntry } from './replay-log.js';
import { createSessionHost, type SessionHostOptions } from './session-host.js';
import type { SessionRouter } from './session-router.js';
import { SurfaceCompactor } from './surface-compactor.js';

const create: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
};
const text = (value: string): ServerMessage => ({
  version: 'v0.9',
  updateComponents: {
    surfaceId: 's',
    components: [{ id: 'root', component: 'Text', text: value }],
  },
});
const put = (path: string, value?: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path, ...(value === undefined ? {} : { value }) },
});

/** A host whose agent is reachable, with a connection whose link dropped. */
async function opened(options: Partial<SessionHostOptions> = {}) {
  let connection: Connection | undefined;
  let connects = 0;
  const host = createSessionHost({
    agent: {
      onConnect: (opened) => {
        connects++;
        connection = opened;
      },
    },
    replayBuffer: { maxEvents: 3 },
    ...options,
  });
  const link = await host.connect({ principal: 'p', sink: { deliver() {}, close() {} } });
  await expect.poll(() => connection).toBeDefined();
  link.detach();
  return { host, connectionId: link.connectionId, agent: connection!, connects: () => connects };
}

const sinkOf = (entries: ReplayEntry[], infos: LinkOpenInfo[]) => ({
  open: (info: LinkOpenInfo) => infos.push(info),
  deliver: (entry: ReplayEntry) => entries.push(entry),
  close() {},
});

describe('snapshot instead of reset', () => {
  it('resumes a link behind the log with one snapshot entry of the current surfaces, then live messages', async () => {
    const { host, connectionId, agent, connects } = await opened();
    agent.send([create, text('old'), put('/a', 1), put('/b', 2), text('new'), put('/b')]);
    const entries: ReplayEntry[] = [];
    const infos: LinkOpenInfo[] = [];
    const link = await host.connect({
      principal: 'p',
      connectionId,
      lastSeq: 1,
      sink: sinkOf(entries, infos),
    });
    agent.send(put('/live', true));
    expect(link).toMatchObject({ connectionId, resumed: true, replayed: 1 });
    expect(infos).toEqual([{ connectionId, resumed: true, replayed: 1, snapshot: true }]);
    expect(entries.map((entry) => entry.seq)).toEqual([6, 7]);
    expect(readSessionSnapshot(entries[0]!.data)).toEqual({
      throughSeq: 6,
      messages: [
        create,
        text('new'),
        { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/', value: { a: 1 } } },
      ],
    });
    expect(connects()).toBe(1);
    await host.close();
  });

  it('answers a read and a follow behind the log with the snapshot', async () => {
    const { host, connectionId, agent } = await opened();
    agent.send([create, text('x'), put('/a', 1), put('/a', 2)]);
    const read = await host.read(connectionId, { principal: 'p', afterSeq: 0 });
    expect(
      read.ok && read.entries.map((entry) => readSessionSnapshot(entry.data)?.throughSeq),
    ).toEqual([4]);
    const follow = await host.follow(connectionId, { principal: 'p', afterSeq: 0 });
    expect(follow.take().map((entry) => entry.seq)).toEqual([4]);
    follow.stop();
    await host.close();
  });

  it('resets as before with snapshots: false, after a v0.8 message, and above the byte bound', async () => {
    for (const [options, messages] of [
      [{ snapshots: false }, [create, put('/a', 1), put('/a', 2), put('/a', 3)]],
      [
        {},
        [create, { beginRendering: { surfaceId: 'old', root: 'r' } }, put('/a', 2), put('/a', 3)],
      ],
      [
        { replayBuffer: { maxEvents: 3, maxBytes: 400 } },
        [create, put('/big', 'x'.repeat(500)), put('/a', 2), put('/a', 3)],
      ],
    ] as const) {
      const { host, connectionId, agent, connects } = await opened(options);
      agent.send([...messages] as never);
      const infos: LinkOpenInfo[] = [];
      await host.connect({ principal: 'p', connectionId, lastSeq: 0, sink: sinkOf([], infos) });
      expect(infos[0]).toMatchObject({ resumed: false, reset: 'replay-gap' });
      await expect.poll(connects).toBe(2);
      await host.close();
    }
  });

  it('serves the snapshot on a node that does not run the connection, asked of its owner', async () => {
    const cluster = createMemoryCluster();
    let connection: Connection | undefined;
    let connects = 0;
    const agent = {
      onConnect: (opened: Connection) => {
        connects++;
        connection = opened;
      },
    };
    const shared = { agent, registry: cluster.registry, createReplayLog: cluster.createReplayLog };
    const a = createSessionHost({ ...shared, router: cluster.router('a') });
    const b = createSessionHost({ ...shared, router: cluster.router('b') });
    const link = await a.connect({ principal: 'p', sink: { deliver() {}, close() {} } });
    await expect.poll(() => connection).toBeDefined();
    link.detach();
    connection!.send([create, text('x'), put('/n', 7)]);
    // The client acknowledged everything: the shared log keeps nothing a page reloaded from 0 needs.
    await a.acknowledge(link.connectionId, { principal: 'p', seq: 3 });
    const read = await b.read(link.connectionId, { principal: 'p', afterSeq: 0 });
    expect(read.ok && readSessionSnapshot(read.entries[0]!.data)?.throughSeq).toBe(3);
    const entries: ReplayEntry[] = [];
    const infos: LinkOpenInfo[] = [];
    await b.connect({
      principal: 'p',
      connectionId: link.connectionId,
      lastSeq: 0,
      sink: sinkOf(entries, infos),
    });
    expect(infos[0]).toMatchObject({ resumed: true, snapshot: true });
    expect(readSessionSnapshot(entries[0]!.data)?.messages).toHaveLength(3);
    expect(connects).toBe(1);
    await b.close();
    await a.close();
  });
  it('resets a client on another node when the owner does not answer the snapshot request in time, instead of waiting', async () => {
    const cluster = createMemoryCluster();
    let connection: Connection | undefined;
    let connects = 0;
    const agent = {
      onConnect: (opened: Connection) => {
        connects++;
        connection = opened;
      },
    };
    // The owner is stalled for snapshots only (a paused process, a lost answer): it never answers.
    const ownerRouter = cluster.router('a');
    const stalled: SessionRouter = {
      ...ownerRouter,
      listen: (handler) =>
        ownerRouter.listen((request, options) =>
          request.type === 'snapshot' ? new Promise(() => {}) : handler(request, options),
        ),
    };
    const shared = {
      agent,
      registry: cluster.registry,
      createReplayLog: cluster.createReplayLog,
      routeTimeoutMs: 200,
    };
    const a = createSessionHost({ ...shared, router: stalled });
    const b = createSessionHost({ ...shared, router: cluster.router('b') });
    const link = await a.connect({ principal: 'p', sink: { deliver() {}, close() {} } });
    await expect.poll(() => connection).toBeDefined();
    link.detach();
    connection!.send([create, text('x'), put('/n', 7)]);
    await a.acknowledge(link.connectionId, { principal: 'p', seq: 3 });
    expect(await b.read(link.connectionId, { principal: 'p', afterSeq: 0 })).toMatchObject({
      ok: false,
    });
    const infos: LinkOpenInfo[] = [];
    await b.connect({
      principal: 'p',
      connectionId: link.connectionId,
      lastSeq: 0,
      sink: sinkOf([], infos),
    });
    expect(infos[0]).toMatchObject({ resumed: false, reset: 'replay-gap' });
    await expect.poll(() => connects).toBe(2);
    await b.close();
    await a.close();
  });
});

describe('SurfaceCompactor', () => {
  it('keeps v1.0 surfaces in their version, inline, and forgets deleted ones', () => {
    const compactor = new SurfaceCompactor({ maxBytes: 10_000 });
    const note = (message: unknown) => compactor.note(message, JSON.stringify(message).length);
    note({
      version: 'v1.0',
      createSurface: { surfaceId: 'one', catalogId: 'c', dataModel: { x: 1 } },
    });
    note({ version: 'v1.0', updateDataModel: { surfaceId: 'one', path: '/x', value: null } });
    note({
      version: 'v1.0',
      updateComponents: {
        surfaceId: 'one',
        components: [{ id: 'root', component: 'Text', text: 'a' }],
      },
    });
    note({ version: 'v0.9', createSurface: { surfaceId: 'two', catalogId: 'c' } });
    note({ version: 'v0.9', deleteSurface: { surfaceId: 'two' } });
    expect(compactor.snapshot()).toEqual([
      {
        version: 'v1.0',
        createSurface: {
          surfaceId: 'one',
          catalogId: 'c',
          components: [{ id: 'root', component: 'Text', text: 'a' }],
        },
      },
    ]);
  });
});
