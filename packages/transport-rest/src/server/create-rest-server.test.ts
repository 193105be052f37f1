/**
 * The server binding over the real wire, endpoint by endpoint: what each answers, and every way
 * each refuses (status, JSON body, code from docs/errors.md) without losing state.
 */
import { connect as connectTcp } from 'node:net';
import type { Connection } from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it } from 'vitest';
import { action, capabilities, createMain, echoAgent, update } from '../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function opened(test: TestServer, headers: Record<string, string> = {}) {
  const answer = await test.post('/connect', {}, headers);
  expect(answer.status).toBe(200);
  return answer.body as { connectionId: string; messages: unknown[]; seq: number; more: boolean };
}

describe('POST /connect', () => {
  it("answers with the connection and the agent's first turn, numbered", async () => {
    const { agent } = echoAgent({
      async onConnect(connection) {
        connection.send(createMain);
        await Promise.resolve();
        connection.send(update('/greeting', 'Hello'));
      },
    });
    server = await startTestServer({ agent });
    const answer = await server.post('/connect', {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      connectionId: expect.stringMatching(/^[\w-]{22}$/),
      messages: [createMain, update('/greeting', 'Hello')],
      seq: 2,
      more: false,
    });
    expect(server.app.stats().sessions).toBe(1);
  });

  it('returns the same connection to a retried connect with the same Idempotency-Key; onConnect runs once', async () => {
    const recorder = echoAgent();
    server = await startTestServer({
      agent: recorder.agent,
      authenticate: (r) => r.headers.get('authorization'),
    });
    const first = await server.post(
      '/connect',
      {},
      { authorization: 'alice', 'idempotency-key': 'c-1' },
    );
    const again = await server.post(
      '/connect',
      {},
      { authorization: 'alice', 'idempotency-key': '"c-1"' },
    );
    const inBody = await server.post('/connect', { requestId: 'c-1' }, { authorization: 'alice' });
    expect(again.body).toEqual(first.body);
    expect(inBody.body).toEqual(first.body);
    // Another principal's key is another connect.
    const other = await server.post(
      '/connect',
      {},
      { authorization: 'bob', 'idempotency-key': 'c-1' },
    );
    expect(other.body.connectionId).not.toBe(first.body.connectionId);
    expect(recorder.connections).toHaveLength(2);
    expect(server.app.stats().rememberedConnects).toBe(1);
    // Forgotten with the connection: a retry after that opens a new one.
    await server.post(
      '/disconnect',
      { connectionId: first.body.connectionId },
      { authorization: 'alice' },
    );
    expect(server.app.stats().rememberedConnects).toBe(0);
  });

  it('refuses a connect whose Idempotency-Key is longer than maxRequestIdLength, and remembers nothing', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent, maxRequestIdLength: 64 });
    const long = 'k'.repeat(65);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{}, { 'idempotency-key': long }],
      [{ requestId: long }, {}],
    ];
    for (const [body, headers] of cases) {
      const refused = await server.post('/connect', body, headers);
      expect([refused.status, refused.body.error.code, refused.body.error.path]).toEqual([
        400,
        'VALIDATION_FAILED',
        '/requestId',
      ]);
    }
    expect(recorder.connections).toHaveLength(0);
    expect(server.app.stats().rememberedConnects).toBe(0);
    await opened(server, { 'idempotency-key': 'k'.repeat(64) });
    expect(server.app.stats().rememberedConnects).toBe(1);
  });

  it("replaces a reset connection: its agent sees onDisconnect('reset'), another principal's is refused", async () => {
    const recorder = echoAgent();
    server = await startTestServer({
      agent: recorder.agent,
      authenticate: (r) => r.headers.get('authorization'),
    });
    const old = await opened(server, { authorization: 'alice' });
    const refused = await server.post(
      '/connect',
      { replaces: old.connectionId },
      { authorization: 'mallory' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const replacing = await server.post(
      '/connect',
      { replaces: old.connectionId },
      { authorization: 'alice' },
    );
    expect(replacing.status).toBe(200);
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['reset']);
    expect(server.app.stats().sessions).toBe(1);
    // Replacing what is gone already is no error.
    expect(
      (await server.post('/connect', { replaces: old.connectionId }, { authorization: 'alice' }))
        .status,
    ).toBe(200);
    const malformed = await server.post(
      '/connect',
      { replaces: 'nope' },
      { authorization: 'alice' },
    );
    expect([malformed.status, malformed.body.error]).toEqual([
      400,
      { code: 'VALIDATION_FAILED', message: expect.any(String), path: '/replaces' },
    ]);
  });

  it('refuses a connection beyond maxSessions while every one has a waiting poll (503, Retry-After), else evicts the oldest', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent, maxSessions: 1 });
    const { connectionId } = await opened(server);
    const poll = server.get(`/messages?connectionId=${connectionId}&after=1&waitMs=30000`);
    await eventually(() => server!.app.stats().polls === 1);
    const refused = await server.post('/connect', {});
    expect([refused.status, refused.headers.get('retry-after'), refused.body.error.code]).toEqual([
      503,
      '5',
      'LIMIT_EXCEEDED',
    ]);
    expect(recorder.connections).toHaveLength(1);
    recorder.connections[0]!.send(update('/n', 1));
    await poll;
    // Between polls the connection has no reader: it is the one evicted.
    expect((await server.post('/connect', {})).status).toBe(200);
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['grace-expired']);
    const evicted = await server.get(`/messages?connectionId=${connectionId}&after=2`);
    expect([evicted.status, evicted.body.error.code]).toEqual([404, 'CONNECTION_CLOSED']);
    expect(server.app.stats()).toMatchObject({
      sessions: 1,
      evictedSessions: 1,
      refusedSessions: 1,
    });
  });

  it('answers 503 CONNECTION_CLOSED once the server is closing', async () => {
    server = await startTestServer({ agent: echoAgent().agent });
    await server.app.close();
    const refused = await server.post('/connect', {});
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('CONNECTION_CLOSED');
  });
});

