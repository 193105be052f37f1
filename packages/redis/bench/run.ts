/**
 * What scale-out costs: messages/s and action round trips, one node with the in-memory stores vs
 * two nodes sharing one Redis (a real `redis-server`, started here), side by side in one run.
 * Real SSE + JSON-RPC servers on loopback; every node has its own Redis connections (the nodes
 * share this process and its cores with the readers). Prints a Markdown section and writes it
 * into docs/benchmarks.md ("Scale-out on Redis").
 */
import { type A2uiAgent, BASIC_CATALOG_ID } from '@a2ui-ts/core';
import {
  formatNumber as fmt,
  median,
  percentile,
  startBenchReport,
} from '@a2ui-ts/core/testing/node';
import {
  createSseJsonRpcServer,
  RPC_METHODS,
  type SseJsonRpcServer,
} from '@a2ui-ts/transport-sse-jsonrpc';
import { type SseJsonRpcNodeServer, serveSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { createRedisScaleOut, type RedisScaleOut } from '../src/index.js';
import { startRedisServer } from '../src/testing/index.js';

const CONNECTIONS = 50;
const BURST = 500;
/** Setups take turns, round after round, so that each sees the same (shared) machine. */
const ROUNDS = 7;
const ROUND_TRIPS_PER_ROUND = 60;
const WARM_UP = 20;

const agent: A2uiAgent = {
  onConnect(connection) {
    connection.send({
      version: 'v0.9',
      createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
    });
  },
  async onAction(connection, action) {
    if (action.name !== 'burst') {
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 's', path: '/did', value: action.name },
      });
      return;
    }
    for (let index = 0; index < BURST; index++) {
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 's', path: '/n', value: index },
      });
      if (index % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
  },
};

interface BenchNode {
  app: SseJsonRpcServer;
  server: SseJsonRpcNodeServer;
  scaleOut?: RedisScaleOut;
}

async function startBenchNode(redisUrl?: string, keyPrefix?: string): Promise<BenchNode> {
  const scaleOut = redisUrl ? await createRedisScaleOut({ url: redisUrl, keyPrefix }) : undefined;
  const app = createSseJsonRpcServer({ agent, ...scaleOut?.hostOptions });
  return { app, server: await serveSseJsonRpc(app), scaleOut };
}

/** A raw event-stream reader of one connection: counts events and wakes waiters on each. */
function read(base: string, connectionId: string) {
  const abort = new AbortController();
  const state = { events: 0, last: '', wake: () => {} };
  const done = (async () => {
    const response = await fetch(`${base}/sse?connectionId=${connectionId}`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': '0' },
      signal: abort.signal,
    });
    const decoder = new TextDecoder();
    let buffer = '';
    const body = response.body!.getReader();
    for (;;) {
      const { value, done: finished } = await body.read();
      if (finished) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.includes('\nid: ') || event.startsWith('id: ')) {
          state.events++;
          state.last = event;
          state.wake();
        }
        end = buffer.indexOf('\n\n');
      }
    }
  })().catch(() => {});
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      if (condition()) return resolve();
      state.wake = () => {
        if (condition()) {
          state.wake = () => {};
          resolve();
        }
      };
    });
  return {
    state,
    until,
    close: () => {
      abort.abort();
      return done;
    },
  };
}

