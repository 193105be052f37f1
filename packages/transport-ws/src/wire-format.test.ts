/**
 * `docs/wire-formats.md` ("WebSocket") shows the bytes of every exchange; this test produces each
 * exchange against a real server and compares the bytes with the blocks marked `wire-test`. A
 * block of frames has one text frame per line; a block of closes one `<code> <reason>` per line.
 * Only the random connection ids, and the heartbeat interval the test shortens, are replaced by
 * the document's.
 */
import { BASIC_CATALOG_ID, type Connection, type ServerMessage } from '@a2ui-ts/core';
import { eventually, readWireTestBlocks } from '@a2ui-ts/core/testing/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { openRawSocket, rawHandshake } from '../test/raw-socket.js';
import { connectWs } from './client/connect-ws.js';
import { serveWs, type WsNodeServer } from './server/attach-ws-server.js';
import { createWsServer, type WsServer } from './server/create-ws-server.js';

const DOC_ID = 'k3yQ2m0JcN1xV8fR4tL6pA';
const DOC_RESET_ID = 'Hn5sW9eB2rT7uY1iO3pD8g';
const PING_INTERVAL_MS = 25;

/** The `wire-test` blocks of the WebSocket section, by name. */
const wire = readWireTestBlocks(
  new URL('../../../docs/wire-formats.md', import.meta.url),
  'WebSocket',
);
const block = wire.block;
/** The frames of a block, one per line. */
const frames = (name: string): string[] => block(name).trimEnd().split('\n');
const frame = (name: string): string => {
  const lines = frames(name);
  expect(lines).toHaveLength(1);
  return lines[0]!;
};
/** A frame as the document writes it: its ids and heartbeat interval. */
const asDocumented = (text: string, ids: Record<string, string>): string => {
  let documented = text.replace(
    `"heartbeatIntervalMs":${PING_INTERVAL_MS}`,
    '"heartbeatIntervalMs":15000',
  );
  for (const [real, doc] of Object.entries(ids)) documented = documented.replaceAll(real, doc);
  return documented;
};

const messages: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
  { version: 'v0.9', updateDataModel: { surfaceId: 'main', path: '/greeting', value: 'Hello' } },
];

let a2ui: WsServer;
let node: WsNodeServer;
let base: string;
const connections: Connection[] = [];
let releaseAgent: () => void = () => {};

beforeAll(async () => {
  a2ui = createWsServer({
    basePath: '/a2ui',
    allowedOrigins: ['https://app.example.com'],
    pingIntervalMs: PING_INTERVAL_MS,
    reconnectGraceMs: 60_000,
    maxClientMessageBytes: 2_048,
    maxQueuedClientMessages: 1,
    agent: {
      onConnect(connection) {
        connections.push(connection);
        connection.send(messages);
      },
      async onAction(_connection, action) {
        if (action.name === 'slow') await new Promise<void>((resolve) => (releaseAgent = resolve));
      },
    },
  });
  node = await serveWs(a2ui);
  base = `${node.url}/a2ui`;
});
afterAll(async () => {
  releaseAgent();
  await node.close();
});

const action = (name: string, timestamp = '2026-01-15T12:00:00.000Z') => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId: 'main',
    sourceComponentId: 'send',
    timestamp,
    context: { email: 'ada@example.com' },
  },
});
const capabilities = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};

