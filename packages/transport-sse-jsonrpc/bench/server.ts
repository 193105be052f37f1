/**
 * The benchmark's server process: this transport under `/a2ui`, and the baseline — a raw Hono
 * `streamSSE` endpoint writing the same payloads — under `/raw`. Both stream `n` messages to each
 * client; `mode=burst` as fast as the transport takes them, `mode=paced` one per millisecond.
 * Prints its URL on stdout.
 */
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

const server = await serveSseJsonRpc(app);
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
