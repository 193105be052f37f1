/**
 * The REST transport over loopback, side by side in the same run with raw Hono baselines: the
 * action round trip (POST → turn answer) against an endpoint that parses the same JSON and answers
 * the same JSON, and the latency of a push by long poll against a minimal hand-written long poll.
 * The server runs in a child process, the clients here. Prints a Markdown section and writes it
 * into docs/benchmarks.md ("REST transport").
 */
import { fileURLToPath } from 'node:url';
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import {
  formatNumber as fmt,
  median,
  percentile,
  startBenchReport,
  startBenchServer,
} from '@a2ui-ts/core/testing/node';
import { connectRest, type RestTransport } from '../src/index.js';

const WORKERS = 16;
const REQUESTS_PER_WORKER = 250;
const ROUNDS = 5;
const PUSHES = 1_000;
const PUSH_ROUNDS = 3;

type Endpoint = 'raw' | 'a2ui' | 'client';
const NAMES: Record<Endpoint, string> = {
  raw: 'raw Hono endpoint, same JSON (baseline)',
  a2ui: '`@a2ui-ts/transport-rest` server',
  client: '`connectRest` transport → the same server',
};

const now = () => performance.timeOrigin + performance.now();
const capabilities = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};
const action = (index: number) => ({
  name: 'submit',
  surfaceId: 'bench',
  sourceComponentId: 'send',
  timestamp: new Date().toISOString(),
  context: { email: 'ada@example.com', index },
});

interface Round {
  elapsedMs: number;
  latenciesMs: number[];
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { messages?: unknown[]; connectionId?: string };
  if (response.status !== 200 || !Array.isArray(answer.messages))
    throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** `WORKERS` clients, each sending `perWorker` actions one after the other. */
async function roundTrips(base: string, endpoint: Endpoint, perWorker: number): Promise<Round> {
  const latenciesMs: number[] = [];
  const prepared = await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      if (endpoint === 'raw') return undefined;
      if (endpoint === 'a2ui') return (await post(`${base}/a2ui/connect`, {})).connectionId!;
      const transport = connectRest({ url: `${base}/a2ui` });
      const events = (async () => {
        for await (const _event of transport.events());
      })();
      return { transport, events };
    }),
  );
  const started = now();
  await Promise.all(
    prepared.map(async (worker, workerIndex) => {
      for (let index = 0; index < perWorker; index++) {
        const sentAt = now();
        if (endpoint === 'raw')
          await post(`${base}/raw/action`, { action: action(index), metadata: capabilities });
        else if (endpoint === 'a2ui')
          await post(
            `${base}/a2ui/action`,
            { connectionId: worker, action: action(index), metadata: capabilities },
            { 'Idempotency-Key': `${workerIndex}-${index}` },
          );
        else
          await (worker as { transport: RestTransport }).transport.send(
            { version: 'v0.9', action: action(index) },
            capabilities,
          );
        latenciesMs.push(now() - sentAt);
      }
    }),
  );
  const elapsedMs = now() - started;
  for (const worker of prepared) {
    if (typeof worker === 'string')
      await post(`${base}/a2ui/disconnect`, { connectionId: worker }).catch(() => {});
    else if (worker) {
      await worker.transport.close();
      await worker.events;
    }
  }
  return { elapsedMs, latenciesMs };
}

/** Latency of each of `PUSHES` pushes (one per millisecond) through a long poll. */
async function pushes(base: string, endpoint: 'raw' | 'a2ui'): Promise<number[]> {
  const latenciesMs: number[] = [];
  const stream = { n: PUSHES, intervalMs: 1 };
  let connectionId: string | undefined;
  let after = 0;
  if (endpoint === 'a2ui') {
    const opened = await post(`${base}/a2ui/connect`, {});
    connectionId = opened.connectionId!;
    after = 1;
    await post(`${base}/a2ui/action`, {
      connectionId,
      action: { ...action(0), name: 'stream', context: stream },
    });
  } else await post(`${base}/raw/stream`, stream);
  const path =
    endpoint === 'a2ui' ? `/a2ui/messages?connectionId=${connectionId}&` : '/raw/messages?';
  while (latenciesMs.length < PUSHES) {
    const response = await fetch(`${base}${path}after=${after}&waitMs=30000`);
    const answer = (await response.json()) as {
      messages: Array<{ updateDataModel: { value: { sentAt: number } } }>;
      seq: number;
    };
    const receivedAt = now();
    for (const message of answer.messages)
      latenciesMs.push(receivedAt - message.updateDataModel.value.sentAt);
    after = answer.seq;
  }
  if (connectionId) await post(`${base}/a2ui/disconnect`, { connectionId }).catch(() => {});
  return latenciesMs;
}

