/**
 * The server binding against raw `ws` sockets: the handshake refusals (Origin, authentication,
 * resume parameters, caps), every frame and close code, the heartbeat, and bad input that must
 * never disturb another socket.
 */
import { A2uiError, type ActionEvent, type Connection, type DisconnectReason } from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { action, set, surface } from '../../test/messages.js';
import {
  openRawSocket,
  type RawSocket,
  type Refusal,
  rawHandshake,
} from '../../test/raw-socket.js';
import { bearerProtocol } from '../protocol/bearer-token.js';
import { WS_SUBPROTOCOL } from '../protocol/wire.js';
import type { WsServerOptions } from './create-ws-server.js';

const envelope = (id: string, name: string) => JSON.stringify({ id, message: action(name) });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Recorder {
  connections: Connection[];
  actions: string[];
  disconnects: DisconnectReason[];
  principals: unknown[];
}

async function start(options: Partial<WsServerOptions> = {}): Promise<Recorder> {
  const recorder: Recorder = { connections: [], actions: [], disconnects: [], principals: [] };
  server = await startTestServer({
    reconnectGraceMs: 60_000,
    agent: {
      onConnect(connection) {
        recorder.connections.push(connection);
        recorder.principals.push(connection.principal);
        connection.send([surface, set('/n', 1)]);
      },
      onAction(_connection, event: ActionEvent) {
        recorder.actions.push(event.name);
      },
      onDisconnect(_connection, reason) {
        recorder.disconnects.push(reason);
      },
    },
    ...options,
  });
  return recorder;
}

/** A socket that is open and has its first frames (connected + the agent's two messages). */
async function openReady(path = '/ws', options: Parameters<typeof openRawSocket>[1] = {}) {
  const socket = openRawSocket(`${server!.url}${path}`, options);
  await socket.frame(3);
  return { socket, connectionId: JSON.parse(socket.frames[0]!).connectionId as string };
}

/** A refused handshake as status, `Retry-After` and body. */
const shutdownRefusal = (refusal: Refusal) => [
  refusal.status,
  refusal.headers['retry-after'],
  JSON.parse(refusal.body),
];
/** What a handshake refused by a shutdown with the hint `retryAfterMs` gets. */
const shutdownRefusalOf = (retryAfterMs: number) => [
  503,
  '1',
  {
    error: {
      code: 'CONNECTION_CLOSED',
      message: 'The server is shutting down; come back after retryAfterMs.',
      reason: 'server-closed',
      retryAfterMs,
    },
  },
];

const nextError = (socket: RawSocket) =>
  socket.until((text) => text.startsWith('{"type":"error"')).then((text) => JSON.parse(text));
const nextAck = (socket: RawSocket) =>
  socket.until((text) => text.startsWith('{"type":"ack"')).then((text) => JSON.parse(text));

