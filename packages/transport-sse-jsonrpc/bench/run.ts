/**
 * Server → client throughput and latency of the SSE + JSON-RPC transport over loopback, side by
 * side in the same run with: a hand-written `node:http` SSE writer (the strongest baseline), a raw
 * Hono `streamSSE` endpoint, and this transport as it was before the session host (an earlier
 * commit, extracted by `baseline-tree.ts`). Servers run in child processes, the reading client here.
 * Prints a Markdown section and writes it into docs/benchmarks.md ("SSE + JSON-RPC transport").
 */
import { fileURLToPath } from 'node:url';
import {
  type BenchServer,
  formatNumber as fmt,
  loadAverage,
  median,
  percentile,
  startBenchReport,
  startBenchServer,
} from '@a2ui-ts/core/testing/node';
import { createParser } from 'eventsource-parser';
import { extractBaselineTree } from './baseline-tree.js';

const BURST_MESSAGES = 50_000;
const BURST_ROUNDS = 7;
const PACED_MESSAGES = 1_000;
const PACED_ROUNDS = 3;

type Endpoint = 'node' | 'raw' | 'before' | 'a2ui';
const PATHS: Record<Endpoint, string> = {
  node: '/raw/sse',
  raw: '/raw/sse',
  before: '/a2ui/sse',
  a2ui: '/a2ui/sse',
};
const NAMES: Record<Endpoint, string> = {
  node: 'hand-written `node:http` writer, one write per tick (baseline)',
  raw: 'raw Hono `streamSSE`',
  before: '`@a2ui-ts/transport-sse-jsonrpc` before the session host',
  a2ui: '`@a2ui-ts/transport-sse-jsonrpc`',
};
/** Where each endpoint is served (filled in once the servers print their URLs). */
const BASES: Partial<Record<Endpoint, string>> = {};
/** The process serving each endpoint, whose CPU time each round is charged. */
const SERVERS: Partial<Record<Endpoint, BenchServer>> = {};

interface Round {
  elapsedMs: number;
  bytes: number;
  latenciesMs: Float64Array;
  /** Server CPU time (user + system) the round cost, in microseconds. */
  cpuMicros: number;
}

/**
 * How the client reads: `parse` as an application would (every event parsed, its JSON too);
 * `count` only counts the updates in the bytes, so the reader is not the bottleneck and the
 * throughput is the server's.
 */
type Reader = 'parse' | 'count';
const MARKER = '"updateDataModel"';

const now = () => performance.timeOrigin + performance.now();