describe('docs/wire-formats.md, WebSocket', () => {
  it('has every block this test checks', () => {
    expect([...wire.names].sort()).toEqual(
      [
        'ws-action-ack',
        'ws-action-duplicate',
        'ws-action-request',
        'ws-bare-ack',
        'ws-bare-request',
        'ws-close',
        'ws-error-busy',
        'ws-error-connection',
        'ws-error-json',
        'ws-error-too-large',
        'ws-error-type',
        'ws-error-validation',
        'ws-handshake-response',
        'ws-new',
        'ws-ping',
        'ws-pong',
        'ws-refused-origin',
        'ws-reset',
        'ws-resume',
        'ws-seq-ack',
      ].sort(),
    );
  });

  it('the handshake: the response head, byte for byte', async () => {
    const head = await rawHandshake(
      node.port,
      [
        'GET /a2ui/ws HTTP/1.1',
        'Host: 127.0.0.1',
        'Upgrade: websocket',
        'Connection: Upgrade',
        // The sample key of RFC 6455 §1.3.
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Protocol: a2ui.v0.9',
      ],
      'head',
    );
    expect(head).toBe(block('ws-handshake-response').replaceAll('\n', '\r\n'));
  });

  let connectionId: string;

  it('a new connection: connected, the messages, a heartbeat on the idle socket', async () => {
    const socket = openRawSocket(`${base}/ws`);
    await socket.until((text) => text === '{"type":"heartbeat"}');
    connectionId = JSON.parse(socket.frames[0]!).connectionId;
    expect(socket.frames.map((text) => asDocumented(text, { [connectionId]: DOC_ID }))).toEqual(
      frames('ws-new'),
    );
    socket.close();
    await eventually(() => a2ui.stats().graceTimers === 1);
  });

  it('resuming with connectionId and lastSeq', async () => {
    const socket = openRawSocket(`${base}/ws?connectionId=${connectionId}&lastSeq=1`);
    const expected = frames('ws-resume');
    await socket.frame(expected.length);
    expect(
      socket.frames
        .slice(0, expected.length)
        .map((text) => asDocumented(text, { [connectionId]: DOC_ID })),
    ).toEqual(expected);
    socket.close();
    await eventually(() => a2ui.stats().graceTimers === 1);
  });

  it('a reset for an unknown connection, then the new connection on the same socket', async () => {
    const socket = openRawSocket(`${base}/ws?connectionId=AAAAAAAAAAAAAAAAAAAAAA&lastSeq=5`);
    const expected = frames('ws-reset');
    await socket.frame(expected.length);
    const newId = JSON.parse(socket.frames[1]!).connectionId;
    expect(
      socket.frames
        .slice(0, expected.length)
        .map((text) => asDocumented(text, { [newId]: DOC_RESET_ID })),
    ).toEqual(expected);
    socket.close();
  });

  it('a client message from connectWs, its acknowledgement, the acknowledgement of a repeat, and the seq acknowledgement', async () => {
    const sent: string[] = [];
    const received: string[] = [];
    class RecordingWebSocket extends WebSocket {
      constructor(url: string, protocols?: string[]) {
        super(url, protocols);
        this.addEventListener('message', (event) => received.push(String(event.data)));
      }
      override send(data: string, ...rest: never[]): void {
        sent.push(data);
        super.send(data, ...rest);
      }
    }
    const transport = connectWs({
      url: base,
      WebSocket: RecordingWebSocket,
      createRequestId: () => 'r1',
      seqAckDelayMs: 0,
    });
    const iterator = transport.events()[Symbol.asyncIterator]();
    while (transport.status !== 'open') await iterator.next();
    const ownId = transport.connectionId!;
    // Both messages arrive in one write: one acknowledgement names the second.
    await eventually(() => sent.includes(frame('ws-seq-ack')));
    await transport.send(action('submit') as never, capabilities);
    const request = sent.find((text) => text.startsWith('{"id":'))!;
    expect(request.replaceAll(ownId, DOC_ID)).toBe(frame('ws-action-request'));
    expect(received.at(-1)).toBe(frame('ws-action-ack'));

    // Another socket takes the connection over (the first one is closed with 4000) and sends the
    // same frame again: acknowledged, not delivered twice.
    const socket = openRawSocket(`${base}/ws?connectionId=${ownId}&lastSeq=2`);
    await socket.frame(1);
    socket.send(request);
    expect(await socket.until((text) => text.includes('"ack"'))).toBe(frame('ws-action-duplicate'));
    await iterator.return?.();
    socket.close();
  });

  it('a bare v0.9 client message, and ping', async () => {
    const socket = openRawSocket(`${base}/ws`);
    await socket.frame(3);
    socket.send(frame('ws-bare-request'));
    expect(await socket.until((text) => text.startsWith('{"type":"ack"'))).toBe(
      frame('ws-bare-ack'),
    );
    socket.send(frame('ws-ping'));
    expect(await socket.until((text) => text.includes('pong'))).toBe(frame('ws-pong'));
    socket.close();
  });

  it('error frames: not JSON, unknown type, invalid message, another connection, too large, busy', async () => {
    const socket = openRawSocket(`${base}/ws`);
    await socket.frame(3);
    const error = () => socket.until((text) => text.startsWith('{"type":"error"'));
    socket.send('{"id":');
    expect(await error()).toBe(frame('ws-error-json'));
    socket.send('{"type":"subscribe"}');
    expect(await error()).toBe(frame('ws-error-type'));
    socket.send(
      JSON.stringify({
        id: 'r2',
        message: {
          version: 'v0.9',
          action: {
            surfaceId: 'main',
            sourceComponentId: 'send',
            timestamp: '2026-01-15T12:00:00.000Z',
            context: {},
          },
        },
      }),
    );
    expect(await error()).toBe(frame('ws-error-validation'));
    socket.send(
      JSON.stringify({ id: 'r3', connectionId: 'AAAAAAAAAAAAAAAAAAAAAA', message: action('x') }),
    );
    expect(await error()).toBe(frame('ws-error-connection'));
    socket.send(
      JSON.stringify({ id: 'r4', message: action('big'), metadata: { note: 'x'.repeat(2_048) } }),
    );
    expect(await error()).toBe(frame('ws-error-too-large'));
    // The agent handles one message at a time; with one waiting, the next one is refused.
    socket.send(JSON.stringify({ id: 'r5', message: action('slow') }));
    socket.send(JSON.stringify({ id: 'r6', message: action('waits') }));
    socket.send(JSON.stringify({ id: 'r7', message: action('refused') }));
    expect(await error()).toBe(frame('ws-error-busy'));
    releaseAgent();
    socket.close();
  });

  it('close codes: agent closed, replaced, binary frame, oversized frame, server shutdown', async () => {
    const closes: string[] = [];
    const record = ({ code, reason }: { code: number; reason: string }) =>
      closes.push(`${code} ${reason}`.trimEnd());

    const byAgent = openRawSocket(`${base}/ws`);
    await byAgent.frame(3);
    connections.at(-1)!.close();
    record(await byAgent.closed);

    const first = openRawSocket(`${base}/ws`);
    const [connected] = await first.frame(3);
    const id = JSON.parse(connected!).connectionId;
    const second = openRawSocket(`${base}/ws?connectionId=${id}&lastSeq=2`);
    record(await first.closed);

    second.send(Buffer.from([1, 2, 3]), { binary: true });
    record(await second.closed);

    const third = openRawSocket(`${base}/ws`);
    await third.frame(3);
    third.send('x'.repeat(2_048 + 65_536 + 1));
    record(await third.closed);

    const last = openRawSocket(`${base}/ws`);
    await last.frame(3);
    const closing = a2ui.close();
    record(await last.closed);
    await closing;
    expect(closes).toEqual(frames('ws-close'));
  });

  it('a refused Origin: HTTP 403 before the upgrade, with a JSON body', async () => {
    const server = await serveWs(
      createWsServer({ basePath: '/a2ui', agent: {}, allowedOrigins: ['https://app.example.com'] }),
    );
    const response = await rawHandshake(
      server.port,
      [
        'GET /a2ui/ws HTTP/1.1',
        'Host: 127.0.0.1',
        'Origin: https://evil.example',
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
      ],
      'end',
    );
    const [head, body] = block('ws-refused-origin').trimEnd().split('\n\n');
    expect(response).toBe(`${head!.replaceAll('\n', '\r\n')}\r\n\r\n${body}`);
    await server.close();
    expect(server.server.listening).toBe(false);
  });
});