const report = startBenchReport({
  packageName: '@a2ui-ts/transport-rest',
  heading: '## REST transport',
  file: new URL('../../../docs/benchmarks.md', import.meta.url),
});
// The server: a child process with the same loader flags as this one (tsx, source condition).
const server = await startBenchServer(fileURLToPath(new URL('./server.ts', import.meta.url)));
const base = server.lines[0]!;

try {
  // Warm-up: JIT every path on both sides.
  for (const endpoint of ['raw', 'a2ui', 'client'] as const) await roundTrips(base, endpoint, 100);

  const rounds: Record<Endpoint, Round[]> = { raw: [], a2ui: [], client: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so no endpoint always runs on a warmer machine.
    const order: Endpoint[] = (['raw', 'a2ui', 'client'] as const).map(
      (_, index, all) => all[(index + round) % all.length]!,
    );
    for (const endpoint of order)
      rounds[endpoint].push(await roundTrips(base, endpoint, REQUESTS_PER_WORKER));
  }
  const pushLatencies: Record<'raw' | 'a2ui', number[]> = { raw: [], a2ui: [] };
  for (let round = 0; round < PUSH_ROUNDS; round++)
    for (const endpoint of ['raw', 'a2ui'] as const)
      pushLatencies[endpoint].push(...(await pushes(base, endpoint)));

  const total = WORKERS * REQUESTS_PER_WORKER;
  const throughput = (endpoint: Endpoint) =>
    median(rounds[endpoint].map((round) => total / (round.elapsedMs / 1000)));
  const latency = (endpoint: Endpoint, fraction: number) =>
    percentile(
      rounds[endpoint].flatMap((round) => round.latenciesMs),
      fraction,
    );
  const ratio = throughput('a2ui') / throughput('raw');

  const section = [
    report.heading,
    '',
    `${report.measuredBy()} (other work on the machine adds noise to every column alike). The server (every endpoint, one process) runs in a child process; the clients — Node's \`fetch\` — in the parent, over 127.0.0.1.`,
    '',
    `### Action round trip: POST → the turn's answer`,
    '',
    `${WORKERS} clients, each sending ${fmt(REQUESTS_PER_WORKER)} actions one after the other (${fmt(total)} per round); median of ${ROUNDS} rounds after a warm-up, endpoints rotating. Each request is the same \`action\` with its metadata (about 300 bytes), each answer one \`updateDataModel\` echoing it. The baseline parses the body and answers the same JSON; the transport also authenticates, validates the action and its metadata against the v0.9 schema, remembers the \`Idempotency-Key\`, runs the agent's turn, logs and numbers its message, and answers the turn. The \`connectRest\` row is the whole client on top: its outbox, the turn applied as events, and a long poll running beside it — which wakes for each turn's message too (that is how a long turn renders as it goes), so there each action costs three requests (the action, the poll's answer, the next poll) where the other rows make one.`,
    '',
    '| Endpoint | round trips/s | latency p50 ms | latency p99 ms |',
    '|---|---:|---:|---:|',
    ...(['raw', 'a2ui', 'client'] as const).map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(throughput(endpoint))} | ${fmt(latency(endpoint, 0.5), 2)} | ${fmt(latency(endpoint, 0.99), 2)} |`,
    ),
    '',
    `**Throughput: ${fmt(ratio, 2)}× the raw baseline** (goal ≥ 0.8×); through the \`connectRest\` client, ${fmt(throughput('client') / throughput('raw'), 2)}×.`,
    '',
    `### Push latency by long poll: one push per millisecond (${fmt(PUSHES)} pushes × ${PUSH_ROUNDS} rounds)`,
    '',
    'The agent sends each push between turns, stamped with its send time; the client keeps one poll waiting and polls again as soon as one answers. Latency = receive time − send time, across processes on one machine. The baseline is a hand-written long poll over an array (no sessions, no acknowledgements, no validation).',
    '',
    '| Endpoint | p50 ms | p99 ms |',
    '|---|---:|---:|',
    ...(['raw', 'a2ui'] as const).map(
      (endpoint) =>
        `| ${endpoint === 'raw' ? 'raw Hono long poll (baseline)' : NAMES.a2ui} | ${fmt(percentile(pushLatencies[endpoint], 0.5), 2)} | ${fmt(percentile(pushLatencies[endpoint], 0.99), 2)} |`,
    ),
    '',
    `p50 ratio (baseline ÷ this transport, higher is better): ${fmt(percentile(pushLatencies.raw, 0.5) / percentile(pushLatencies.a2ui, 0.5), 2)}×; p99: ${fmt(percentile(pushLatencies.raw, 0.99) / percentile(pushLatencies.a2ui, 0.99), 2)}×.`,
    '',
  ].join('\n');

  report.write(section);
} finally {
  server.stop();
}