describe('handshake', () => {
  it('selects the a2ui subprotocol, never echoes a bearer one, and accepts clients that offer none', async () => {
    await start();
    const offered = openRawSocket(`${server!.url}/ws`, {
      protocols: [WS_SUBPROTOCOL, bearerProtocol('t')],
    });
    expect(await offered.opened).toBe(true);
    expect(offered.ws.protocol).toBe(WS_SUBPROTOCOL);
    const plain = openRawSocket(`${server!.url}/ws`, { protocols: [] });
    expect(await plain.opened).toBe(true);
    expect(plain.ws.protocol).toBe('');
    offered.close();
    plain.close();
  });

  it('allows the same origin by default, and refuses another with 403 before the upgrade', async () => {
    const recorder = await start();
    const own = `http://127.0.0.1:${server!.node.port}`;
    expect(await openRawSocket(`${server!.url}/ws`, { origin: own }).opened).toBe(true);
    // Not from a browser: no Origin at all.
    expect(await openRawSocket(`${server!.url}/ws`).opened).toBe(true);
    const foreign = openRawSocket(`${server!.url}/ws`, { origin: 'https://evil.example' });
    expect(await foreign.opened).toBe(false);
    const refusal = await foreign.refusal;
    expect(refusal.status).toBe(403);
    expect(JSON.parse(refusal.body)).toEqual({
      error: { code: 'FORBIDDEN', message: 'Origin "https://evil.example" is not allowed.' },
    });
    await eventually(() => recorder.connections.length === 2);
    expect(recorder.connections).toHaveLength(2);
  });

  it('takes an allow-list, "*", or a function', async () => {
    await start({ allowedOrigins: ['https://App.example.com/'] });
    const allowed = openRawSocket(`${server!.url}/ws`, { origin: 'https://app.example.com' });
    expect(await allowed.opened).toBe(true);
    expect(
      (await openRawSocket(`${server!.url}/ws`, { origin: 'https://other.example.com' }).refusal)
        .status,
    ).toBe(403);
    await server!.close();
    await start({ allowedOrigins: '*' });
    expect(await openRawSocket(`${server!.url}/ws`, { origin: 'https://any.example' }).opened).toBe(
      true,
    );
    await server!.close();
    const seen: Array<string | undefined> = [];
    await start({
      allowedOrigins: (origin) => {
        seen.push(origin);
        return origin !== undefined;
      },
    });
    expect((await openRawSocket(`${server!.url}/ws`).refusal).status).toBe(403);
    expect(await openRawSocket(`${server!.url}/ws`, { origin: 'null' }).opened).toBe(true);
    expect(seen).toEqual([undefined, 'null']);
  });

  it('hands a token from the subprotocol, the query (when accepted) or the header to authenticate, and cookies as they are', async () => {
    const seen: Array<{ authorization: string | null; cookie: string | null }> = [];
    const recorder = await start({
      acceptTokenIn: ['subprotocol', 'query'],
      authenticate(request) {
        seen.push({
          authorization: request.headers.get('authorization'),
          cookie: request.headers.get('cookie'),
        });
        const authorization = request.headers.get('authorization');
        if (authorization === 'Bearer nobody')
          throw new A2uiError('FORBIDDEN', 'This user may not use the agent.');
        if (authorization === 'Bearer crash') throw new Error('database down');
        return authorization?.replace('Bearer ', '') ?? request.headers.get('cookie') ?? undefined;
      },
    });
    const url = `${server!.url}/ws`;
    const viaProtocol = openRawSocket(url, {
      protocols: [WS_SUBPROTOCOL, bearerProtocol('ådå')],
    });
    expect(await viaProtocol.opened).toBe(true);
    expect(await openRawSocket(`${url}?access_token=bob`).opened).toBe(true);
    expect(await openRawSocket(url, { headers: { authorization: 'Bearer carol' } }).opened).toBe(
      true,
    );
    expect(await openRawSocket(url, { headers: { cookie: 'session=dan' } }).opened).toBe(true);
    await eventually(() => recorder.principals.length === 4);
    expect(recorder.principals).toEqual(['ådå', 'bob', 'carol', 'session=dan']);
    expect(seen[3]).toEqual({ authorization: null, cookie: 'session=dan' });

    const none = await openRawSocket(url).refusal;
    expect([none.status, JSON.parse(none.body).error.code]).toEqual([401, 'UNAUTHORIZED']);
    const forbidden = await openRawSocket(url, {
      protocols: [WS_SUBPROTOCOL, bearerProtocol('nobody')],
    }).refusal;
    expect([forbidden.status, JSON.parse(forbidden.body).error]).toEqual([
      403,
      { code: 'FORBIDDEN', message: 'This user may not use the agent.' },
    ]);
    // A crashing hook is logged (by the session host) and answered 500, hiding what crashed.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const crashed = await openRawSocket(url, {
      protocols: [WS_SUBPROTOCOL, bearerProtocol('crash')],
    }).refusal;
    expect([crashed.status, JSON.parse(crashed.body).error]).toEqual([
      500,
      { code: 'INTERNAL_ERROR', message: 'Authentication failed with an internal error.' },
    ]);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
    expect(recorder.connections).toHaveLength(4);
  });

  it('ignores a token in the query unless it is accepted there', async () => {
    await start({
      authenticate: (request) => request.headers.get('authorization') ?? undefined,
    });
    const refused = await openRawSocket(`${server!.url}/ws?access_token=bob`).refusal;
    expect(refused.status).toBe(401);
  });

  it("refuses another principal's resume with 403 and leaves the owner's socket alone", async () => {
    const recorder = await start({
      authenticate: (request) => request.headers.get('authorization')?.slice(7) ?? undefined,
    });
    const alice = await openReady('/ws', {
      protocols: [WS_SUBPROTOCOL, bearerProtocol('alice')],
    });
    const mallory = openRawSocket(
      `${server!.url}/ws?connectionId=${alice.connectionId}&lastSeq=0`,
      {
        protocols: [WS_SUBPROTOCOL, bearerProtocol('mallory')],
      },
    );
    const refusal = await mallory.refusal;
    expect([refusal.status, JSON.parse(refusal.body).error.code]).toEqual([403, 'FORBIDDEN']);
    recorder.connections[0]!.send(set('/still', 'alice'));
    expect(await alice.socket.frame(4)).toContain(JSON.stringify(set('/still', 'alice')));
    alice.socket.send(envelope('a1', 'mine'));
    expect(await nextAck(alice.socket)).toEqual({ type: 'ack', id: 'a1' });
    expect(recorder.actions).toEqual(['mine']);
    expect(recorder.connections).toHaveLength(1);
    expect(recorder.disconnects).toEqual([]);
  });

  it('refuses malformed resume parameters with 400, and answers other paths 404 and plain GETs 426', async () => {
    const recorder = await start();
    for (const query of ['connectionId=short', 'connectionId=AAAAAAAAAAAAAAAAAAAAAA&lastSeq=-1']) {
      const refusal = await openRawSocket(`${server!.url}/ws?${query}`).refusal;
      expect([refusal.status, JSON.parse(refusal.body).error.code]).toEqual([
        400,
        'VALIDATION_FAILED',
      ]);
    }
    expect((await openRawSocket(`${server!.url}/elsewhere`).refusal).status).toBe(404);
    const plain = await fetch(`${server!.url.replace('ws:', 'http:')}/ws`);
    expect(plain.status).toBe(426);
    expect(recorder.connections).toHaveLength(0);
  });

  it('refuses a handshake that is not a WebSocket one before opening a connection', async () => {
    const recorder = await start();
    const response = await rawHandshake(
      server!.node.port,
      [
        'GET /ws HTTP/1.1',
        'Host: 127.0.0.1',
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
      ],
      'end',
    );
    expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*"VALIDATION_FAILED"/);
    expect(recorder.connections).toHaveLength(0);
  });

  it('refuses a new connection beyond maxSessions with 503 and Retry-After, and evicts one without a socket first', async () => {
    const recorder = await start({ maxSessions: 1 });
    const first = await openReady();
    const refusal = await openRawSocket(`${server!.url}/ws`).refusal;
    expect(refusal.status).toBe(503);
    expect(refusal.headers['retry-after']).toBe('5');
    expect(JSON.parse(refusal.body).error.code).toBe('LIMIT_EXCEEDED');
    first.socket.close(4001);
    await eventually(() => server!.a2ui.stats().graceTimers === 1);
    await openReady();
    expect(recorder.disconnects).toEqual(['grace-expired']);
    expect(server!.a2ui.stats()).toMatchObject({ evictedSessions: 1, refusedSessions: 1 });
  });
});

