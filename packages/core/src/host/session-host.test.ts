import { afterEach, describe, expect, it, vi } from 'vitest';
import type { A2uiAgent, Connection, DisconnectReason } from '../agent/agent.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ServerMessage } from '../protocol/messages.js';
import { createMemoryCluster } from '../testing/memory-cluster.js';
import type { LinkOpenInfo, SessionSink } from './connection-session.js';
import { createSessionHost, type SessionHost, type SessionHostOptions } from './session-host.js';

const update = (value: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path: '/v', value },
});

const actionMessage = (name = 'go', context: Record<string, unknown> = {}) => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId: 's',
    sourceComponentId: 'b',
    timestamp: '2026-01-01T00:00:00Z',
    context,
  },
});

function recordingSink() {
  const opened: LinkOpenInfo[] = [];
  const values: unknown[] = [];
  const seqs: number[] = [];
  const closed: DisconnectReason[] = [];
  const sink: SessionSink = {
    open: (info) => opened.push(info),
    deliver: (entry) => {
      seqs.push(entry.seq);
      values.push(
        (JSON.parse(entry.data) as { updateDataModel?: { value: unknown } }).updateDataModel?.value,
      );
    },
    close: (reason) => closed.push(reason),
  };
  return { sink, opened, values, seqs, closed };
}

function recordingAgent(extra: Partial<A2uiAgent> = {}) {
  const connections: Connection[] = [];
  const actions: string[] = [];
  const disconnects: DisconnectReason[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connections.push(connection);
      connection.send(update(`hello ${connections.length}`));
    },
    onAction(connection, action) {
      actions.push(action.name);
      connection.send(update(`did ${action.name}`));
    },
    onDisconnect: (_connection, reason) => void disconnects.push(reason),
    ...extra,
  };
  return { agent, connections, actions, disconnects };
}

const hosts: SessionHost[] = [];
function host(options: SessionHostOptions): SessionHost {
  // These cases test resets: snapshots (session-snapshot.test.ts) are off unless asked for.
  const created = createSessionHost({ snapshots: false, ...options });
  hosts.push(created);
  return created;
}

afterEach(async () => {
  vi.useRealTimers();
  for (const created of hosts.splice(0)) await created.close();
});

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    return A2uiError.isInstance(error) ? error.code : String(error);
  }
};