describe('POST /action and POST /error', () => {
  it("answers with exactly the turn's messages, and /error reaches onError", async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    // A push between turns is not part of the next turn's answer: the poll carries it.
    recorder.connections[0]!.send(update('/pushed', 1));
    const turn = await server.post('/action', {
      connectionId,
      action: action('go'),
      metadata: capabilities,
    });
    expect(turn.body).toEqual({ messages: [update('/last', 'go')], seq: 3, more: false });
    const error = await server.post('/error', {
      connectionId,
      error: { code: 'CUSTOM', surfaceId: 'main', message: 'oops' },
    });
    expect(error.body).toEqual({ messages: [], seq: 3, more: false });
    expect(recorder.errors).toEqual(['CUSTOM']);
  });

  it('delivers a retried POST with the same Idempotency-Key once and answers it with the same turn', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    const body = { connectionId, action: action('once') };
    const first = await server.post('/action', body, { 'idempotency-key': 'a-1' });
    const retried = await server.post('/action', body, { 'idempotency-key': 'a-1' });
    const inBody = await server.post('/action', { ...body, requestId: 'a-1' });
    expect(retried.body).toEqual(first.body);
    expect(inBody.body).toEqual(first.body);
    expect(recorder.actions).toEqual(['once']);
    const mismatch = await server.post(
      '/action',
      { ...body, requestId: 'a-2' },
      { 'idempotency-key': 'a-1' },
    );
    expect([mismatch.status, mismatch.body.error.path]).toEqual([400, '/requestId']);
    const tooLong = await server.post('/action', body, { 'idempotency-key': 'k'.repeat(300) });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(recorder.actions).toEqual(['once']);
  });

  it('answers 422 to an Idempotency-Key reused with a different body, and delivers nothing more', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    const first = await server.post(
      '/action',
      { connectionId, action: action('pay', { amount: 1 }) },
      { 'idempotency-key': 'k-1' },
    );
    expect(first.status).toBe(200);
    const reused = await server.post(
      '/action',
      { connectionId, action: action('pay', { amount: 1000 }) },
      { 'idempotency-key': 'k-1' },
    );
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', path: '/requestId' });
    expect(reused.body.error.message).toMatch(/different body/);
    const asError = await server.post(
      '/error',
      { connectionId, error: { code: 'X', surfaceId: 's', message: 'm' } },
      { 'idempotency-key': 'k-1' },
    );
    expect(asError.status).toBe(422);
    // The same body again is still the retry it was.
    const retried = await server.post(
      '/action',
      { connectionId, action: action('pay', { amount: 1 }) },
      { 'idempotency-key': 'k-1' },
    );
    expect(retried.body).toEqual(first.body);
    expect(recorder.actions).toEqual(['pay']);
  });

  it('answers 422 to a connect whose Idempotency-Key comes again with a different body', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const first = await server.post('/connect', {}, { 'idempotency-key': 'c-9' });
    const { connectionId } = first.body;
    const reused = await server.post(
      '/connect',
      { replaces: connectionId },
      { 'idempotency-key': 'c-9' },
    );
    expect(reused.status).toBe(422);
    expect(recorder.connections).toHaveLength(1);
    expect(recorder.disconnects).toEqual([]);
  });

  it('answers a turn that outlasts turnTimeoutMs with what there is and more: true; the rest comes by poll', async () => {
    const proceed = createDeferred<void>();
    const recorder = echoAgent({
      async onAction(connection) {
        connection.send(update('/step', 1));
        await proceed.promise;
        connection.send(update('/step', 2));
      },
    });
    server = await startTestServer({ agent: recorder.agent, turnTimeoutMs: 50 });
    const { connectionId } = await opened(server);
    const turn = await server.post('/action', { connectionId, action: action('slow') });
    expect(turn.body).toEqual({ messages: [update('/step', 1)], seq: 2, more: true });
    proceed.resolve();
    const rest = await server.get(`/messages?connectionId=${connectionId}&after=2&waitMs=30000`);
    expect(rest.body).toEqual({ messages: [update('/step', 2)], seq: 3, more: false });
  });

  it('answers the turn in which the agent closes the connection with its messages and closed', async () => {
    const recorder = echoAgent({
      onAction(connection) {
        connection.send(update('/bye', true));
        connection.close();
      },
    });
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    const turn = await server.post('/action', { connectionId, action: action('leave') });
    expect(turn.body).toEqual({
      messages: [update('/bye', true)],
      seq: 2,
      more: false,
      closed: 'server-closed',
    });
    // A later poll learns the same, without the messages it acknowledged.
    const poll = await server.get(`/messages?connectionId=${connectionId}&after=2`);
    expect(poll.body).toEqual({ messages: [], seq: 2, more: false, closed: 'server-closed' });
    expect(server.app.stats()).toMatchObject({ sessions: 0, closedConnections: 1 });
  });

  it('refuses bad requests with a status and a code, and the connection keeps serving', async () => {
    const recorder = echoAgent();
    server = await startTestServer({
      agent: recorder.agent,
      authenticate: (request) => request.headers.get('authorization'),
      maxClientMessageBytes: 4_096,
      maxRequestBytes: 16_384,
    });
    const alice = { authorization: 'alice' };
    const { connectionId } = await opened(server, alice);
    const cases: Array<[string, Awaited<ReturnType<TestServer['post']>>, number, string, string?]> =
      [
        [
          'no content type',
          await server.post('/action', 'x', { ...alice, 'content-type': 'text/plain' }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        ],
        [
          'no principal',
          await server.post('/action', { connectionId, action: action('a') }),
          401,
          'UNAUTHORIZED',
        ],
        ['not JSON', await server.post('/action', '{"connectionId":', alice), 400, 'INVALID_JSON'],
        ['not an object', await server.post('/action', '[1]', alice), 400, 'VALIDATION_FAILED', ''],
        [
          'no connectionId',
          await server.post('/action', { action: action('a') }, alice),
          400,
          'VALIDATION_FAILED',
          '/connectionId',
        ],
        [
          'malformed connectionId',
          await server.post('/action', { connectionId: 'x', action: action('a') }, alice),
          400,
          'VALIDATION_FAILED',
          '/connectionId',
        ],
        [
          'no action',
          await server.post('/action', { connectionId }, alice),
          400,
          'VALIDATION_FAILED',
          '/action',
        ],
        [
          'invalid action',
          await server.post(
            '/action',
            { connectionId, action: { ...action('a'), timestamp: 5 } },
            alice,
          ),
          400,
          'VALIDATION_FAILED',
          '/action/timestamp',
        ],
        [
          'invalid metadata',
          await server.post(
            '/action',
            { connectionId, action: action('a'), metadata: { a2uiClientCapabilities: 3 } },
            alice,
          ),
          400,
          'VALIDATION_FAILED',
          '/metadata/a2uiClientCapabilities',
        ],
        [
          'unknown connection',
          await server.post(
            '/action',
            { connectionId: 'AAAAAAAAAAAAAAAAAAAAAA', action: action('a') },
            alice,
          ),
          404,
          'CONNECTION_CLOSED',
        ],
        [
          'another principal',
          await server.post(
            '/action',
            { connectionId, action: action('a') },
            { authorization: 'mallory' },
          ),
          403,
          'FORBIDDEN',
        ],
        [
          'message too large',
          await server.post(
            '/action',
            { connectionId, action: action('a', { blob: 'x'.repeat(8_000) }) },
            alice,
          ),
          413,
          'MESSAGE_TOO_LARGE',
        ],
        [
          'body too large',
          await server.post(
            '/action',
            { connectionId, action: action('a', { blob: 'x'.repeat(20_000) }) },
            alice,
          ),
          413,
          'MESSAGE_TOO_LARGE',
        ],
      ];
    for (const [name, answer, status, code, path] of cases) {
      expect([name, answer.status, answer.body.error?.code]).toEqual([name, status, code]);
      if (path !== undefined) expect([name, answer.body.error.path]).toEqual([name, path]);
    }
    const invalidAction = cases.find(([name]) => name === 'invalid action')![1];
    expect(invalidAction.body.error.issues).toEqual([
      expect.objectContaining({ path: '/action/timestamp' }),
    ]);
    expect(recorder.actions).toEqual([]);
    const fine = await server.post('/action', { connectionId, action: action('fine') }, alice);
    expect(fine.body.messages).toEqual([update('/last', 'fine')]);
  });

  it('answers 503 with Retry-After while the agent is busy beyond maxQueuedClientMessages', async () => {
    const hold = createDeferred<void>();
    const recorder = echoAgent({
      async onAction(_connection, event) {
        recorder.actions.push(event.name);
        await hold.promise;
      },
    });
    server = await startTestServer({
      agent: recorder.agent,
      maxQueuedClientMessages: 1,
      busyRetryAfterMs: 2_000,
    });
    const { connectionId } = await opened(server);
    const first = server.post('/action', { connectionId, action: action('first') });
    await eventually(() => recorder.actions.length === 1);
    const queued = server.post('/action', { connectionId, action: action('queued') });
    await eventually(() => server!.app.stats().queuedClientMessages === 1);
    const refused = await server.post('/action', { connectionId, action: action('refused') });
    expect([refused.status, refused.headers.get('retry-after'), refused.body.error.code]).toEqual([
      503,
      '2',
      'LIMIT_EXCEEDED',
    ]);
    hold.resolve();
    expect((await first).status).toBe(200);
    expect((await queued).status).toBe(200);
    expect(recorder.actions).toEqual(['first', 'queued']);
  });

  it('answers 408 when a body does not arrive within bodyTimeoutMs, and keeps serving', async () => {
    server = await startTestServer({ agent: echoAgent().agent, bodyTimeoutMs: 100 });
    const socket = connectTcp(server.node.port, '127.0.0.1');
    const response = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n') && text.includes('}')) resolve(text);
      });
    });
    socket.write(
      'POST /action HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"conn',
    );
    const text = await response;
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('"code":"TIMEOUT"');
    expect((await server.post('/connect', {})).status).toBe(200);
  });
});

