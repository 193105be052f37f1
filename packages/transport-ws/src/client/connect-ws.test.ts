/**
 * The client against a real server (and, for misbehaviour no real server shows, a raw `ws`
 * server): refusals, silent links found by the heartbeat and by a wake-up probe, lost
 * acknowledgements, oversized frames, tokens, leaving. Every wait is an event; the only clocks are
 * the heartbeat and probe timeouts under test.
 */
import type { AddressInfo } from 'node:net';
import { A2uiClient, A2uiError, type Connection, type DisconnectReason } from '@a2ui-ts/core';
import { createDeferred, recordTransport } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../../test/harness.js';
import { action, metadata, set, surface } from '../../test/messages.js';
import { formatConnectedFrame } from '../protocol/frames.js';
import { connectWs } from './connect-ws.js';

let server: TestServer | undefined;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await server?.close();
  server = undefined;
});

function recordingAgent() {
  const connections: Connection[] = [];
  const actions: string[] = [];
  const disconnects: DisconnectReason[] = [];
  return {
    connections,
    actions,
    disconnects,
    agent: {
      onConnect(connection: Connection) {
        connections.push(connection);
        connection.send(surface);
      },
      onAction(_connection: Connection, event: { name: string }) {
        actions.push(event.name);
      },
      onDisconnect(_connection: Connection, reason: DisconnectReason) {
        disconnects.push(reason);
      },
    },
  };
}

/** A raw `ws` server that speaks as the test says. */
async function rawServer(onSocket: (socket: WebSocket, url: URL) => void) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket, request) =>
    onSocket(socket, new URL(request.url ?? '/', 'http://localhost')),
  );
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  );
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

const CONNECTION_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';
const connectedFrame = (resumed = false) =>
  formatConnectedFrame({
    connectionId: CONNECTION_ID,
    resumed,
    replayed: 0,
    heartbeatIntervalMs: 0,
  });