describe('SessionHost: streaming links', () => {
  it('opens a connection, tells the link before the first message, and records its owner', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent });
    const link = recordingSink();
    const opened = await sessions.connect({ principal: undefined, sink: link.sink });
    await vi.waitFor(() => expect(link.values).toEqual(['hello 1']));
    expect(link.opened).toEqual([
      { connectionId: opened.connectionId, resumed: false, replayed: 0 },
    ]);
    expect(await sessions.registry.get(opened.connectionId)).toMatchObject({
      id: opened.connectionId,
      owner: sessions.nodeId,
    });
  });

  it('resumes with a replay for the same principal, and refuses another principal without disturbing the owner', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent, authenticate: () => 'unused' });
    const first = recordingSink();
    const link = await sessions.connect({ principal: 'alice', sink: first.sink });
    await vi.waitFor(() => expect(first.seqs).toEqual([1]));
    link.detach();
    recorder.connections[0]!.send([update(2), update(3)]);
    expect(
      await codeOf(
        sessions.connect({
          principal: 'mallory',
          connectionId: link.connectionId,
          lastSeq: 0,
          sink: recordingSink().sink,
        }),
      ),
    ).toBe('FORBIDDEN');
    const second = recordingSink();
    const resumed = await sessions.connect({
      principal: 'alice',
      connectionId: link.connectionId,
      lastSeq: 1,
      sink: second.sink,
    });
    expect(resumed).toMatchObject({ resumed: true, replayed: 2 });
    expect(second.seqs).toEqual([2, 3]);
    expect(recorder.connections).toHaveLength(1);
    expect(recorder.disconnects).toEqual([]);
  });

  it('resets an unknown connection and a replay gap with a fresh onConnect, closing what it replaces', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent, replayBuffer: { maxEvents: 2 } });
    const unknown = recordingSink();
    const fresh = await sessions.connect({
      principal: undefined,
      connectionId: 'AAAAAAAAAAAAAAAAAAAAAA',
      lastSeq: 7,
      sink: unknown.sink,
    });
    expect(fresh.reset).toBe('unknown-connection');
    expect(unknown.opened[0]).toMatchObject({ resumed: false, reset: 'unknown-connection' });
    fresh.detach();
    for (let index = 0; index < 5; index++) recorder.connections[0]!.send(update(index));
    const gap = recordingSink();
    const replaced = await sessions.connect({
      principal: undefined,
      connectionId: fresh.connectionId,
      lastSeq: 1,
      sink: gap.sink,
    });
    expect(replaced.reset).toBe('replay-gap');
    expect(replaced.connectionId).not.toBe(fresh.connectionId);
    await vi.waitFor(() => expect(gap.values).toEqual(['hello 2']));
    expect(recorder.disconnects).toEqual(['reset']);
    expect(sessions.stats().sessions).toBe(1);
  });

  it('evicts the oldest connection without a link to admit a new one, and refuses when every one has a link', async () => {
    const recorder = recordingAgent();
    const sessions = host({
      agent: recorder.agent,
      maxSessions: 2,
      sessionLimitRetryAfterMs: 1234,
    });
    const a = await sessions.connect({ principal: undefined, sink: recordingSink().sink });
    await sessions.connect({ principal: undefined, sink: recordingSink().sink });
    a.detach();
    await sessions.connect({ principal: undefined, sink: recordingSink().sink });
    await vi.waitFor(() => expect(recorder.disconnects).toEqual(['grace-expired']));
    expect(sessions.session(a.connectionId)).toBeUndefined();
    const refused = sessions.connect({ principal: undefined, sink: recordingSink().sink });
    await expect(refused).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      data: { retryAfterMs: 1234 },
    });
    expect(sessions.stats()).toMatchObject({ sessions: 2, evictedSessions: 1, refusedSessions: 1 });
  });

  it('does not evict a linkless connection while a reader waits on it (a long poll is its link)', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent, maxSessions: 1 });
    const polled = await sessions.open({ principal: undefined, awaitTurn: true });
    const poll = sessions.read(polled.connectionId, {
      principal: undefined,
      afterSeq: 1,
      waitMs: 60_000,
    });
    expect(await codeOf(sessions.open({ principal: undefined }))).toBe('LIMIT_EXCEEDED');
    recorder.connections[0]!.send(update('pushed'));
    await poll;
    // Between polls it has no reader: now the cap may evict it.
    expect(await codeOf(sessions.open({ principal: undefined }))).toBe('accepted');
    await vi.waitFor(() => expect(recorder.disconnects).toEqual(['grace-expired']));
  });

  it('does not evict a connection a reader waits on (a long poll, a turn-based stream)', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent, maxSessions: 1 });
    const opened = await sessions.open({ principal: undefined, awaitTurn: true });
    const stop = new AbortController();
    const poll = sessions.read(opened.connectionId, {
      principal: undefined,
      afterSeq: 1,
      waitMs: 60_000,
      signal: stop.signal,
    });
    expect(await codeOf(sessions.open({ principal: undefined }))).toBe('LIMIT_EXCEEDED');
    stop.abort();
    await poll;
    // Nobody reads it any more: it makes room.
    expect(await codeOf(sessions.open({ principal: undefined }))).toBe('accepted');
    await vi.waitFor(() => expect(recorder.disconnects).toEqual(['grace-expired']));
  });

  it('caps connections per principal when it authenticates', async () => {
    const sessions = host({
      agent: recordingAgent().agent,
      authenticate: () => 'unused',
      maxSessionsPerPrincipal: 1,
    });
    await sessions.connect({ principal: { user: 'ada' }, sink: recordingSink().sink });
    expect(
      await codeOf(sessions.connect({ principal: { user: 'ada' }, sink: recordingSink().sink })),
    ).toBe('LIMIT_EXCEEDED');
    expect(
      await codeOf(sessions.connect({ principal: { user: 'bob' }, sink: recordingSink().sink })),
    ).toBe('accepted');
  });

  it('refuses new connections once closing, with a 503 hint', async () => {
    const sessions = host({ agent: recordingAgent().agent });
    await sessions.close();
    await expect(
      sessions.connect({ principal: undefined, sink: recordingSink().sink }),
    ).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      data: { httpStatus: 503 },
    });
  });
});

