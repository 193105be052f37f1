/**
 * The benchmark's server process: this transport under `/a2ui`, and two baselines writing the same
 * payloads — a raw Hono `streamSSE` endpoint under `/raw`, and a hand-written `node:http` SSE writer
 * (on a second port, `/raw/sse`) that serialises each message and coalesces the frames of one tick
 * into one write, with no framework, validation, sequencing or replay log at all. Each streams `n`
 * messages to each client; `mode=burst` as fast as it can, `mode=paced` one per millisecond.
 * Prints the Hono server's URL, then the `node:http` server's, one per line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { createSseJsonRpcServer } from '../src/index.js';
import { serveSseJsonRpc } from '../src/node.js';

interface Scenario {
  n: number;
  mode: 'burst' | 'paced';
}

/** How many messages the agent sends before yielding to I/O in burst mode. */
const BURST_SLICE = 64;

const now = () => performance.timeOrigin + performance.now();
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(2);

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

function scenarioOf(request: Request): Scenario {
  const url = new URL(request.url);
  return {
    n: Number(url.searchParams.get('n') ?? '1000'),
    mode: url.searchParams.get('mode') === 'paced' ? 'paced' : 'burst',
  };
}

const pause = (mode: Scenario['mode']) =>
  new Promise<void>((resolve) =>
    mode === 'paced' ? setTimeout(resolve, 1) : setImmediate(resolve),
  );

const a2ui = createSseJsonRpcServer({
  // Readers leave without a goodbye; their sessions need not linger.
  reconnectGraceMs: 1_000,
  // The scenario travels in the query string; the principal is where the agent can read it.
  authenticate: (request) => scenarioOf(request),
  agent: {
    async onConnect(connection) {
      const { n, mode } = connection.principal as Scenario;
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID },
      });
      for (let index = 0; index < n; index++) {
        if (connection.closed) return;
        connection.send(message(index));
        if (mode === 'paced' || index % BURST_SLICE === BURST_SLICE - 1) await pause(mode);
      }
    },
  },
});

const app = new Hono();
app.route('/a2ui', a2ui);
app.get('/raw/sse', (c) => {
  const { n, mode } = scenarioOf(c.req.raw);
  return streamSSE(c, async (stream) => {
    await stream.writeSSE({
      id: '1',
      data: JSON.stringify({
        version: 'v0.9',
        createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID },
      }),
    });
    for (let index = 0; index < n; index++) {
      if (stream.aborted) return;
      await stream.writeSSE({ id: String(index + 2), data: JSON.stringify(message(index)) });
      if (mode === 'paced') await pause(mode);
    }
  });
});

/** The strongest baseline: frames written straight to the socket, one write per tick. */
const nodeServer = createServer((request, response) => {
  const { n, mode } = scenarioOf(new Request(`http://localhost${request.url}`));
  response.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  let closed = false;
  request.on('close', () => {
    closed = true;
  });
  let pending: string[] = [];
  let flushQueued = false;
  const write = (frame: string) => {
    pending.push(frame);
    if (flushQueued) return;
    flushQueued = true;
    queueMicrotask(() => {
      flushQueued = false;
      const chunk = pending.join('');
      pending = [];
      response.write(chunk);
    });
  };
  void (async () => {
    write(
      `id: 1\ndata: ${JSON.stringify({ version: 'v0.9', createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID } })}\n\n`,
    );
    for (let index = 0; index < n; index++) {
      if (closed) return;
      write(`id: ${index + 2}\ndata: ${JSON.stringify(message(index))}\n\n`);
      if (mode === 'paced' || index % BURST_SLICE === BURST_SLICE - 1) await pause(mode);
    }
  })();
});
await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve));

const server = await serveSseJsonRpc(app);
process.stdout.write(`${server.url}\n`);
process.stdout.write(`http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => {
  nodeServer.closeAllConnections();
  nodeServer.close();
  void server.close().then(() => process.exit(0));
});