describe('connectWs', () => {
  it('needs a WebSocket implementation in Node 20, and refuses a URL that is not one', () => {
    expect(() => connectWs({ url: 'ws://127.0.0.1:1' })).toThrow(
      expect.objectContaining({ code: 'NOT_SUPPORTED' }),
    );
    expect(() => connectWs({ url: 'ftp://example.com', WebSocket })).toThrow(
      expect.objectContaining({ code: 'TRANSPORT_ERROR' }),
    );
    expect(() => connectWs({ url: '/relative', WebSocket })).toThrow(
      expect.objectContaining({ code: 'TRANSPORT_ERROR' }),
    );
  });

  it('opens {url}/ws on an http: URL as ws:, and resolves a relative URL against the page', async () => {
    const recorder = recordingAgent();
    server = await startTestServer({ agent: recorder.agent, basePath: '/a2ui' });
    const http = server.connect({ url: `${server.url.replace('ws:', 'http:')}/a2ui/` });
    const recording = recordTransport(http);
    await recording.until(() => recording.messages().length === 1);
    await http.close();
    vi.stubGlobal('location', { href: `${server.url.replace('ws:', 'http:')}/page/index.html` });
    try {
      const relative = server.connect({ url: '/a2ui' });
      const relativeRecording = recordTransport(relative);
      await relativeRecording.until(() => relativeRecording.messages().length === 1);
      await relative.close();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(recorder.connections).toHaveLength(2);
  });

  it('closes for good on 401 and 403 (ws reports the status), and retries a 503 with backoff', async () => {
    server = await startTestServer({
      maxSessions: 1,
      agent: recordingAgent().agent,
      authenticate(request) {
        const token = request.headers.get('authorization');
        if (token === 'Bearer banned') throw new A2uiError('FORBIDDEN', 'Banned.');
        return token === 'Bearer ok' ? 'user' : undefined;
      },
    });
    const anonymous = new A2uiClient({ transport: server.connect() });
    await expect(anonymous.connect()).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      data: { httpStatus: 401 },
    });
    const banned = new A2uiClient({ transport: server.connect({ token: 'banned' }) });
    await expect(banned.connect()).rejects.toMatchObject({
      code: 'FORBIDDEN',
      data: { httpStatus: 403 },
    });

    // The cap: one connection with a socket; a second is refused with 503 and retried.
    const holder = server.connect({ token: 'ok' });
    const holding = recordTransport(holder);
    await holding.until(() => holding.messages().length === 1);
    const waiting = server.connect({ token: 'ok' });
    const waitingRecording = recordTransport(waiting);
    await waitingRecording.until(() =>
      waitingRecording.statuses().some((line) => line.includes('HTTP 503')),
    );
    expect(waiting.status).toBe('reconnecting');
    await holder.close();
    await waitingRecording.until(() => waitingRecording.messages().length === 1);
    await waiting.close();
  });

  it('finds a black-holed link by its heartbeat timeout, resumes, and loses or repeats nothing', async () => {
    const recorder = recordingAgent();
    server = await startTestServer({ agent: recorder.agent, pingIntervalMs: 20 });
    const { transport, proxy } = await server.connectThroughProxy({ heartbeatTimeoutMs: 150 });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    // A laptop that slept, a dead NAT entry: no FIN, no RST, nothing.
    proxy.setBlackhole(true);
    recorder.connections[0]!.send(set('/during', 'the outage'));
    const sent = transport.send(action('queued'), metadata);
    await recording.until(() =>
      recording.statuses().some((line) => line.includes('heartbeat timeout')),
    );
    // The server found it too: the peer stopped answering its pings.
    await eventually(() => server!.a2ui.stats().unresponsiveLinks === 1);
    proxy.setBlackhole(false);
    await sent;
    recorder.connections[0]!.send(set('/after', 'resume'));
    await recording.until(() => recording.messages().length === 3);
    expect(recording.messages()).toEqual([
      surface,
      set('/during', 'the outage'),
      set('/after', 'resume'),
    ]);
    expect(recorder.actions).toEqual(['queued']);
    expect(recorder.connections).toHaveLength(1);
    // Resumed, not reset: the same connection, its surfaces kept.
    expect(recording.events.filter((event) => event.type === 'reset')).toEqual([]);
    expect(transport.connectionId).toBe(recorder.connections[0]!.id);
    await transport.close();
  });

  it('on wake-up, probes the socket and replaces it at once when the probe goes unanswered', async () => {
    const recorder = recordingAgent();
    server = await startTestServer({ agent: recorder.agent });
    let wakeUp: () => void = () => {};
    const { transport, proxy } = await server.connectThroughProxy({
      heartbeatTimeoutMs: 0,
      probeTimeoutMs: 50,
      // A reconnect that waited for the backoff would not finish within the test's timeout.
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
      wake: (listener) => {
        wakeUp = listener;
        return () => {
          if (wakeUp === listener) wakeUp = () => {};
        };
      },
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    // A healthy socket answers the probe and stays.
    wakeUp();
    await eventually(() => proxy.accepted === 1 && transport.status === 'open');
    proxy.setBlackhole(true);
    wakeUp();
    await recording.until(() =>
      recording.statuses().some((line) => line.includes('No answer to a ping')),
    );
    proxy.setBlackhole(false);
    await recording.until(() => recording.statuses().at(-1)?.startsWith('open: Resumed') ?? false);
    expect(proxy.accepted).toBe(2);
    expect(recorder.connections).toHaveLength(1);
    await transport.close();
  });

  it('on wake-up after a long silence, replaces the socket without probing', async () => {
    const recorder = recordingAgent();
    server = await startTestServer({ agent: recorder.agent, pingIntervalMs: 1_000 });
    let wakeUp: () => void = () => {};
    const { transport, proxy } = await server.connectThroughProxy({
      heartbeatTimeoutMs: 0,
      probeTimeoutMs: 60_000,
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
      wake: (listener) => {
        wakeUp = listener;
        return () => {};
      },
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    // Only the clock moves: the page slept longer than two heartbeat intervals.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + 5_000);
    wakeUp();
    vi.useRealTimers();
    await recording.until(() => recording.statuses().at(-1)?.startsWith('open: Resumed') ?? false);
    expect(
      recording.statuses().some((line) => line.includes('without a frame; reconnecting')),
    ).toBe(true);
    expect(proxy.accepted).toBe(2);
    await transport.close();
  });

  it('queues messages while the link is down and delivers each once after it comes back', async () => {
    const recorder = recordingAgent();
    server = await startTestServer({ agent: recorder.agent });
    const { transport, proxy } = await server.connectThroughProxy();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    proxy.setRefusing(true);
    proxy.drop();
    await recording.until(() => transport.status === 'reconnecting');
    const sends = ['a', 'b', 'c'].map((name) => transport.send(action(name), metadata));
    expect(transport.pendingMessages).toBe(3);
    proxy.setRefusing(false);
    await Promise.all(sends);
    expect(recorder.actions).toEqual(['a', 'b', 'c']);
    await transport.close();
  });

  it('sends a message again on the next socket when its acknowledgement does not come, with the same id', async () => {
    const frames: Array<{ socket: number; frame: string }> = [];
    let sockets = 0;
    const url = await rawServer((socket) => {
      const number = ++sockets;
      socket.send(connectedFrame(number > 1));
      socket.on('message', (data) => {
        const text = data.toString();
        frames.push({ socket: number, frame: text });
        // The first socket swallows the message; the second acknowledges it.
        if (number > 1 && text.startsWith('{"id"')) {
          const { id } = JSON.parse(text);
          socket.send(JSON.stringify({ type: 'ack', id }));
        }
      });
    });
    const transport = connectWs({
      url,
      WebSocket,
      reconnect: FAST_RECONNECT,
      ackTimeoutMs: 100,
      createRequestId: () => 'only-id',
    });
    const recording = recordTransport(transport);
    await recording.until(() => transport.status === 'open');
    await transport.send(action('lost ack'), metadata);
    const sent = frames.filter((entry) => entry.frame.startsWith('{"id"'));
    expect(sent.map((entry) => [entry.socket, JSON.parse(entry.frame).id])).toEqual([
      [1, 'only-id'],
      [2, 'only-id'],
    ]);
    expect(
      recording.statuses().some((line) => line.includes('No acknowledgement within 100 ms')),
    ).toBe(true);
    await transport.close();
  });

  it('drops a socket whose server sends garbage, and resumes', async () => {
    const plan = ['binary', 'before-connected', 'bad-control', 'good'];
    const url = await rawServer((socket) => {
      const step = plan.shift() ?? 'good';
      if (step === 'binary') {
        socket.send(connectedFrame());
        socket.send(Buffer.from([1, 2, 3]));
      } else if (step === 'before-connected') socket.send(JSON.stringify(surface));
      else if (step === 'bad-control') socket.send('{"type":"connected",');
      else {
        socket.send(connectedFrame(true));
        socket.send(JSON.stringify(surface));
      }
    });
    const transport = connectWs({ url, WebSocket, reconnect: FAST_RECONNECT });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    const problems = recording.statuses().filter((line) => line.includes('Protocol error'));
    expect(problems).toEqual([
      expect.stringContaining('the server sent a binary frame'),
      expect.stringContaining('a message arrived before the connected frame'),
      expect.stringContaining('a control frame is not JSON'),
    ]);
    await transport.close();
  });

  it('fails a message above maxMessageBytes locally, and one above the server frame limit after a 1009', async () => {
    const recorder = recordingAgent();
    server = await startTestServer({ agent: recorder.agent, maxPayloadBytes: 4_096 });
    const transport = server.connect({ maxMessageBytes: 64 * 1024 });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await expect(
      transport.send(action('huge', { blob: 'x'.repeat(70_000) }), metadata),
    ).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE' });
    await expect(
      transport.send(action('big', { blob: 'x'.repeat(8_000) }), metadata),
    ).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE' });
    // The socket closed with 1009 and the connection resumed: the next message goes through.
    await transport.send(action('small'), metadata);
    expect(recorder.actions).toEqual(['small']);
    expect(recorder.connections).toHaveLength(1);
    await transport.close();
  });

  it('asks for the token before every connect, so a refreshed token is used on resume', async () => {
    const principals: unknown[] = [];
    server = await startTestServer({
      agent: recordingAgent().agent,
      isSamePrincipal: (bound, current) => String(current).startsWith(String(bound).slice(0, 4)),
      authenticate(request) {
        const principal = request.headers.get('authorization')?.slice(7);
        principals.push(principal);
        return principal;
      },
    });
    let version = 0;
    const { transport, proxy } = await server.connectThroughProxy({
      token: async () => `user-v${++version}`,
    });
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    proxy.drop();
    await recording.until(() => recording.statuses().at(-1)?.startsWith('open: Resumed') ?? false);
    expect(principals).toEqual(['user-v1', 'user-v2']);
    await transport.close();
  });

  it('says goodbye with 1000 on close(), and closes when its signal aborts', async () => {
    const recorder = recordingAgent();
    server = await startTestServer({ agent: recorder.agent });
    const transport = server.connect();
    const recording = recordTransport(transport);
    await recording.until(() => recording.messages().length === 1);
    await transport.close();
    await eventually(() => recorder.disconnects.length === 1);
    expect(recorder.disconnects).toEqual(['client-closed']);
    await expect(transport.send(action('late'), metadata)).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });

    const abort = new AbortController();
    const aborted = server.connect({ signal: abort.signal });
    const abortedRecording = recordTransport(aborted);
    await abortedRecording.until(() => abortedRecording.messages().length === 1);
    abort.abort();
    await abortedRecording.done;
    await eventually(() => recorder.disconnects.length === 2);
    expect(abortedRecording.statuses().at(-1)).toBe('closed: Closed by the client.');
    await eventually(() => server!.a2ui.stats().sessions === 0);
  });

  it('closes for good when the agent closes the connection or another socket takes it over', async () => {
    const closing = createDeferred<Connection>();
    server = await startTestServer({
      agent: { onConnect: (connection) => closing.resolve(connection) },
    });
    const transport = server.connect();
    const recording = recordTransport(transport);
    (await closing.promise).close();
    await recording.done;
    expect(recording.statuses().at(-1)).toBe(
      'closed: The server closed the connection (server-closed).',
    );

    await server.close();
    server = await startTestServer({ agent: {} });
    const first = server.connect();
    const firstRecording = recordTransport(first);
    await firstRecording.until(() => first.status === 'open');
    // Another socket resumes the first transport's connection (as a copied tab would).
    const raw = new WebSocket(`${server.url}/ws?connectionId=${first.connectionId}&lastSeq=0`, [
      'a2ui.v0.9',
    ]);
    await new Promise((resolve) => raw.once('message', resolve));
    await firstRecording.done;
    expect(firstRecording.statuses().at(-1)).toBe(
      'closed: Another socket took over this connection.',
    );
    raw.terminate();
  });
});

/** A socket the test drives by hand: what the client sends, and what it receives when. */
class FakeSocket {
  static last: FakeSocket | undefined;
  readyState = 0;
  readonly sent: string[] = [];
  closedWith: number | undefined;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: { message?: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1005) {
    this.closedWith = code;
  }
  receive(data: string) {
    this.readyState = 1;
    this.onmessage?.({ data });
  }
}

describe('connectWs heartbeat, on a fake clock', () => {
  it('follows the interval the server announces: at least two of them, and none when it sends none', async () => {
    vi.useFakeTimers();
    const open = async (heartbeatIntervalMs: number) => {
      const transport = connectWs({
        url: 'ws://server.test',
        WebSocket: FakeSocket,
        heartbeatTimeoutMs: 100,
        wake: () => () => {},
      });
      const recording = recordTransport(transport);
      await vi.advanceTimersByTimeAsync(0);
      const socket = FakeSocket.last!;
      socket.receive(
        formatConnectedFrame({
          connectionId: CONNECTION_ID,
          resumed: false,
          replayed: 0,
          heartbeatIntervalMs,
        }),
      );
      return { transport, recording, socket };
    };

    const silent = await open(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(silent.socket.closedWith).toBeUndefined();

    const slow = await open(1_000);
    await vi.advanceTimersByTimeAsync(2_900);
    expect(slow.socket.closedWith).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(slow.socket.closedWith).toBe(4001);
    await vi.advanceTimersByTimeAsync(0);
    expect(slow.recording.statuses()).toContainEqual(
      expect.stringContaining('No frame for 3000 ms (heartbeat timeout)'),
    );
    for (const { transport } of [silent, slow]) void transport.close();
    await vi.advanceTimersByTimeAsync(5_000);
  });
});