describe('frames', () => {
  it('answers bad frames with error frames, keeps the socket, and never disturbs another socket', async () => {
    const recorder = await start();
    const { socket } = await openReady();
    const other = await openReady();
    const bad = [
      ['not json', 'INVALID_JSON', undefined],
      ['[1,2]', 'VALIDATION_FAILED', ''],
      ['{"id":5,"message":{}}', 'VALIDATION_FAILED', '/id'],
      ['{"hello":"world"}', 'VALIDATION_FAILED', ''],
      ['{"type":"ack","seq":-1}', 'VALIDATION_FAILED', '/seq'],
      ['{"type":"ack","seq":"2"}', 'VALIDATION_FAILED', '/seq'],
      [
        '{"id":"x1","message":{"version":"v0.8","action":{}}}',
        'VALIDATION_FAILED',
        '/message/version',
      ],
      [
        JSON.stringify({ id: 'x2', message: action('m'), metadata: { a2uiClientDataModel: 5 } }),
        'VALIDATION_FAILED',
        '/metadata/a2uiClientDataModel',
      ],
      [JSON.stringify({ id: 'x'.repeat(300), message: action('m') }), 'VALIDATION_FAILED', '/id'],
      // Twice: an empty id is no key, or the second would be a silent duplicate.
      [JSON.stringify({ id: '', message: action('m') }), 'VALIDATION_FAILED', '/id'],
      [JSON.stringify({ id: '', message: action('m2') }), 'VALIDATION_FAILED', '/id'],
    ] as const;
    for (const [frame, code, path] of bad) {
      socket.send(frame);
      const error = await nextError(socket);
      expect({ frame, code: error.error.code, path: error.error.path }).toEqual({
        frame,
        code,
        path,
      });
    }
    socket.send(envelope('ok', 'after'));
    expect(await nextAck(socket)).toEqual({ type: 'ack', id: 'ok' });
    other.socket.send(envelope('o1', 'other'));
    expect(await nextAck(other.socket)).toEqual({ type: 'ack', id: 'o1' });
    expect(recorder.actions).toEqual(['after', 'other']);
    expect(recorder.disconnects).toEqual([]);
  });

  it('answers a frame that is not JSON with one fixed message: no parser text, no echo of the frame', async () => {
    await start();
    const { socket } = await openReady();
    for (const frame of ['{"id":', 'secret-token-abc', '{"a":1}}', '\u0000']) {
      socket.send(frame);
      expect((await nextError(socket)).error).toEqual({
        code: 'INVALID_JSON',
        message: 'The frame is not valid JSON.',
      });
    }
    socket.send(envelope('ok', 'after'));
    expect(await nextAck(socket)).toEqual({ type: 'ack', id: 'ok' });
  });

  it('closes with 1003 on a binary frame, 1007 on invalid UTF-8 and 1009 above maxPayloadBytes; the connections wait for their resume', async () => {
    const recorder = await start({ maxPayloadBytes: 1_024 });
    const binary = await openReady();
    const utf8 = await openReady();
    const large = await openReady();
    const bystander = await openReady();
    binary.socket.send(Buffer.from([0xde, 0xad]), { binary: true });
    utf8.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    large.socket.send('x'.repeat(1_025));
    expect((await binary.socket.closed).code).toBe(1003);
    expect((await utf8.socket.closed).code).toBe(1007);
    expect((await large.socket.closed).code).toBe(1009);
    await eventually(() => server!.a2ui.stats().graceTimers === 3);
    bystander.socket.send(envelope('b1', 'still here'));
    expect(await nextAck(bystander.socket)).toEqual({ type: 'ack', id: 'b1' });
    // The refused sockets' connections resume as if the link had dropped.
    const resumed = openRawSocket(
      `${server!.url}/ws?connectionId=${binary.connectionId}&lastSeq=2`,
    );
    expect(JSON.parse((await resumed.frame(1))[0]!)).toMatchObject({
      type: 'connected',
      resumed: true,
    });
    expect(recorder.disconnects).toEqual([]);
  });

  it('de-duplicates by id across sockets, and acknowledges a bare message without an id', async () => {
    const recorder = await start();
    const first = await openReady();
    first.socket.send(envelope('r1', 'once'));
    expect(await nextAck(first.socket)).toEqual({ type: 'ack', id: 'r1' });
    first.socket.close(4001);
    const second = openRawSocket(`${server!.url}/ws?connectionId=${first.connectionId}&lastSeq=2`);
    await second.frame(1);
    second.send(envelope('r1', 'once'));
    expect(await nextAck(second)).toEqual({ type: 'ack', id: 'r1', duplicate: true });
    second.send(JSON.stringify(action('bare')));
    expect(await nextAck(second)).toEqual({ type: 'ack' });
    expect(recorder.actions).toEqual(['once', 'bare']);
  });

  it('refuses a message naming another connection with FORBIDDEN, and that connection gets nothing', async () => {
    const recorder = await start();
    const victim = await openReady();
    const attacker = await openReady();
    attacker.socket.send(
      JSON.stringify({ id: 's1', connectionId: victim.connectionId, message: action('stolen') }),
    );
    expect((await nextError(attacker.socket)).error.code).toBe('FORBIDDEN');
    attacker.socket.send(
      JSON.stringify({ id: 's2', connectionId: attacker.connectionId, message: action('own') }),
    );
    expect(await nextAck(attacker.socket)).toEqual({ type: 'ack', id: 's2' });
    expect(recorder.actions).toEqual(['own']);
  });

  it('trims the replay log on a seq acknowledgement, and answers ping with pong', async () => {
    // The reset itself: with snapshots on, a resume from before the ack gets an a2uiSnapshot.
    await start({ snapshots: false });
    const { socket, connectionId } = await openReady();
    const session = server!.a2ui.host.session(connectionId)!;
    expect((await session.replayLog.size()).events).toBe(2);
    socket.send('{"type":"ack","seq":2}');
    socket.send('{"type":"ping"}');
    await socket.until((text) => text === '{"type":"pong"}');
    expect((await session.replayLog.size()).events).toBe(0);
    // A resume from what was acknowledged still works; one from before it resets.
    socket.close(4001);
    const resumed = openRawSocket(`${server!.url}/ws?connectionId=${connectionId}&lastSeq=2`);
    expect(JSON.parse((await resumed.frame(1))[0]!).resumed).toBe(true);
    resumed.close(4001);
    const behind = openRawSocket(`${server!.url}/ws?connectionId=${connectionId}&lastSeq=1`);
    expect(JSON.parse((await behind.frame(1))[0]!)).toEqual({
      type: 'reset',
      reason: 'replay-gap',
    });
  });

  it('refuses a seq acknowledgement beyond what was sent with an error frame, and trims nothing', async () => {
    const recorder = await start();
    const { socket, connectionId } = await openReady();
    const session = server!.a2ui.host.session(connectionId)!;
    expect((await session.replayLog.size()).events).toBe(2);
    socket.send('{"type":"ack","id":"k1","seq":999}');
    // Control frames are answered as they settle: after two ping round trips (the second ping is
    // read in a later event-loop turn than the ack) the in-memory host has answered the ack.
    for (let round = 0; round < 2; round++) {
      socket.send('{"type":"ping"}');
      await socket.until((text) => text === '{"type":"pong"}');
    }
    const refusal = socket.frames.find((text) => text.startsWith('{"type":"error"'));
    expect(JSON.parse(refusal ?? 'null')).toEqual({
      type: 'error',
      id: 'k1',
      error: {
        code: 'VALIDATION_FAILED',
        message: 'seq 999 is beyond the last message sent (2).',
        path: '/seq',
      },
    });
    expect((await session.replayLog.size()).events).toBe(2);
    // The socket and its session go on: an action is acknowledged, a resume replays everything.
    socket.send(envelope('a1', 'after'));
    expect(await nextAck(socket)).toEqual({ type: 'ack', id: 'a1' });
    expect(recorder.actions).toEqual(['after']);
    socket.close(4001);
    const resumed = openRawSocket(`${server!.url}/ws?connectionId=${connectionId}&lastSeq=0`);
    expect(JSON.parse((await resumed.frame(3))[0]!)).toMatchObject({ resumed: true, replayed: 2 });
    expect(recorder.disconnects).toEqual([]);
  });

  it('echoes at most the first maxRequestIdLength characters of an over-long id in its error frame', async () => {
    await start();
    const { socket } = await openReady();
    const longId = 'i'.repeat(900_000);
    socket.send(envelope(longId, 'too-long'));
    const refused = await nextError(socket);
    expect(refused.error.code).toBe('VALIDATION_FAILED');
    expect(refused.id).toBe('i'.repeat(256));
    // An id of the bound's length is echoed whole.
    socket.send(JSON.stringify({ id: 'j'.repeat(256), type: 'nope' }));
    expect((await nextError(socket)).id).toBe('j'.repeat(256));
    socket.send(JSON.stringify({ id: 'k'.repeat(300_000), type: 'nope' }));
    expect((await nextError(socket)).id).toBe('k'.repeat(256));
  });

  it("bounds the echo by the server's own maxRequestIdLength", async () => {
    await start({ maxRequestIdLength: 20 });
    const { socket } = await openReady();
    socket.send(envelope('m'.repeat(21), 'too-long'));
    expect((await nextError(socket)).id).toBe('m'.repeat(20));
  });

  it('keeps the order after a busy refusal: later messages are refused until the refused one comes again', async () => {
    const gate = createDeferred();
    const handled: string[] = [];
    server = await startTestServer({
      maxQueuedClientMessages: 1,
      agent: {
        onConnect: (connection) => connection.send([surface, set('/n', 1)]),
        async onAction(_connection, event) {
          handled.push(event.name);
          if (event.name === 'slow') await gate.promise;
        },
      },
    });
    const { socket } = await openReady();
    socket.send(envelope('m1', 'slow'));
    socket.send(envelope('m2', 'waits'));
    socket.send(envelope('m3', 'refused'));
    socket.send(envelope('m4', 'after'));
    const refused = [await nextError(socket), await nextError(socket)];
    expect(refused.map((frame) => [frame.id, frame.error.code])).toEqual([
      ['m3', 'LIMIT_EXCEEDED'],
      ['m4', 'LIMIT_EXCEEDED'],
    ]);
    expect(refused[0].error.retryAfterMs).toBe(1_000);
    gate.resolve();
    await eventually(() => handled.length === 2);
    // The agent is free now, but a new message may not overtake the refused ones.
    socket.send(envelope('m5', 'new'));
    expect((await nextError(socket)).id).toBe('m5');
    socket.send(envelope('m3', 'refused'));
    socket.send(envelope('m4', 'after'));
    socket.send(envelope('m5', 'new'));
    await eventually(() => handled.length === 5);
    expect(handled).toEqual(['slow', 'waits', 'refused', 'after', 'new']);
  });
});

