/**
 * The benchmark's server process: this transport at `/a2ui/ws`, and the baseline — a raw `ws`
 * server sending the same frames, pre-serialized, with no protocol around them, corked per tick as
 * this transport's link is — at `/raw`, both on the upgrades of one Node HTTP server. Each socket gets `n` messages;
 * `mode=burst` as fast as the transport takes them, `mode=paced` one per millisecond,
 * `mode=idle` one surface and one update, then nothing (the memory scenario). `GET /memory`
 * collects garbage and answers `process.memoryUsage()`. Prints its URL on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { WebSocketServer } from 'ws';
import { attachWsServer, createWsServer } from '../src/server.js';

interface Scenario {
  n: number;
  mode: 'burst' | 'paced' | 'idle';
}

/** How many messages are sent before yielding to I/O in burst mode (both endpoints). */
const BURST_SLICE = 64;

const now = () => performance.timeOrigin + performance.now();
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(2);
const surface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID },
};

/** The same payload for both endpoints: a data-model update stamped with its send time. */
function message(index: number): ServerMessage {
  return {
    version: 'v0.9',
    updateDataModel: {
      surfaceId: 'bench',
      path: `/items/${index}`,
      value: { sentAt: now(), text },
    },
  };
}

function scenarioOf(url: string): Scenario {
  const params = new URL(url, 'http://localhost').searchParams;
  const mode = params.get('mode');
  return {
    n: Number(params.get('n') ?? '1000'),
    mode: mode === 'paced' || mode === 'idle' ? mode : 'burst',
  };
}

const pause = (mode: Scenario['mode']) =>
  new Promise<void>((resolve) =>
    mode === 'paced' ? setTimeout(resolve, 1) : setImmediate(resolve),
  );

/**
 * The baseline's frames: the bytes `JSON.stringify(message(index))` gives, already serialized —
 * only the send time is filled in (the test below checks they are the same bytes).
 */
const SURFACE_FRAME = JSON.stringify(surface);
const frame = (index: number): string =>
  `{"version":"v0.9","updateDataModel":{"surfaceId":"bench","path":"/items/${index}","value":{"sentAt":${now()},"text":"${text}"}}}`;
{
  const check = JSON.parse(frame(7));
  check.updateDataModel.value.sentAt = 0;
  const expected = message(7) as { updateDataModel: { value: { sentAt: number } } };
  expected.updateDataModel.value.sentAt = 0;
  if (JSON.stringify(check) !== JSON.stringify(expected))
    throw new Error('The baseline frames differ from the messages.');
}

/** Sends the scenario through `send`, which returns false once the socket is gone. */
async function stream<T>(
  { n, mode }: Scenario,
  first: T,
  next: (index: number) => T,
  send: (item: T) => boolean,
) {
  if (!send(first)) return;
  if (mode === 'idle') {
    send(next(0));
    return;
  }
  for (let index = 0; index < n; index++) {
    if (!send(next(index))) return;
    if (mode === 'paced' || index % BURST_SLICE === BURST_SLICE - 1) await pause(mode);
  }
}

const a2ui = createWsServer({
  basePath: '/a2ui',
  // Readers leave without a goodbye; their sessions need not linger.
  reconnectGraceMs: 1_000,
  maxSessionsPerPrincipal: 100_000,
  // The scenario travels in the query string; the principal is where the agent can read it.
  authenticate: (request) => scenarioOf(request.url),
  agent: {
    async onConnect(connection) {
      await stream(connection.principal as Scenario, surface, message, (next) => {
        if (connection.closed) return false;
        connection.send(next);
        return true;
      });
    },
  },
});

const raw = new WebSocketServer({
  noServer: true,
  clientTracking: false,
  perMessageDeflate: false,
});
const server = createServer((request, response) => {
  if (request.url === '/memory') {
    globalThis.gc?.();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(process.memoryUsage()));
    return;
  }
  response.writeHead(404).end();
});
server.on('upgrade', (request, socket, head) => {
  if (!request.url?.startsWith('/raw')) return;
  raw.handleUpgrade(request, socket, head, (ws) => {
    // As this transport's link does: the frames of one tick go out in one TCP write.
    let corked = false;
    void stream(scenarioOf(request.url!), SURFACE_FRAME, frame, (next) => {
      if (ws.readyState !== ws.OPEN) return false;
      if (!corked) {
        corked = true;
        socket.cork();
        queueMicrotask(() => {
          corked = false;
          socket.uncork();
        });
      }
      ws.send(next);
      return true;
    });
  });
});
attachWsServer(server, a2ui);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ws://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  void a2ui.close().then(() => process.exit(0));
});