let rpcId = 0;
async function post(base: string, connectionId: string, name: string): Promise<void> {
  const response = await fetch(`${base}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++rpcId,
      method: RPC_METHODS.action,
      params: {
        connectionId,
        action: {
          name,
          surfaceId: 's',
          sourceComponentId: 'b',
          timestamp: new Date().toISOString(),
          context: {},
        },
        metadata: {
          a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
        },
      },
    }),
  });
  const answer = (await response.json()) as { error?: unknown };
  if (answer.error) throw new Error(`action refused: ${JSON.stringify(answer.error)}`);
}

interface Setup {
  name: string;
  /** Where connections are opened (their owner). */
  owner: BenchNode;
  /** Where the event streams are read. */
  stream: BenchNode;
  /** Where actions are posted. */
  actions: BenchNode;
}

async function throughput(setup: Setup): Promise<number> {
  const ids = await Promise.all(
    Array.from(
      { length: CONNECTIONS },
      async () => (await setup.owner.app.host.open({ principal: undefined })).connectionId,
    ),
  );
  const readers = ids.map((id) => read(setup.stream.server.url, id));
  await Promise.all(readers.map((reader) => reader.until(() => reader.state.events >= 1)));
  const started = performance.now();
  await Promise.all(ids.map((id) => post(setup.actions.server.url, id, 'burst')));
  await Promise.all(readers.map((reader) => reader.until(() => reader.state.events >= 1 + BURST)));
  const elapsed = performance.now() - started;
  await Promise.all(readers.map((reader) => reader.close()));
  await Promise.all(ids.map((id) => setup.owner.app.host.disconnect(id, { principal: undefined })));
  return (CONNECTIONS * BURST) / (elapsed / 1000);
}

async function roundTrips(setup: Setup): Promise<number[]> {
  const { connectionId } = await setup.owner.app.host.open({ principal: undefined });
  const reader = read(setup.stream.server.url, connectionId);
  await reader.until(() => reader.state.events >= 1);
  const samples: number[] = [];
  for (let index = 0; index < WARM_UP + ROUND_TRIPS_PER_ROUND; index++) {
    const name = `rt-${index}`;
    const started = performance.now();
    const seen = reader.until(() => reader.state.last.includes(`"value":"${name}"`));
    await post(setup.actions.server.url, connectionId, name);
    await seen;
    if (index >= WARM_UP) samples.push(performance.now() - started);
  }
  await reader.close();
  await setup.owner.app.host.disconnect(connectionId, { principal: undefined });
  return samples;
}

const report = startBenchReport({
  packageName: '@a2ui-ts/redis',
  heading: '## Scale-out on Redis',
  file: new URL('../../../docs/benchmarks.md', import.meta.url),
});
const redis = await startRedisServer();
const memory = await startBenchNode();
const prefix = `bench${Date.now()}:`;
const a = await startBenchNode(redis.url, prefix);
const b = await startBenchNode(redis.url, prefix);
const setups: Setup[] = [
  { name: 'one node, in-memory stores', owner: memory, stream: memory, actions: memory },
  {
    name: 'two nodes on Redis: stream on the owner, actions posted to the other node',
    owner: a,
    stream: a,
    actions: b,
  },
  {
    name: 'two nodes on Redis: stream and actions on the other node (follower link)',
    owner: a,
    stream: b,
    actions: b,
  },
];
const rates = setups.map((): number[] => []);
const samples = setups.map((): number[] => []);
try {
  for (const setup of setups) await throughput(setup); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, setup] of setups.entries()) {
      rates[index]!.push(await throughput(setup));
      samples[index]!.push(...(await roundTrips(setup)));
    }
  }
} finally {
  for (const node of [memory, a, b]) {
    await node.server.close();
    await node.scaleOut?.close();
  }
  await redis.stop();
}

const results = setups.map((setup, index) => ({
  name: setup.name,
  rate: median(rates[index]!),
  p50: percentile(samples[index]!, 0.5),
  p99: percentile(samples[index]!, 0.99),
}));
const base = results[0]!;
const section = [
  report.heading,
  '',
  `${report.measuredBy()} (the machine is shared), redis-server from Debian on loopback. Real SSE + JSON-RPC servers; the nodes (each with its own Redis connections) and the readers share this process.`,
  '',
  `Messages/s: ${CONNECTIONS} connections, each answering one action with ${BURST} \`updateDataModel\` messages, read by ${CONNECTIONS} event streams. Round trip: one connection, an action posted and its answer read off the stream, ${ROUND_TRIPS_PER_ROUND} in a row after ${WARM_UP} warm-up. The three setups take turns for ${ROUNDS} rounds (so each sees the same shared machine); messages/s is the median round, round trips are over all ${ROUNDS * ROUND_TRIPS_PER_ROUND} samples.`,
  '',
  '| Setup | messages/s | × one node | round trip p50 ms | p99 ms | p50 × one node |',
  '|---|---:|---:|---:|---:|---:|',
  ...results.map(
    (row) =>
      `| ${row.name} | ${fmt(row.rate)} | ${fmt(row.rate / base.rate, 2)} | ${fmt(row.p50, 2)} | ${fmt(row.p99, 2)} | ${fmt(row.p50 / base.p50, 2)} |`,
  ),
  '',
  "On the owner, what the agent sends in one event-loop tick is also appended to Redis in one script call (pipelined, not awaited) and published to its channel; a follower link gets each append through pub/sub. An action posted to another node costs that node a registry read, a liveness check (cached) and a stream write to the owner's inbox, and the owner a stream write back with the answer.",
  '',
].join('\n');

report.write(section);
process.exit(0);
