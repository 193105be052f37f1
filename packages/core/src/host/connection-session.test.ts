import { afterEach, describe, expect, it, vi } from 'vitest';
import type { A2uiAgent } from '../agent/agent.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ActionMessage, ServerMessage } from '../protocol/messages.js';
import { ConnectionSession, type SessionSink } from './connection-session.js';
import { createMemoryReplayLog } from './replay-log.js';

const message = (n: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path: '/n', value: n },
});

const action = (name: string, context: Record<string, unknown> = {}): ActionMessage => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId: 's',
    sourceComponentId: 'b',
    timestamp: '2026-01-01T00:00:00Z',
    context,
  },
});

function sink(extra: Partial<SessionSink> = {}) {
  const delivered: number[] = [];
  const closed: string[] = [];
  const opened: unknown[] = [];
  const value: SessionSink = {
    open: (info) => opened.push(info),
    deliver: (entry) => delivered.push(entry.seq),
    close: (reason) => closed.push(reason),
    ...extra,
  };
  return { sink: value, delivered, closed, opened };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectionSession', () => {
  it('numbers messages from 1, keeps the object beside its text, and replays what a resumed link missed', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    const first = sink();
    await session.attach(first.sink);
    session.send([message(1), message(2)]);
    session.detach(first.sink);
    session.send(message(3));
    const second = sink();
    expect(await session.attach(second.sink, { lastSeq: 2 })).toEqual({ ok: true, replayed: 1 });
    session.send(message(4));
    expect(first.delivered).toEqual([1, 2]);
    expect(second.delivered).toEqual([3, 4]);
    expect(second.opened).toEqual([{ connectionId: session.id, resumed: true, replayed: 1 }]);
    const entries = await session.read(0);
    expect(entries.ok && entries.entries[2]!.message).toEqual(message(3));
    session.close();
  });

  it('refuses to resume across a gap the replay log no longer holds, or past what was sent', async () => {
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {},
      replayLog: createMemoryReplayLog({ maxEvents: 2 }),
    });
    session.send([message(1), message(2), message(3), message(4)]);
    expect(await session.attach(sink().sink, { lastSeq: 1 })).toEqual({ ok: false });
    expect(await session.attach(sink().sink, { lastSeq: 5 })).toEqual({ ok: false });
    expect(await session.attach(sink().sink, { lastSeq: 2 })).toEqual({ ok: true, replayed: 2 });
    session.close();
  });

  it('replaces an attached link with a newer one, closing the old one with reset', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    const first = sink();
    const second = sink();
    await session.attach(first.sink);
    await session.attach(second.sink, { lastSeq: 0 });
    session.send(message(1));
    expect(first.closed).toEqual(['reset']);
    expect(first.delivered).toEqual([]);
    expect(second.delivered).toEqual([1]);
    session.close();
  });

  it('sends nothing of a batch with one bad message', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    const link = sink();
    await session.attach(link.sink);
    expect(() =>
      session.send([message(1), { version: 'v0.8' } as unknown as ServerMessage]),
    ).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(link.delivered).toEqual([]);
    expect(session.lastSeq).toBe(0);
    session.close();
  });

  it('refuses a value nested too deeply for JSON in our error shape, sends nothing, keeps serving', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    const link = sink();
    await session.attach(link.sink);
    let deep: unknown = 'bottom';
    for (let level = 0; level < 50_000; level++) deep = { next: deep };
    const tooDeep = {
      version: 'v0.9',
      updateDataModel: { surfaceId: 's', path: '/deep', value: deep },
    } as ServerMessage;
    expect(() => session.send([message(1), tooDeep])).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', name: 'A2uiError' }),
    );
    expect(link.delivered).toEqual([]);
    session.send(message(2));
    expect(link.delivered).toEqual([1]);
    session.close();
  });

  it('validates outgoing messages against the catalog of their surface', () => {
    const seen: Array<string | undefined> = [];
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {},
      validateOutgoing: (_message, catalogId) => {
        seen.push(catalogId);
        return undefined;
      },
    });
    session.send([
      { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      message(1),
    ]);
    session.send({ version: 'v0.9', deleteSurface: { surfaceId: 's' } });
    session.send(message(2));
    expect(seen).toEqual([BASIC_CATALOG_ID, BASIC_CATALOG_ID, BASIC_CATALOG_ID, undefined]);
    session.close();
  });

  it('hands client messages to the agent in order and delivers a repeated request id once', async () => {
    const names: string[] = [];
    const agent: A2uiAgent = {
      async onAction(_connection, event) {
        // An async hook that finishes late must still not be overtaken by the next one.
        await Promise.resolve();
        names.push(event.name);
      },
    };
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent });
    const results = [
      session.receive(action('a'), undefined, { requestId: '1' }),
      session.receive(action('b'), undefined, { requestId: '2' }),
      session.receive(action('a-again'), undefined, { requestId: '1' }),
      session.receive(action('c'), undefined),
    ];
    expect(results.map((result) => result.duplicate)).toEqual([false, false, true, false]);
    // The duplicate answers with the original's turn.
    expect(results[2]!.turn).toBe(results[0]!.turn);
    await Promise.all(results.map((result) => result.turn));
    expect(names).toEqual(['a', 'b', 'c']);
    session.close();
  });

  it('compares request ids by their exact text: two ids that are one number apart are two requests', () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    const first = session.receive(action('a'), undefined, { requestId: '12345678901234567890' });
    const second = session.receive(action('b'), undefined, { requestId: '12345678901234567891' });
    expect([first.duplicate, second.duplicate]).toEqual([false, false]);
    session.close();
  });

  it('bounds remembered request ids by count and by bytes', () => {
    const byCount = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {},
      maxRememberedRequests: 3,
    });
    for (let index = 0; index < 10; index++)
      byCount.receive(action('a'), undefined, { requestId: `id-${index}` });
    expect(byCount.rememberedRequests.count).toBe(3);
    // The oldest were forgotten, the newest are still recognised.
    expect(byCount.receive(action('a'), undefined, { requestId: 'id-9' }).duplicate).toBe(true);
    byCount.close();

    const byBytes = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {},
      maxRememberedRequestBytes: 10_000,
      maxQueuedClientMessages: 1_000,
    });
    for (let index = 0; index < 100; index++)
      byBytes.receive(action('a'), undefined, { requestId: `${index}-${'x'.repeat(1_000)}` });
    expect(byBytes.rememberedRequests.bytes).toBeLessThanOrEqual(10_000);
    expect(byBytes.rememberedRequests.count).toBeLessThan(10);
    byBytes.close();
  });

  it('refuses client messages beyond the queue bounds at once, with a retry hint, and admits again once the agent caught up', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handled: string[] = [];
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {
        async onAction(_connection, event) {
          await gate;
          handled.push(event.name);
        },
      },
      maxQueuedClientMessages: 3,
      maxQueuedClientBytes: 5_000,
      busyRetryAfterMs: 700,
    });
    const accepted = [0, 1, 2].map((index) => session.receive(action(`m${index}`), undefined));
    expect(() => session.receive(action('m3'), undefined)).toThrowError(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', data: { retryAfterMs: 700 } }),
    );
    release();
    await Promise.all(accepted.map((result) => result.turn));
    expect(handled).toEqual(['m0', 'm1', 'm2']);
    // By bytes: one large message is admitted on an empty queue, a second one is not.
    const blocked = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: { onAction: () => new Promise(() => {}) },
      maxQueuedClientBytes: 5_000,
    });
    blocked.receive(action('busy'), undefined);
    blocked.receive(action('big', { blob: 'x'.repeat(4_000) }), undefined, { bytes: 4_100 });
    expect(() =>
      blocked.receive(action('big2', { blob: 'x'.repeat(4_000) }), undefined, { bytes: 4_100 }),
    ).toThrowError(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
    expect(blocked.queued.messages).toBe(2);
    session.close();
    blocked.close();
  });

  it("ends a turn when its hook settles, or at endTurn(); later sends are not the turn's", async () => {
    let finish!: () => void;
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {
        async onAction(connection, event) {
          connection.send(message(1));
          if (event.name === 'early') {
            connection.endTurn();
            await new Promise<void>((resolve) => {
              finish = resolve;
            });
            connection.send(message(3));
          }
        },
      },
    });
    session.send(message(0));
    const plain = session.receive(action('plain'), undefined);
    expect(await plain.turn).toEqual({ startSeq: 1, endSeq: 2, outcome: 'completed' });
    const early = session.receive(action('early'), undefined);
    expect(await early.turn).toEqual({ startSeq: 2, endSeq: 3, outcome: 'completed' });
    finish();
    await session.receive(action('plain'), undefined).turn;
    expect(session.lastSeq).toBe(5);
    session.close();
  });

  it('reports a failing hook as a failed turn and keeps serving', async () => {
    const errors: unknown[] = [];
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {
        onAction(connection, event) {
          connection.send(message(1));
          if (event.name === 'bad') throw new Error('agent bug');
        },
      },
      onAgentError: (error) => errors.push(error),
    });
    expect((await session.receive(action('bad'), undefined).turn).outcome).toBe('failed');
    expect((await session.receive(action('good'), undefined).turn).outcome).toBe('completed');
    expect(errors).toHaveLength(1);
    session.close();
  });

  it('lets a second reader wait for messages (long poll) without disturbing the attached link', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    const link = sink();
    await session.attach(link.sink);
    session.send(message(1));
    const waiting = session.read(1, { waitMs: 60_000 });
    session.send(message(2));
    const result = await waiting;
    expect(result.ok && result.entries.map((entry) => entry.seq)).toEqual([2]);
    expect(link.delivered).toEqual([1, 2]);
    expect(link.closed).toEqual([]);
    expect(await session.read(5)).toEqual({ ok: false, lastSeq: 2 });
    session.close();
  });

  it('trims the log on acknowledgement, so a reader behind it must reset', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    session.send([message(1), message(2), message(3)]);
    await session.acknowledge(2);
    expect(session.replayLog.size()).toEqual(expect.objectContaining({ events: 1 }));
    expect(await session.read(0)).toEqual({ ok: false, lastSeq: 3 });
    const after = await session.read(2);
    expect(after.ok && after.entries.map((entry) => entry.seq)).toEqual([3]);
    session.close();
  });

  it('calls a host tool through a sink that carries tool calls, ends the turn, and continues on the result', async () => {
    const calls: unknown[] = [];
    const results: string[] = [];
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {
        async onAction(connection) {
          connection.send(message(1));
          const result = await connection.callHostTool({ name: 'confirm', args: { q: 'ok?' } });
          results.push(result.content);
          connection.send(message(2));
        },
      },
    });
    await session.attach(sink({ deliverToolCall: (call) => calls.push(call) }).sink);
    const first = session.receive(action('book'), undefined);
    expect(await first.turn).toEqual({ startSeq: 0, endSeq: 1, outcome: 'completed' });
    expect(calls).toEqual([{ id: expect.any(String), name: 'confirm', args: { q: 'ok?' } }]);
    expect(session.pendingToolCalls).toBe(1);
    const toolCallId = (calls[0] as { id: string }).id;
    expect(session.resolveHostToolCall({ toolCallId: 'unknown', content: '' })).toBeUndefined();
    const continuation = session.resolveHostToolCall({ toolCallId, content: 'yes' });
    expect(await continuation).toEqual({ startSeq: 1, endSeq: 2, outcome: 'completed' });
    expect(results).toEqual(['yes']);
    session.close();
  });

  it('rejects host tool calls over a link that cannot carry them', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    await session.attach(sink().sink);
    await expect(session.callHostTool({ name: 'x', args: {} })).rejects.toMatchObject({
      code: 'NOT_SUPPORTED',
    });
    session.close();
  });

  it('closes after the grace period once the link dropped, and runs onDisconnect once', async () => {
    vi.useFakeTimers();
    const reasons: string[] = [];
    const closedSessions: string[] = [];
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: { onDisconnect: (_connection, reason) => void reasons.push(reason) },
      reconnectGraceMs: 5000,
      onClosed: (closed) => closedSessions.push(closed.id),
    });
    const link = sink();
    await session.attach(link.sink);
    session.detach(link.sink);
    expect(session.pendingGrace).toBe(true);
    vi.advanceTimersByTime(4999);
    expect(session.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(session.closed).toBe(true);
    expect(session.pendingGrace).toBe(false);
    await vi.runAllTimersAsync();
    expect(reasons).toEqual(['grace-expired']);
    expect(closedSessions).toEqual([session.id]);
    expect(session.replayLog.size()).toEqual({ events: 0, bytes: 0 });
    expect(session.signal.aborted).toBe(true);
  });

  it('restarts the grace period on every request while no link is attached, and not while a reader waits', async () => {
    vi.useFakeTimers();
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {},
      reconnectGraceMs: 1000,
    });
    session.touch();
    vi.advanceTimersByTime(900);
    session.receive(action('a'), undefined);
    vi.advanceTimersByTime(900);
    expect(session.closed).toBe(false);
    const waiting = session.read(0, { waitMs: 5_000 });
    vi.advanceTimersByTime(4_000);
    expect(session.closed).toBe(false);
    vi.advanceTimersByTime(1_000);
    await waiting;
    vi.advanceTimersByTime(999);
    expect(session.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(session.closed).toBe(true);
  });

  it('a resume within the grace period cancels the timer', async () => {
    vi.useFakeTimers();
    const session = new ConnectionSession({
      maxSnapshotBytes: 0,
      agent: {},
      reconnectGraceMs: 1000,
    });
    const link = sink();
    await session.attach(link.sink);
    session.detach(link.sink);
    await session.attach(sink().sink, { lastSeq: 0 });
    vi.advanceTimersByTime(10_000);
    expect(session.closed).toBe(false);
    session.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses sends and receives after close, and tells the sink why', async () => {
    const session = new ConnectionSession({ maxSnapshotBytes: 0, agent: {} });
    const link = sink();
    await session.attach(link.sink);
    session.close();
    expect(link.closed).toEqual(['server-closed']);
    expect(() => session.send(message(1))).toThrowError(
      expect.objectContaining({ code: 'CONNECTION_CLOSED' }),
    );
    expect(() => session.receive(action('a'), undefined)).toThrowError(
      expect.objectContaining({ code: 'CONNECTION_CLOSED' }),
    );
    expect(await session.attach(sink().sink)).toEqual({ ok: false });
  });
});