describe('GET /messages', () => {
  it('answers at once when messages exist after `after`, else waits for the next push', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    expect(
      (await server.get(`/messages?connectionId=${connectionId}&after=0&waitMs=30000`)).body,
    ).toEqual({
      messages: [createMain],
      seq: 1,
      more: false,
    });
    const waiting = server.get(`/messages?connectionId=${connectionId}&after=1&waitMs=30000`);
    await eventually(
      () => server!.app.stats().polls === 1 && server!.app.stats().graceTimers === 0,
    );
    recorder.connections[0]!.send(update('/live', 1));
    expect((await waiting).body).toEqual({ messages: [update('/live', 1)], seq: 2, more: false });
    // Without waitMs it answers at once, empty.
    expect((await server.get(`/messages?connectionId=${connectionId}&after=2`)).body).toEqual({
      messages: [],
      seq: 2,
      more: false,
    });
  });

  it('caps waitMs at maxPollWaitMs and a poll answer at maxPollMessages (more: true)', async () => {
    const recorder = echoAgent({
      onConnect(connection) {
        recorder.connections.push(connection);
        connection.send([createMain, update('/a', 1), update('/b', 2)]);
      },
    });
    server = await startTestServer({
      agent: recorder.agent,
      maxPollWaitMs: 20,
      maxPollMessages: 2,
    });
    const { connectionId } = await opened(server);
    expect((await server.get(`/messages?connectionId=${connectionId}&after=0`)).body).toEqual({
      messages: [createMain, update('/a', 1)],
      seq: 2,
      more: true,
    });
    // An hour asked, 20 ms granted: it answers empty rather than hold the request.
    expect(
      (await server.get(`/messages?connectionId=${connectionId}&after=3&waitMs=3600000`)).body,
    ).toEqual({
      messages: [],
      seq: 3,
      more: false,
    });
  });

  it('acknowledges through `after`: the log lets go, and an older cursor is told to reset', async () => {
    const recorder = echoAgent();
    // The reset itself: with snapshots on, an older cursor gets one a2uiSnapshot entry instead.
    server = await startTestServer({ agent: recorder.agent, snapshots: false });
    const { connectionId } = await opened(server);
    recorder.connections[0]!.send([update('/a', 1), update('/b', 2)]);
    await server.get(`/messages?connectionId=${connectionId}&after=2`);
    const session = server.app.host.session(connectionId)!;
    expect(session.replayLog.size()).toMatchObject({ events: 1 });
    expect((await server.get(`/messages?connectionId=${connectionId}&after=1`)).body).toEqual({
      messages: [],
      seq: 1,
      more: false,
      reset: 'replay-gap',
    });
    // A cursor ahead of the connection is a reset too; the connection itself lives on.
    expect((await server.get(`/messages?connectionId=${connectionId}&after=9`)).body.reset).toBe(
      'replay-gap',
    );
    expect(server.app.host.session(connectionId)).toBeDefined();
  });

  it('answers a cursor beyond what was sent (after=999) with a reset at the real seq, and drops nothing', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    recorder.connections[0]!.send([update('/a', 1), update('/b', 2)]);
    const session = server.app.host.session(connectionId)!;
    expect(session.replayLog.size()).toMatchObject({ events: 3 });
    const forged = await server.get(`/messages?connectionId=${connectionId}&after=999`);
    expect(forged.status).toBe(200);
    // Not echoed back: the answer names the last message sent.
    expect(forged.body).toEqual({ messages: [], seq: 3, more: false, reset: 'replay-gap' });
    // The log keeps everything, so the client's real cursor reads on as before.
    expect(session.replayLog.size()).toMatchObject({ events: 3 });
    expect((await server.get(`/messages?connectionId=${connectionId}&after=1`)).body).toEqual({
      messages: [update('/a', 1), update('/b', 2)],
      seq: 3,
      more: false,
    });
    // The session lives on and is served.
    expect(server.app.host.session(connectionId)).toBe(session);
    const turn = await server.post('/action', { connectionId, action: action('go') });
    expect(turn.status).toBe(200);
    expect(recorder.actions).toEqual(['go']);
  });

  it('lets one poll per connection wait: a newer one supersedes it, and each message is answered once', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    const older = server.get(`/messages?connectionId=${connectionId}&after=1&waitMs=30000`);
    await eventually(() => server!.app.stats().polls === 1);
    const newer = server.get(`/messages?connectionId=${connectionId}&after=1&waitMs=30000`);
    expect((await older).body).toEqual({ messages: [], seq: 1, more: false, superseded: true });
    await eventually(() => server!.app.stats().polls === 1);
    recorder.connections[0]!.send(update('/once', true));
    expect((await newer).body).toEqual({ messages: [update('/once', true)], seq: 2, more: false });
    expect(server.app.stats().polls).toBe(0);
  });

  it('stops waiting when its client goes away, so the grace period starts', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    const abort = new AbortController();
    const poll = fetch(`${server.url}/messages?connectionId=${connectionId}&after=1&waitMs=30000`, {
      signal: abort.signal,
    }).catch(() => 'aborted');
    await eventually(
      () => server!.app.stats().polls === 1 && server!.app.stats().graceTimers === 0,
    );
    abort.abort();
    expect(await poll).toBe('aborted');
    await eventually(
      () => server!.app.stats().polls === 0 && server!.app.stats().graceTimers === 1,
    );
  });

  it('answers a waiting poll with the last messages and closed when the agent closes the connection', async () => {
    const recorder = echoAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { connectionId } = await opened(server);
    const poll = server.get(`/messages?connectionId=${connectionId}&after=1&waitMs=30000`);
    await eventually(() => server!.app.stats().polls === 1);
    recorder.connections[0]!.send(update('/final', true));
    recorder.connections[0]!.close();
    const answer = (await poll).body;
    // Woken by the push or by the close: either way nothing is lost and the end is said.
    const next =
      answer.closed === undefined
        ? (await server.get(`/messages?connectionId=${connectionId}&after=${answer.seq}`)).body
        : answer;
    expect(next.closed).toBe('server-closed');
    expect([...answer.messages, ...(next === answer ? [] : next.messages)]).toEqual([
      update('/final', true),
    ]);
  });

  it('refuses bad polls with a status and a code', async () => {
    server = await startTestServer({
      agent: echoAgent().agent,
      authenticate: (request) => request.headers.get('authorization'),
    });
    const { connectionId } = await opened(server, { authorization: 'alice' });
    const alice = { authorization: 'alice' };
    const cases: Array<[string, string, Record<string, string>, number, string]> = [
      ['no connectionId', '/messages?after=0', alice, 400, 'VALIDATION_FAILED'],
      [
        'bad after',
        `/messages?connectionId=${connectionId}&after=-1`,
        alice,
        400,
        'VALIDATION_FAILED',
      ],
      [
        'bad waitMs',
        `/messages?connectionId=${connectionId}&waitMs=soon`,
        alice,
        400,
        'VALIDATION_FAILED',
      ],
      [
        'unknown connection',
        '/messages?connectionId=AAAAAAAAAAAAAAAAAAAAAA',
        alice,
        404,
        'CONNECTION_CLOSED',
      ],
      [
        'another principal',
        `/messages?connectionId=${connectionId}`,
        { authorization: 'mallory' },
        403,
        'FORBIDDEN',
      ],
      ['no principal', `/messages?connectionId=${connectionId}`, {}, 401, 'UNAUTHORIZED'],
    ];
    for (const [name, path, headers, status, code] of cases) {
      const answer = await server.get(path, headers);
      expect([name, answer.status, answer.body.error?.code]).toEqual([name, status, code]);
    }
    const wrongMethod = await server.post('/messages', {});
    expect([
      wrongMethod.status,
      wrongMethod.headers.get('allow'),
      wrongMethod.body.error.code,
    ]).toEqual([405, 'GET', 'METHOD_NOT_ALLOWED']);
  });
});

