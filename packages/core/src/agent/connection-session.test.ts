import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ServerMessage } from '../protocol/messages.js';
import type { A2uiAgent } from './agent.js';
import { ConnectionSession, type SessionSink } from './connection-session.js';
import { createMemoryReplayLog } from './replay-log.js';

const message = (n: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path: '/n', value: n },
});

function sink() {
  const delivered: number[] = [];
  const closed: string[] = [];
  const value: SessionSink = {
    deliver: (entry) => delivered.push(entry.seq),
    close: (reason) => closed.push(reason),
  };
  return { sink: value, delivered, closed };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectionSession', () => {
  it('numbers messages from 1 and replays what a resumed link missed', () => {
    const session = new ConnectionSession({ agent: {} });
    const first = sink();
    session.attach(first.sink);
    session.send([message(1), message(2)]);
    session.detach(first.sink);
    session.send(message(3));
    const second = sink();
    expect(session.attach(second.sink, { lastSeq: 2 })).toEqual({ ok: true, replayed: 1 });
    session.send(message(4));
    expect(first.delivered).toEqual([1, 2]);
    expect(second.delivered).toEqual([3, 4]);
    session.close();
  });

  it('refuses to resume across a gap the replay log no longer holds', () => {
    const session = new ConnectionSession({
      agent: {},
      replayLog: createMemoryReplayLog({ maxEvents: 2 }),
    });
    session.send([message(1), message(2), message(3), message(4)]);
    expect(session.attach(sink().sink, { lastSeq: 1 })).toEqual({ ok: false });
    expect(session.attach(sink().sink, { lastSeq: 2 })).toEqual({ ok: true, replayed: 2 });
    session.close();
  });

  it('sends nothing of a batch with one bad message', () => {
    const session = new ConnectionSession({ agent: {} });
    const link = sink();
    session.attach(link.sink);
    expect(() =>
      session.send([message(1), { version: 'v0.8' } as unknown as ServerMessage]),
    ).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(link.delivered).toEqual([]);
    expect(session.lastSeq).toBe(0);
    session.close();
  });

  it('validates outgoing messages against the catalog of their surface', () => {
    const seen: Array<string | undefined> = [];
    const session = new ConnectionSession({
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

  it('hands client messages to the agent in order and drops a repeated request id', async () => {
    const names: string[] = [];
    const agent: A2uiAgent = {
      async onAction(_connection, action) {
        // An async hook that finishes late must still not be overtaken by the next one.
        await Promise.resolve();
        names.push(action.name);
      },
    };
    const session = new ConnectionSession({ agent });
    const action = (name: string) => ({
      version: 'v0.9' as const,
      action: {
        name,
        surfaceId: 's',
        sourceComponentId: 'b',
        timestamp: '2026-01-01T00:00:00Z',
        context: {},
      },
    });
    const results = [
      session.receive(action('a'), undefined, { requestId: '1' }),
      session.receive(action('b'), undefined, { requestId: '2' }),
      session.receive(action('a-again'), undefined, { requestId: '1' }),
      session.receive(action('c'), undefined),
    ];
    expect(results.map((result) => result.accepted)).toEqual([true, true, false, true]);
    await Promise.all(results.map((result) => result.handled));
    expect(names).toEqual(['a', 'b', 'c']);
    session.close();
  });

  it('closes after the grace period once the link dropped, and runs onDisconnect once', async () => {
    vi.useFakeTimers();
    const reasons: string[] = [];
    const closedSessions: string[] = [];
    const session = new ConnectionSession({
      agent: { onDisconnect: (_connection, reason) => void reasons.push(reason) },
      reconnectGraceMs: 5000,
      onClosed: (closed) => closedSessions.push(closed.id),
    });
    const link = sink();
    session.attach(link.sink);
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
    expect(session.replayLog.size).toEqual({ events: 0, bytes: 0 });
    expect(session.signal.aborted).toBe(true);
  });

  it('a resume within the grace period cancels the timer', () => {
    vi.useFakeTimers();
    const session = new ConnectionSession({ agent: {}, reconnectGraceMs: 1000 });
    const link = sink();
    session.attach(link.sink);
    session.detach(link.sink);
    session.attach(sink().sink, { lastSeq: 0 });
    vi.advanceTimersByTime(10_000);
    expect(session.closed).toBe(false);
    session.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses sends and receives after close, and tells the sink why', () => {
    const session = new ConnectionSession({ agent: {} });
    const link = sink();
    session.attach(link.sink);
    session.close();
    expect(link.closed).toEqual(['server-closed']);
    expect(() => session.send(message(1))).toThrowError(
      expect.objectContaining({ code: 'CONNECTION_CLOSED' }),
    );
    expect(session.attach(sink().sink)).toEqual({ ok: false });
  });
});