/** Reads `n` data-model updates from one endpoint, as a client would: parse every event and its JSON. */
async function measure(
  endpoint: Endpoint,
  n: number,
  mode: 'burst' | 'paced',
  readerKind: Reader = 'parse',
): Promise<Round> {
  const base = BASES[endpoint]!;
  const cpuBefore = await SERVERS[endpoint]!.cpuMicros();
  const latenciesMs = new Float64Array(n);
  let received = 0;
  let bytes = 0;
  const abort = new AbortController();
  const started = now();
  const response = await fetch(`${base}${PATHS[endpoint]}?n=${n}&mode=${mode}`, {
    headers: { Accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const parser = createParser({
    onEvent(event) {
      if (event.event !== undefined) return;
      const message = JSON.parse(event.data) as { updateDataModel?: { value: { sentAt: number } } };
      if (!message.updateDataModel) return;
      latenciesMs[received++] = now() - message.updateDataModel.value.sentAt;
    },
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  // The count reader's carry: a marker may straddle two chunks.
  let tail = '';
  while (received < n) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${endpoint} ended after ${received} of ${n} messages`);
    bytes += value.byteLength;
    const text = decoder.decode(value, { stream: true });
    if (readerKind === 'parse') {
      parser.feed(text);
      continue;
    }
    const scanned = tail + text;
    for (let at = scanned.indexOf(MARKER); at !== -1; at = scanned.indexOf(MARKER, at + 1))
      received++;
    tail = scanned.slice(-(MARKER.length - 1));
  }
  const elapsedMs = now() - started;
  abort.abort();
  await reader.cancel().catch(() => {});
  // The server finishes its round (the last writes, the reader's goodbye) before it is read.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const cpuMicros = (await SERVERS[endpoint]!.cpuMicros()) - cpuBefore;
  return { elapsedMs, bytes, latenciesMs, cpuMicros };
}

/** Every latency of `rounds`, in one list. */
const latencies = (rounds: readonly Round[]): number[] =>
  rounds.flatMap((round) => Array.from(round.latenciesMs));

const report = startBenchReport({
  packageName: '@a2ui-ts/transport-sse-jsonrpc',
  heading: '## SSE + JSON-RPC transport',
  file: new URL('../../../docs/benchmarks.md', import.meta.url),
});
const baseline = extractBaselineTree();
const current = await startBenchServer(fileURLToPath(new URL('./server.ts', import.meta.url)), 2);
BASES.a2ui = current.lines[0];
BASES.raw = current.lines[0];
BASES.node = current.lines[1];
SERVERS.a2ui = current;
SERVERS.raw = current;
SERVERS.node = current;
const previous = baseline
  ? await startBenchServer(baseline.serverScript, 1).catch((error: Error) => {
      current.stop();
      baseline.dispose();
      throw error;
    })
  : undefined;
if (previous) {
  BASES.before = previous.lines[0];
  SERVERS.before = previous;
}
const endpoints = (['node', 'raw', 'before', 'a2ui'] as const).filter(
  (endpoint) => BASES[endpoint],
);

try {
  // Warm-up: JIT every path on both sides.
  for (const endpoint of endpoints) await measure(endpoint, 10_000, 'burst');

  const burst: Record<Endpoint, Round[]> = { node: [], raw: [], before: [], a2ui: [] };
  for (let round = 0; round < BURST_ROUNDS; round++) {
    // Rotate the order so no endpoint always runs on a warmer (or busier) machine.
    const order = endpoints.map((_, index) => endpoints[(index + round) % endpoints.length]!);
    for (const endpoint of order)
      burst[endpoint].push(await measure(endpoint, BURST_MESSAGES, 'burst'));
  }
  const light: Record<Endpoint, Round[]> = { node: [], raw: [], before: [], a2ui: [] };
  for (let round = 0; round < BURST_ROUNDS; round++) {
    const order = endpoints.map((_, index) => endpoints[(index + round) % endpoints.length]!);
    for (const endpoint of order)
      light[endpoint].push(await measure(endpoint, BURST_MESSAGES, 'burst', 'count'));
  }
  const paced: Record<Endpoint, Round[]> = { node: [], raw: [], before: [], a2ui: [] };
  for (let round = 0; round < PACED_ROUNDS; round++) {
    for (const endpoint of endpoints)
      paced[endpoint].push(await measure(endpoint, PACED_MESSAGES, 'paced'));
  }

  const throughput = (endpoint: Endpoint, rounds = burst) =>
    median(rounds[endpoint].map((round) => BURST_MESSAGES / (round.elapsedMs / 1000)));
  /** Median, lowest and highest server CPU per message over the rounds, in microseconds. */
  const cpuPerMessage = (endpoint: Endpoint, rounds = burst) => {
    const values = rounds[endpoint].map((round) => round.cpuMicros / BURST_MESSAGES);
    return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
  };
  const spread = (values: readonly number[]) =>
    `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;
  const rates = (endpoint: Endpoint, rounds: Record<Endpoint, Round[]>) =>
    rounds[endpoint].map((round) => BURST_MESSAGES / (round.elapsedMs / 1000));
  const cpuCell = (endpoint: Endpoint, rounds: Record<Endpoint, Round[]>) => {
    const cpu = cpuPerMessage(endpoint, rounds);
    return `${fmt(cpu.median, 2)} (${fmt(cpu.min, 2)}–${fmt(cpu.max, 2)})`;
  };
  const megabytes = (endpoint: Endpoint) =>
    median(burst[endpoint].map((round) => round.bytes / 1e6 / (round.elapsedMs / 1000)));
  const ratio = throughput('a2ui') / throughput('node');
  const rawRatio = throughput('a2ui') / throughput('raw');
  const beforeRatio = previous ? throughput('a2ui') / throughput('before') : undefined;
  const burstLatency = (endpoint: Endpoint, fraction: number) =>
    percentile(latencies(burst[endpoint]), fraction);
  const pacedLatency = (endpoint: Endpoint, fraction: number) =>
    percentile(latencies(paced[endpoint]), fraction);
  const bytesPerMessage = (endpoint: Endpoint) => burst[endpoint][0]!.bytes / BURST_MESSAGES;

  const section = [
    report.heading,
    '',
    `${report.measuredBy()} (other work on the machine adds noise to every column alike). The servers run in child processes (the "before" one from commit \`${baseline?.rev ?? 'n/a'}\`, extracted with \`git archive\`); the client — \`fetch\` + \`eventsource-parser\` + \`JSON.parse\` of every message, identical for all — in the parent, over 127.0.0.1. Each message is the same \`updateDataModel\` carrying its send time (about ${fmt(bytesPerMessage('raw'))} bytes on the wire). Latency = receive time − send time, across processes on one machine.`,
    '',
    `### Throughput: ${fmt(BURST_MESSAGES)} messages as fast as each endpoint takes them`,
    '',
    `Median of ${BURST_ROUNDS} rounds after a warm-up, the order of endpoints rotating. The \`node:http\` baseline and the agent behind this transport both yield to I/O every 64 messages; the Hono baseline awaits each \`writeSSE\`.`,
    '',
    '| Endpoint | messages/s (spread) | server CPU µs/message (spread) | MB/s | latency p50 ms | latency p99 ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...endpoints.map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(throughput(endpoint))} (${spread(rates(endpoint, burst))}) | ${cpuCell(endpoint, burst)} | ${fmt(megabytes(endpoint), 1)} | ${fmt(burstLatency(endpoint, 0.5), 1)} | ${fmt(burstLatency(endpoint, 0.99), 1)} |`,
    ),
    '',
    `**Throughput: ${fmt(ratio, 2)}× the hand-written \`node:http\` baseline** (goal ≥ 0.8×), ${fmt(rawRatio, 2)}× raw Hono \`streamSSE\`${beforeRatio === undefined ? '' : `, ${fmt(beforeRatio, 2)}× the same transport before the session host (1.00 = no change)`}. Under a burst the reader is the bottleneck, so latency there is mostly the reader's backlog, not the transport; the paced run below measures the transport itself.`,
    '',
    `### Server CPU per message, with a light reader`,
    '',
    `The same burst, ${BURST_ROUNDS} rounds interleaved as above, but the client only counts the updates in the bytes it receives (no event parsing, no \`JSON.parse\`), so the reader is no longer the bottleneck. Server CPU is \`process.cpuUsage()\` (user + system) read in the server process before and after each round, over the messages of the round; the spread is the lowest–highest round.`,
    '',
    '| Endpoint | messages/s (spread) | server CPU µs/message (spread) |',
    '|---|---:|---:|',
    ...endpoints.map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(throughput(endpoint, light))} (${spread(rates(endpoint, light))}) | ${cpuCell(endpoint, light)} |`,
    ),
    '',
    `**Server CPU per message: ${fmt(cpuPerMessage('a2ui', light).median / cpuPerMessage('node', light).median, 2)}× the hand-written \`node:http\` writer** (goal ≤ 1.2×); throughput with the light reader ${fmt(throughput('a2ui', light) / throughput('node', light), 2)}× (goal ≥ 0.9×). 1-minute load average at the end: ${fmt(loadAverage(), 1)}.`,
    '',
    `### Latency: one message per millisecond (${fmt(PACED_MESSAGES)} messages × ${PACED_ROUNDS} rounds)`,
    '',
    '| Endpoint | p50 ms | p99 ms |',
    '|---|---:|---:|',
    ...endpoints.map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(pacedLatency(endpoint, 0.5), 3)} | ${fmt(pacedLatency(endpoint, 0.99), 3)} |`,
    ),
    '',
    `p50 ratio (\`node:http\` baseline ÷ this transport, higher is better): ${fmt(pacedLatency('node', 0.5) / pacedLatency('a2ui', 0.5), 2)}×; p99: ${fmt(pacedLatency('node', 0.99) / pacedLatency('a2ui', 0.99), 2)}×.`,
    '',
    'Per message this transport also checks the v0.9 envelope and the size limit, numbers the event, and appends it to the replay buffer (what makes resume possible); it coalesces the events written in one tick into one chunk, which the baseline does not.',
    '',
  ].join('\n');

  report.write(section);
} finally {
  current.stop();
  previous?.stop();
  baseline?.dispose();
}
