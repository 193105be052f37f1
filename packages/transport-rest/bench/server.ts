/**
 * The benchmark's server process: this transport under `/a2ui`, and the baselines under `/raw` —
 * a Hono endpoint that parses the same action JSON and answers the same turn JSON, and a minimal
 * hand-written long poll over an array. Pushes are paced by the server (`stream` action, and
 * `POST /raw/stream`): one per `intervalMs`, each stamped with its send time. Prints its URL.
 */
import { BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { Hono } from 'hono';
import { createRestServer } from '../src/index.js';
import { listen } from '../test/listen.js';

const now = () => performance.timeOrigin + performance.now();

/** The turn's answer: one data-model update echoing the action. */
const answerOf = (name: string, context: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'bench', path: '/last', value: { name, context } },
});

/** A push: a data-model update stamped with its send time. */
const push = (index: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'bench', path: `/pushes/${index}`, value: { sentAt: now() } },
});

const paced = async (n: number, intervalMs: number, send: (index: number) => boolean) => {
  for (let index = 0; index < n; index++) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    if (!send(index)) return;
  }
};

const a2ui = createRestServer({
  // Benchmark clients leave without a goodbye; their connections need not linger.
  reconnectGraceMs: 5_000,
  agent: {
    onConnect(connection) {
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID },
      });
    },
    async onAction(connection, action) {
      if (action.name !== 'stream') {
        connection.send(answerOf(action.name, action.context));
        return;
      }
      const { n, intervalMs } = action.context as { n: number; intervalMs: number };
      connection.endTurn();
      await paced(n, intervalMs, (index) => {
        if (connection.closed) return false;
        connection.send(push(index));
        return true;
      });
    },
  },
});

/** The raw long poll: every push of one stream kept in an array, waiting pollers woken. */
const rawLog: string[] = [];
const rawWaiters = new Set<() => void>();

const app = new Hono();
app.route('/a2ui', a2ui);
app.post('/raw/action', async (c) => {
  const body = (await c.req.json()) as { action: { name: string; context: unknown } };
  const message = answerOf(body.action.name, body.action.context);
  return c.json({ messages: [message], seq: 1, more: false });
});
app.post('/raw/stream', async (c) => {
  const { n, intervalMs } = (await c.req.json()) as { n: number; intervalMs: number };
  rawLog.length = 0;
  void paced(n, intervalMs, (index) => {
    rawLog.push(JSON.stringify(push(index)));
    for (const wake of [...rawWaiters]) wake();
    return true;
  });
  // Answered as the transport answers the `stream` action: an empty turn.
  return c.json({ messages: [], seq: 0, more: false });
});
app.get('/raw/messages', async (c) => {
  const after = Number(c.req.query('after') ?? '0');
  const waitMs = Number(c.req.query('waitMs') ?? '0');
  if (rawLog.length <= after && waitMs > 0) {
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        rawWaiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, waitMs);
      rawWaiters.add(wake);
    });
  }
  const messages = rawLog.slice(after);
  return c.body(`{"messages":[${messages.join(',')}],"seq":${rawLog.length},"more":false}`, 200, {
    'Content-Type': 'application/json',
  });
});

const server = await listen({ fetch: app.fetch, close: () => a2ui.close() });
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