describe('POST /disconnect', () => {
  it("ends the connection at once (onDisconnect('client-closed')), then knows it no more", async () => {
    const recorder = echoAgent();
    server = await startTestServer({
      agent: recorder.agent,
      authenticate: (request) => request.headers.get('authorization'),
    });
    const { connectionId } = await opened(server, { authorization: 'alice' });
    const forbidden = await server.post(
      '/disconnect',
      { connectionId },
      { authorization: 'mallory' },
    );
    expect(forbidden.status).toBe(403);
    const bye = await server.post('/disconnect', { connectionId }, { authorization: 'alice' });
    expect([bye.status, bye.body]).toEqual([200, { closed: true }]);
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['client-closed']);
    const again = await server.post('/disconnect', { connectionId }, { authorization: 'alice' });
    expect([again.status, again.body.error.code]).toEqual([404, 'CONNECTION_CLOSED']);
    const wrongMethod = await server.get('/disconnect', { authorization: 'alice' });
    expect(wrongMethod.status).toBe(405);
    expect(server.app.stats()).toMatchObject({ sessions: 0, polls: 0, closedConnections: 0 });
  });
});

describe('CORS', () => {
  it('answers preflights for the headers the client sends and exposes Retry-After', async () => {
    server = await startTestServer({
      agent: echoAgent().agent,
      cors: { origin: 'https://app.example' },
    });
    const preflight = await fetch(`${server.url}/action`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,idempotency-key,authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
    const answer = await fetch(`${server.url}/connect`, {
      method: 'POST',
      headers: { origin: 'https://app.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.headers.get('access-control-expose-headers')).toBe('Retry-After');
  });
});

describe('the session host behind it', () => {
  it('keeps a waiting poll out of the grace period, and ends an abandoned connection after it', async () => {
    const recorder = echoAgent();
    // Long enough that the poll surely arrives first, however loaded the machine.
    server = await startTestServer({ agent: recorder.agent, reconnectGraceMs: 1_000 });
    const { connectionId } = await opened(server);
    expect(server.app.stats().graceTimers).toBe(1);
    const poll = server.get(`/messages?connectionId=${connectionId}&after=1&waitMs=30000`);
    // While the poll waits no grace timer runs, so nothing can end the connection.
    await eventually(
      () => server!.app.stats().polls === 1 && server!.app.stats().graceTimers === 0,
    );
    recorder.connections[0]!.send(update('/still', 'here'));
    expect((await poll).body.messages).toEqual([update('/still', 'here')]);
    // Its client does not come back: the grace period ends it.
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['grace-expired']);
    await eventually(() => server!.app.stats().sessions === 0);
  });

  it('remembers a connection its agent closed, answers a retried connect with it, and forgets on close', async () => {
    let connects = 0;
    const recorder = echoAgent({
      onConnect(connection: Connection) {
        connects++;
        connection.send(createMain);
        connection.close();
      },
    });
    server = await startTestServer({ agent: recorder.agent });
    const answer = await server.post('/connect', {}, { 'idempotency-key': 'k' });
    expect(answer.body).toMatchObject({ messages: [createMain], seq: 1, closed: 'server-closed' });
    expect(server.app.stats()).toMatchObject({
      sessions: 0,
      closedConnections: 1,
      rememberedConnects: 1,
    });
    const retried = await server.post('/connect', {}, { 'idempotency-key': 'k' });
    expect(retried.body).toEqual(answer.body);
    expect(connects).toBe(1);
    await server.app.close();
    expect(server.app.stats()).toMatchObject({ closedConnections: 0, rememberedConnects: 0 });
  });
});