describe('lifecycle', () => {
  it('ends the connection at once when the client closes with 1000, and waits out the grace period otherwise', async () => {
    const recorder = await start();
    const leaving = await openReady();
    leaving.socket.close(1000, 'client-closed');
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['client-closed']);
    const dropping = await openReady();
    dropping.socket.close(1001);
    await eventually(() => server!.a2ui.stats().graceTimers === 1);
    expect(server!.a2ui.host.session(dropping.connectionId)).toBeDefined();
    expect(recorder.disconnects).toEqual(['client-closed']);
  });

  it('terminates a peer that stops answering pings; its connection waits for a resume', async () => {
    const recorder = await start({ pingIntervalMs: 20 });
    const socket = openRawSocket(`${server!.url}/ws`, { autoPong: false });
    await socket.frame(3);
    expect((await socket.closed).code).toBe(1006);
    await eventually(() => server!.a2ui.stats().graceTimers === 1);
    expect(server!.a2ui.stats()).toMatchObject({ unresponsiveLinks: 1, sockets: 0, links: 0 });
    expect(recorder.disconnects).toEqual([]);
    // A peer that answers stays, and gets a heartbeat frame while idle.
    const healthy = openRawSocket(`${server!.url}/ws`);
    await healthy.until((text) => text === '{"type":"heartbeat"}');
    await healthy.until((text) => text === '{"type":"heartbeat"}');
    expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
  });

  it('close() closes every socket with 1012 and a retry hint, refuses later handshakes with 503, and stops the heartbeat', async () => {
    const recorder = await start();
    const sockets = [await openReady(), await openReady()];
    expect(server!.a2ui.stats().heartbeatTimer).toBe(true);
    await server!.a2ui.close();
    for (const { socket } of sockets)
      expect(await socket.closed).toEqual({
        code: 1012,
        reason: '{"reason":"server-closed","retryAfterMs":1000}',
      });
    expect(recorder.disconnects).toEqual(['server-closed', 'server-closed']);
    expect(server!.a2ui.stats()).toMatchObject({ sessions: 0, sockets: 0, heartbeatTimer: false });
    const late = await openRawSocket(`${server!.url}/ws`).refusal;
    expect(shutdownRefusal(late)).toEqual(shutdownRefusalOf(1000));
  });

  it('close() refuses a handshake still in authenticate with the shutdown answer, and opens nothing for it once authenticate returns', async () => {
    const gate = createDeferred<void>();
    let authenticating = 0;
    const recorder = await start({
      restartRetryAfterMs: 250,
      async authenticate() {
        authenticating++;
        await gate.promise;
        return 'ada';
      },
    });
    const held = openRawSocket(`${server!.url}/ws`);
    await eventually(() => authenticating === 1);
    expect(server!.a2ui.stats().pendingUpgrades).toBe(1);
    await server!.a2ui.close();
    const refusal = await held.refusal;
    expect(shutdownRefusal(refusal)).toEqual(shutdownRefusalOf(250));
    // authenticate returns after the shutdown: no connection, no socket.
    gate.resolve();
    await eventually(() => server!.a2ui.stats().pendingUpgrades === 0);
    expect(recorder.connections).toEqual([]);
    expect(server!.a2ui.stats()).toMatchObject({ sessions: 0, sockets: 0, links: 0 });
  });
});