describe('SessionHost: client messages', () => {
  it('validates the message and its metadata, pointing at the bad field, and delivers valid ones once', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent });
    const { connectionId } = await sessions.open({ principal: undefined });
    const bad = await sessions
      .receive(connectionId, {
        principal: undefined,
        message: { version: 'v0.9', action: { name: 1 } },
        bytes: 50,
      })
      .catch((error: A2uiError) => error);
    expect(bad).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: expect.stringMatching(/^\/action/),
    });
    expect((bad as A2uiError).data?.issues).toEqual(expect.any(Array));

    let deep: unknown = {};
    for (let level = 0; level < 200_000; level++) deep = { deeper: deep };
    const tooDeep = await sessions
      .receive(connectionId, {
        principal: undefined,
        message: actionMessage(),
        metadata: { extra: deep },
        bytes: 100,
      })
      .catch((error: A2uiError) => error);
    expect(tooDeep).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: expect.stringMatching(/^\/metadata\/extra/),
    });

    expect(
      await codeOf(
        sessions.receive(connectionId, {
          principal: undefined,
          message: actionMessage(),
          bytes: 2_000_000,
        }),
      ),
    ).toBe('MESSAGE_TOO_LARGE');
    expect(
      await codeOf(
        sessions.receive(connectionId, {
          principal: undefined,
          message: actionMessage(),
          requestId: 'x'.repeat(1_000),
          bytes: 100,
        }),
      ),
    ).toBe('VALIDATION_FAILED');

    const first = await sessions.receive(connectionId, {
      principal: undefined,
      message: actionMessage('once'),
      requestId: '"r1"',
      bytes: 100,
      awaitTurn: true,
    });
    const again = await sessions.receive(connectionId, {
      principal: undefined,
      message: actionMessage('once'),
      requestId: '"r1"',
      bytes: 100,
      awaitTurn: true,
    });
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ duplicate: true, turn: first.turn });
    expect(recorder.actions).toEqual(['once']);
  });

  it('says when a message is queued (onAccepted), before its turn is over', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const events: string[] = [];
    const sessions = host({
      agent: {
        async onAction(_connection, action) {
          events.push(`turn ${action.name}`);
          await gate;
        },
      },
    });
    const { connectionId } = await sessions.open({ principal: 'p', awaitTurn: true });
    const turn = sessions
      .receive(connectionId, {
        principal: 'p',
        message: actionMessage('slow'),
        bytes: 100,
        awaitTurn: true,
        onAccepted: () => events.push('accepted'),
      })
      .then((result) => events.push(`answered ${result.turn?.outcome}`));
    await vi.waitFor(() => expect(events).toEqual(['accepted', 'turn slow']));
    release();
    await turn;
    expect(events).toEqual(['accepted', 'turn slow', 'answered completed']);
  });

  it('serves a turn-based client: the first turn, the turn of each action, and long polls for pushes', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent });
    const opened = await sessions.open({ principal: 'p', awaitTurn: true });
    expect(opened).toMatchObject({
      created: true,
      turn: { startSeq: 0, endSeq: 1, outcome: 'completed' },
    });
    const result = await sessions.receive(opened.connectionId, {
      principal: 'p',
      message: actionMessage('search'),
      bytes: 100,
      awaitTurn: true,
    });
    expect(result.turn).toEqual({ startSeq: 1, endSeq: 2, outcome: 'completed' });
    const read = await sessions.read(opened.connectionId, { principal: 'p', afterSeq: 0 });
    expect(read.ok && read.entries.map((entry) => entry.seq)).toEqual([1, 2]);
    const poll = sessions.read(opened.connectionId, {
      principal: 'p',
      afterSeq: 2,
      waitMs: 60_000,
    });
    recorder.connections[0]!.send(update('pushed'));
    const pushed = await poll;
    expect(pushed.ok && pushed.entries.map((entry) => entry.seq)).toEqual([3]);
    await sessions.acknowledge(opened.connectionId, { principal: 'p', seq: 3 });
    expect(await sessions.read(opened.connectionId, { principal: 'p', afterSeq: 1 })).toEqual({
      ok: false,
      lastSeq: 3,
    });
    expect(await codeOf(sessions.read(opened.connectionId, { principal: 'q', afterSeq: 0 }))).toBe(
      'FORBIDDEN',
    );
    expect(await codeOf(sessions.read('unknown', { principal: 'p', afterSeq: 0 }))).toBe(
      'CONNECTION_CLOSED',
    );
    await sessions.disconnect(opened.connectionId, { principal: 'p' });
    await vi.waitFor(() => expect(recorder.disconnects).toEqual(['client-closed']));
  });

  it('reuses a connection opened with a chosen id for its principal only', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent });
    expect(await sessions.open({ principal: 'p', id: 'thread-1' })).toMatchObject({
      connectionId: 'thread-1',
      created: true,
    });
    expect(await sessions.open({ principal: 'p', id: 'thread-1' })).toMatchObject({
      created: false,
    });
    expect(await codeOf(sessions.open({ principal: 'q', id: 'thread-1' }))).toBe('FORBIDDEN');
    expect(await codeOf(sessions.open({ principal: 'p', id: '' }))).toBe('VALIDATION_FAILED');
    expect(recorder.connections).toHaveLength(1);
  });

  it('lets a binding attach its link to a created connection before the onConnect turn (onCreated)', async () => {
    const recorder = recordingAgent();
    const sessions = host({ agent: recorder.agent });
    const link = recordingSink();
    const created: string[] = [];
    const opened = await sessions.open({
      principal: 'p',
      id: 'thread-2',
      awaitTurn: true,
      async onCreated(connectionId) {
        created.push(connectionId);
        await sessions.connect({ principal: 'p', connectionId, lastSeq: 0, sink: link.sink });
      },
    });
    expect(created).toEqual(['thread-2']);
    expect(opened.turn).toMatchObject({ startSeq: 0, endSeq: 1, outcome: 'completed' });
    // The onConnect message reached the link live, not by a replay.
    expect(link.opened).toEqual([{ connectionId: 'thread-2', resumed: true, replayed: 0 }]);
    expect(link.values).toEqual(['hello 1']);
    const again = await sessions.open({
      principal: 'p',
      id: 'thread-2',
      onCreated: () => {
        throw new Error('not called for a reused connection');
      },
    });
    expect(again.created).toBe(false);
    const failing = sessions.open({
      principal: 'p',
      id: 'thread-3',
      onCreated: () => {
        throw new A2uiError('LIMIT_EXCEEDED', 'no link for you');
      },
    });
    expect(await codeOf(failing)).toBe('LIMIT_EXCEEDED');
    expect(sessions.session('thread-3')).toBeUndefined();
    expect(recorder.connections).toHaveLength(1);
  });

  it('hands out the onConnect turn of a created connection without waiting for it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sessions = host({
      agent: {
        async onConnect(connection) {
          connection.send(update('first'));
          await held;
          connection.send(update('second'));
        },
      },
    });
    const opened = await sessions.open({ principal: 'p', id: 'thread-2' });
    expect(opened.created).toBe(true);
    let ended = false;
    const turn = opened.connectTurn!.then((result) => {
      ended = true;
      return result;
    });
    await vi.waitFor(() => expect(sessions.session('thread-2')?.lastSeq).toBe(1));
    expect(ended).toBe(false);
    release();
    expect(await turn).toEqual({ startSeq: 0, endSeq: 2, outcome: 'completed' });
    expect((await sessions.open({ principal: 'p', id: 'thread-2' })).connectTurn).toBeUndefined();
  });

  it('passes user input and host tools to onInput, and tool results to the waiting hook', async () => {
    const calls: string[] = [];
    const sessions = host({
      agent: {
        async onInput(connection, input) {
          connection.send(update(`heard ${input.text}`));
          const result = await connection.callHostTool({
            name: connection.hostTools[0]!.name,
            args: {},
          });
          connection.send(update(`tool said ${result.content}`));
        },
      },
    });
    const link = recordingSink();
    link.sink.deliverToolCall = (call) => calls.push(call.id);
    const opened = await sessions.connect({ principal: undefined, sink: link.sink });
    const first = await sessions.input(opened.connectionId, {
      principal: undefined,
      input: { text: 'hi', tools: [{ name: 'tz', description: 'Time zone', parameters: {} }] },
      awaitTurn: true,
    });
    expect(first.turn).toMatchObject({ endSeq: 1 });
    expect(calls).toHaveLength(1);
    const next = await sessions.toolResult(opened.connectionId, {
      principal: undefined,
      result: { toolCallId: calls[0]!, content: 'UTC' },
      awaitTurn: true,
    });
    expect(next.turn).toEqual({ startSeq: 1, endSeq: 2, outcome: 'completed' });
    expect(link.values).toEqual(['heard hi', 'tool said UTC']);
    expect(
      await codeOf(
        sessions.toolResult(opened.connectionId, {
          principal: undefined,
          result: { toolCallId: 'nope', content: '' },
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('SessionHost: several nodes over shared stores', () => {
  function twoNodes(agent: A2uiAgent) {
    const cluster = createMemoryCluster();
    const errors: unknown[] = [];
    const shared = {
      registry: cluster.registry,
      createReplayLog: cluster.createReplayLog,
      onAgentError: (error: unknown) => errors.push(error),
    };
    const a = host({ agent, ...shared, router: cluster.router('a') });
    const b = host({ agent, ...shared, router: cluster.router('b') });
    return { cluster, a, b, errors };
  }

  /** A connection opened on A whose link dropped, followed from B. */
  async function followedOnB(
    a: ReturnType<typeof host>,
    b: ReturnType<typeof host>,
    recorder: ReturnType<typeof recordingAgent>,
  ) {
    const onA = await a.connect({ principal: 'p', sink: recordingSink().sink });
    await vi.waitFor(() => expect(recorder.connections).toHaveLength(1));
    onA.detach();
    const follower = recordingSink();
    await b.connect({
      principal: 'p',
      connectionId: onA.connectionId,
      lastSeq: 1,
      sink: follower.sink,
    });
    return { onA, follower };
  }

  it('delivers an action posted to another node to the owner once, with its turn', async () => {
    const recorder = recordingAgent();
    const { a, b, errors } = twoNodes(recorder.agent);
    const link = recordingSink();
    const opened = await a.connect({ principal: 'p', sink: link.sink });
    const request = {
      principal: 'p',
      message: actionMessage('via-b'),
      requestId: 'r',
      bytes: 100,
      awaitTurn: true,
    };
    const result = await b.receive(opened.connectionId, request);
    const repeated = await b.receive(opened.connectionId, request);
    expect(result).toEqual({
      duplicate: false,
      turn: { startSeq: 1, endSeq: 2, outcome: 'completed' },
    });
    expect(repeated.duplicate).toBe(true);
    expect(recorder.actions).toEqual(['via-b']);
    expect(link.values).toEqual(['hello 1', 'did via-b']);
    expect(await codeOf(b.receive(opened.connectionId, { ...request, principal: 'q' }))).toBe(
      'FORBIDDEN',
    );
    expect(errors).toEqual([]);
  });

  it('answers an action posted to another node as accepted, without its turn, when the wait for a slow turn ends (as on the owner)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const recorder = recordingAgent({
      async onAction(connection, action) {
        recorder.actions.push(action.name);
        await gate;
        connection.send(update(`did ${action.name}`));
      },
    });
    const { a, b, errors } = twoNodes(recorder.agent);
    const link = recordingSink();
    const opened = await a.connect({ principal: 'p', sink: link.sink });
    await vi.waitFor(() => expect(link.values).toEqual(['hello 1']));
    const wait = new AbortController();
    const request = {
      principal: 'p',
      message: actionMessage('slow'),
      requestId: 'r',
      bytes: 100,
      awaitTurn: true,
      signal: wait.signal,
    };
    const answer = b.receive(opened.connectionId, request);
    await vi.waitFor(() => expect(recorder.actions).toEqual(['slow']));
    // The binding's turn wait ends while the owner's agent still works.
    wait.abort();
    expect(await answer).toEqual({ duplicate: false });
    // Retried with the same id, it is a duplicate and the agent does not get it again.
    const retried = b.receive(opened.connectionId, { ...request, signal: undefined });
    release();
    expect(await retried).toMatchObject({ duplicate: true, turn: { endSeq: 2 } });
    expect(recorder.actions).toEqual(['slow']);
    expect(link.values).toEqual(['hello 1', 'did slow']);
    expect(errors).toEqual([]);
  });

  it('asks for a retry when its router gave up on the owner, and keeps an owner failure text on the owner', async () => {
    const recorder = recordingAgent();
    const cluster = createMemoryCluster();
    const errors: unknown[] = [];
    const shared = {
      registry: cluster.registry,
      createReplayLog: cluster.createReplayLog,
      onAgentError: (error: unknown) => errors.push(error),
    };
    const a = host({ agent: recorder.agent, ...shared, router: cluster.router('a') });
    const router = cluster.router('b');
    const b = host({
      agent: recorder.agent,
      ...shared,
      router: {
        ...router,
        forward: async () => {
          throw new A2uiError('ABORTED', 'The forwarded request was aborted.');
        },
      },
    });
    const opened = await a.connect({ principal: 'p', sink: recordingSink().sink });
    const refused = await b
      .receive(opened.connectionId, {
        principal: 'p',
        message: actionMessage(),
        requestId: 'r',
        bytes: 100,
      })
      .catch((error: A2uiError) => error);
    expect(refused).toMatchObject({ code: 'LIMIT_EXCEEDED', data: { retryAfterMs: 1_000 } });
    // A request the owner fails on unexpectedly (here: a malformed one): reported there only.
    const answer = await cluster.router('c').forward('a', {
      type: 'tool-result',
      connectionId: opened.connectionId,
      result: undefined as never,
      awaitTurn: false,
    });
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'INTERNAL_ERROR',
        message: 'The owner of the connection failed to handle the request.',
      },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  it("answers a turn through another node once that node's links that follow the log have its messages", async () => {
    const recorder = recordingAgent();
    const cluster = createMemoryCluster();
    // A shared store tells followers a little after the owner appended, as Redis does.
    const createReplayLog = (connectionId: string) => {
      const log = cluster.createReplayLog(connectionId);
      return {
        ...log,
        subscribe: (listener: Parameters<typeof log.subscribe>[0]) =>
          log.subscribe({
            onAppend: (entries) => setImmediate(() => listener.onAppend(entries)),
            onEnd: (reason) => setImmediate(() => listener.onEnd(reason)),
          }),
      };
    };
    const shared = { registry: cluster.registry, createReplayLog, onAgentError: () => {} };
    const a = host({ agent: recorder.agent, ...shared, router: cluster.router('a') });
    const b = host({ agent: recorder.agent, ...shared, router: cluster.router('b') });
    const { onA, follower } = await followedOnB(a, b, recorder);
    const result = await b.receive(onA.connectionId, {
      principal: 'p',
      message: actionMessage('via-b'),
      bytes: 100,
      awaitTurn: true,
    });
    expect(result.turn).toMatchObject({ endSeq: 2 });
    expect(follower.values).toEqual(['did via-b']);
  });

  it('follows a connection from the shared log on a node that does not own it, and keeps the owner out of its grace period', async () => {
    const recorder = recordingAgent();
    const { a, b, errors } = twoNodes(recorder.agent);
    const first = recordingSink();
    const onA = await a.connect({ principal: 'p', sink: first.sink });
    await vi.waitFor(() => expect(first.seqs).toEqual([1]));
    onA.detach();
    recorder.connections[0]!.send(update('missed'));
    const second = recordingSink();
    const onB = await b.connect({
      principal: 'p',
      connectionId: onA.connectionId,
      lastSeq: 1,
      sink: second.sink,
    });
    expect(onB).toMatchObject({ resumed: true, replayed: 1 });
    recorder.connections[0]!.send(update('live'));
    expect(second.values).toEqual(['missed', 'live']);
    expect(a.session(onA.connectionId)!.pendingGrace).toBe(false);
    expect(b.stats().followerLinks).toBe(1);
    onB.detach();
    await vi.waitFor(() => expect(a.session(onA.connectionId)!.pendingGrace).toBe(true));
    // A long poll through B sees what A sends.
    const poll = b.read(onA.connectionId, { principal: 'p', afterSeq: 3, waitMs: 60_000 });
    recorder.connections[0]!.send(update('polled'));
    const polled = await poll;
    expect(polled.ok && polled.entries.map((entry) => entry.seq)).toEqual([4]);
    await b.disconnect(onA.connectionId, { principal: 'p' });
    await vi.waitFor(() => expect(recorder.disconnects).toEqual(['client-closed']));
    expect(errors).toEqual([]);
  });

  it('resets a client whose missed messages the shared log no longer holds; the owner ends the old connection with reset', async () => {
    const recorder = recordingAgent();
    const cluster = createMemoryCluster({ maxEvents: 1 });
    const shared = { registry: cluster.registry, createReplayLog: cluster.createReplayLog };
    const a = host({ agent: recorder.agent, ...shared, router: cluster.router('a') });
    const b = host({ agent: recorder.agent, ...shared, router: cluster.router('b') });
    const onA = await a.connect({ principal: 'p', sink: recordingSink().sink });
    await vi.waitFor(() => expect(recorder.connections).toHaveLength(1));
    onA.detach();
    recorder.connections[0]!.send(update('evicts 1'));
    const second = recordingSink();
    const onB = await b.connect({
      principal: 'p',
      connectionId: onA.connectionId,
      lastSeq: 0,
      sink: second.sink,
    });
    expect(onB.reset).toBe('replay-gap');
    await vi.waitFor(() => expect(recorder.disconnects).toEqual(['reset']));
  });

  it('resets a client of a dead node onto a live one, explicitly, with a fresh onConnect', async () => {
    const recorder = recordingAgent();
    const { cluster, a, b } = twoNodes(recorder.agent);
    const first = recordingSink();
    const onA = await a.connect({ principal: 'p', sink: first.sink });
    await vi.waitFor(() => expect(first.seqs).toEqual([1]));
    cluster.kill('a');
    expect(
      await codeOf(
        b.receive(onA.connectionId, { principal: 'p', message: actionMessage(), bytes: 100 }),
      ),
    ).toBe('CONNECTION_CLOSED');
    const second = recordingSink();
    const onB = await b.connect({
      principal: 'p',
      connectionId: onA.connectionId,
      lastSeq: 1,
      sink: second.sink,
    });
    expect(onB.reset).toBe('owner-lost');
    await vi.waitFor(() => expect(second.values).toEqual(['hello 2']));
    expect(await cluster.registry.get(onA.connectionId)).toBeUndefined();
  });

  it('ends the links following a node that died, quietly, so their clients come back and are reset', async () => {
    const recorder = recordingAgent();
    const { cluster, a, b } = twoNodes(recorder.agent);
    const { onA, follower } = await followedOnB(a, b, recorder);
    expect(b.stats().followerLinks).toBe(1);
    cluster.kill('a');
    expect(follower.closed).toEqual(['reset']);
    expect(b.stats().followerLinks).toBe(0);
    const back = recordingSink();
    const again = await b.connect({
      principal: 'p',
      connectionId: onA.connectionId,
      lastSeq: 1,
      sink: back.sink,
    });
    expect(again.reset).toBe('owner-lost');
  });

  it('ends a link that started to follow a node as it died', async () => {
    const recorder = recordingAgent();
    const { cluster, a, b } = twoNodes(recorder.agent);
    const onA = await a.connect({ principal: 'p', sink: recordingSink().sink });
    onA.detach();
    // The node dies once the link is open on B and before B counts it as a follower.
    const follower = recordingSink();
    follower.sink.open = () => cluster.kill('a');
    await b.connect({
      principal: 'p',
      connectionId: onA.connectionId,
      lastSeq: 0,
      sink: follower.sink,
    });
    expect(follower.closed).toEqual(['reset']);
    expect(b.stats().followerLinks).toBe(0);
  });

  it('drops the links of a node that died, so the owner starts its grace period', async () => {
    const recorder = recordingAgent();
    const { cluster, a, b } = twoNodes(recorder.agent);
    const onA = await a.connect({ principal: 'p', sink: recordingSink().sink });
    onA.detach();
    await b.connect({
      principal: 'p',
      connectionId: onA.connectionId,
      lastSeq: 0,
      sink: recordingSink().sink,
    });
    expect(a.session(onA.connectionId)!.pendingGrace).toBe(false);
    cluster.kill('b');
    expect(a.session(onA.connectionId)!.pendingGrace).toBe(true);
  });
});

describe('SessionHost version negotiation', () => {
  it('negotiates against a2uiVersions and hands the result to the agent', async () => {
    const seen: (readonly string[] | undefined)[] = [];
    const host = createSessionHost({
      agent: { onConnect: (connection) => void seen.push(connection.protocolVersions) },
      a2uiVersions: ['v1.0', 'v0.9'],
    });
    try {
      expect(host.a2uiVersions).toEqual(['v1.0', 'v0.9']);
      expect(host.negotiate(undefined)).toBeUndefined();
      const negotiated = host.negotiate(['v0.9', 'v1.0', 'v0.8']);
      expect(negotiated).toEqual({ version: 'v1.0', versions: ['v1.0', 'v0.9'] });
      const first = recordingSink();
      await host.connect({
        principal: undefined,
        sink: first.sink,
        protocolVersions: negotiated?.versions,
      });
      await host.open({ principal: undefined, awaitTurn: true });
      await vi.waitFor(() => expect(seen).toEqual([['v1.0', 'v0.9'], undefined]));
      expect(() => host.negotiate(['v0.8'])).toThrow(
        expect.objectContaining({ code: 'NOT_SUPPORTED' }),
      );
    } finally {
      await host.close();
    }
  });

  it('refuses an a2uiVersions option core cannot speak', () => {
    expect(() => createSessionHost({ agent: {}, a2uiVersions: ['v3.0'] })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
