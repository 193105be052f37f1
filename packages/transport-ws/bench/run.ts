/**
 * Server → client throughput and latency of the WebSocket transport over loopback, side by side
 * in the same run with a raw `ws` server sending the same payloads (the baseline), and the memory
 * one idle connection costs the server at 2,000 connections, for both. The server runs in a child
 * process, the reading client here. Prints a Markdown section and writes it into
 * docs/benchmarks.md ("WebSocket transport").
 */
import { fileURLToPath } from 'node:url';
import {
  formatNumber as fmt,
  loadAverage,
  median,
  percentile,
  startBenchReport,
  startBenchServer,
} from '@a2ui-ts/core/testing/node';
import { WebSocket } from 'ws';
import { formatSeqAckFrame, isControlFrame, WS_SUBPROTOCOL } from '../src/index.js';

const BURST_MESSAGES = 50_000;
const BURST_ROUNDS = 7;
const PACED_MESSAGES = 1_000;
const PACED_ROUNDS = 3;
const IDLE_CONNECTIONS = 2_000;

type Endpoint = 'raw' | 'a2ui';
const PATHS: Record<Endpoint, string> = { raw: '/raw', a2ui: '/a2ui/ws' };
const NAMES: Record<Endpoint, string> = {
  raw: 'raw `ws` server (baseline)',
  a2ui: '`@a2ui-ts/transport-ws`',
};

interface Round {
  elapsedMs: number;
  bytes: number;
  latenciesMs: Float64Array;
  /** Server CPU time (user + system) the round cost, in microseconds. */
  cpuMicros: number;
}

/**
 * How the client reads: `parse` as an application would (control frames told apart, every
 * message parsed); `count` only counts the frames that carry an update, so the reader is not the
 * bottleneck and the throughput is the server's.
 */
type Reader = 'parse' | 'count';
const MARKER = Buffer.from('"updateDataModel"');

const now = () => performance.timeOrigin + performance.now();

/**
 * Reads `n` data-model updates from one endpoint, as a client would: every text frame is told
 * apart from control frames and parsed (identical work for both endpoints).
 */
async function measure(
  base: string,
  endpoint: Endpoint,
  n: number,
  mode: 'burst' | 'paced',
  reader: Reader = 'parse',
): Promise<Round> {
  const cpuBefore = await server.cpuMicros();
  const round = await read(base, endpoint, n, mode, reader);
  // The server finishes its round (the last writes, the reader's goodbye) before it is read.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { ...round, cpuMicros: (await server.cpuMicros()) - cpuBefore };
}

function read(
  base: string,
  endpoint: Endpoint,
  n: number,
  mode: 'burst' | 'paced',
  reader: Reader,
) {
  return new Promise<Omit<Round, 'cpuMicros'>>((resolve, reject) => {
    const latenciesMs = new Float64Array(n);
    let received = 0;
    let bytes = 0;
    const started = now();
    const socket = new WebSocket(`${base}${PATHS[endpoint]}?n=${n}&mode=${mode}`, [WS_SUBPROTOCOL]);
    socket.on('error', reject);
    socket.on('message', (data: Buffer) => {
      bytes += data.length;
      if (reader === 'count') {
        if (data.includes(MARKER) && ++received === n) {
          resolve({ elapsedMs: now() - started, bytes, latenciesMs });
          socket.terminate();
        }
        return;
      }
      const text = data.toString();
      if (isControlFrame(text)) return;
      const message = JSON.parse(text) as { updateDataModel?: { value: { sentAt: number } } };
      if (!message.updateDataModel) return;
      latenciesMs[received++] = now() - message.updateDataModel.value.sentAt;
      if (received === n) {
        const elapsedMs = now() - started;
        socket.terminate();
        resolve({ elapsedMs, bytes, latenciesMs });
      }
    });
    socket.on('close', () => {
      if (received < n) reject(new Error(`${endpoint} closed after ${received} of ${n} messages`));
    });
  });
}

interface Memory {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

async function serverMemory(base: string): Promise<Memory> {
  const response = await fetch(`${base.replace('ws:', 'http:')}/memory`);
  return (await response.json()) as Memory;
}

/** Opens `count` idle sockets (each gets its two messages), measures, closes them. */
async function idleCost(base: string, endpoint: Endpoint, count: number) {
  const before = await serverMemory(base);
  const sockets: WebSocket[] = [];
  for (let start = 0; start < count; start += 100) {
    await Promise.all(
      Array.from(
        { length: Math.min(100, count - start) },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = new WebSocket(`${base}${PATHS[endpoint]}?mode=idle`, [WS_SUBPROTOCOL]);
            sockets.push(socket);
            let messages = 0;
            socket.on('error', reject);
            socket.on('message', (data: Buffer) => {
              if (isControlFrame(data.toString())) return;
              if (++messages < 2) return;
              // As connectWs does once the messages are applied: the server may forget them.
              if (endpoint === 'a2ui') socket.send(formatSeqAckFrame(2));
              resolve();
            });
          }),
      ),
    );
  }
  // Let the acknowledgements land before measuring.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await serverMemory(base);
  for (const socket of sockets) socket.terminate();
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const js = (memory: Memory) => memory.heapUsed + memory.external;
  return {
    jsBytes: (js(after) - js(before)) / count,
    rssBytes: (after.rss - before.rss) / count,
  };
}

/** Every latency of `rounds`, in one list. */
const latencies = (rounds: readonly Round[]): number[] =>
  rounds.flatMap((round) => Array.from(round.latenciesMs));

const report = startBenchReport({
  packageName: '@a2ui-ts/transport-ws',
  heading: '## WebSocket transport',
  file: new URL('../../../docs/benchmarks.md', import.meta.url),
});
// The server: a child process with the same loader flags as this one (tsx, source condition, gc).
const server = await startBenchServer(fileURLToPath(new URL('./server.ts', import.meta.url)));
const base = server.lines[0]!;

try {
  // Warm-up: JIT both paths on both sides.
  for (const endpoint of ['raw', 'a2ui'] as const) await measure(base, endpoint, 10_000, 'burst');

  const burst: Record<Endpoint, Round[]> = { raw: [], a2ui: [] };
  for (let round = 0; round < BURST_ROUNDS; round++) {
    // Alternate the order so neither endpoint always runs on a warmer machine.
    const order: Endpoint[] = round % 2 === 0 ? ['raw', 'a2ui'] : ['a2ui', 'raw'];
    for (const endpoint of order)
      burst[endpoint].push(await measure(base, endpoint, BURST_MESSAGES, 'burst'));
  }
  const light: Record<Endpoint, Round[]> = { raw: [], a2ui: [] };
  for (let round = 0; round < BURST_ROUNDS; round++) {
    const order: Endpoint[] = round % 2 === 0 ? ['raw', 'a2ui'] : ['a2ui', 'raw'];
    for (const endpoint of order)
      light[endpoint].push(await measure(base, endpoint, BURST_MESSAGES, 'burst', 'count'));
  }
  const paced: Record<Endpoint, Round[]> = { raw: [], a2ui: [] };
  for (let round = 0; round < PACED_ROUNDS; round++) {
    for (const endpoint of ['raw', 'a2ui'] as const) {
      // The garbage of the bursts is collected first, so that neither side pays for it here.
      await serverMemory(base);
      paced[endpoint].push(await measure(base, endpoint, PACED_MESSAGES, 'paced'));
    }
  }
  const idle = {
    raw: await idleCost(base, 'raw', IDLE_CONNECTIONS),
    a2ui: await idleCost(base, 'a2ui', IDLE_CONNECTIONS),
  };

  const rates = (endpoint: Endpoint, rounds: Record<Endpoint, Round[]>) =>
    rounds[endpoint].map((round) => BURST_MESSAGES / (round.elapsedMs / 1000));
  const throughput = (endpoint: Endpoint, rounds = burst) => median(rates(endpoint, rounds));
  const cpus = (endpoint: Endpoint, rounds: Record<Endpoint, Round[]>) =>
    rounds[endpoint].map((round) => round.cpuMicros / BURST_MESSAGES);
  const cpuPerMessage = (endpoint: Endpoint, rounds = burst) => median(cpus(endpoint, rounds));
  const spread = (values: readonly number[], digits = 0) =>
    `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`;
  const megabytes = (endpoint: Endpoint) =>
    median(burst[endpoint].map((round) => round.bytes / 1e6 / (round.elapsedMs / 1000)));
  const ratio = throughput('a2ui') / throughput('raw');
  const burstLatency = (endpoint: Endpoint, fraction: number) =>
    percentile(latencies(burst[endpoint]), fraction);
  const pacedLatency = (endpoint: Endpoint, fraction: number) =>
    percentile(latencies(paced[endpoint]), fraction);
  const bytesPerMessage = (endpoint: Endpoint) => burst[endpoint][0]!.bytes / BURST_MESSAGES;
  const kb = (bytes: number) => fmt(bytes / 1024, 1);

  const section = [
    report.heading,
    '',
    `${report.measuredBy()} (other work on the machine adds noise to both columns alike). The server (both endpoints, one process, one port) runs in a child process; the client — a \`ws\` socket that tells control frames apart and \`JSON.parse\`s every message, identical for both — in the parent, over 127.0.0.1. Each message is the same \`updateDataModel\` carrying its send time (about ${fmt(bytesPerMessage('raw'))} bytes on the wire), as the agent's \`connection.send(message)\` behind this transport, and pre-serialized for the baseline (a template that only fills in the send time, checked to give the same bytes). Latency = receive time − send time, across processes on one machine.`,
    '',
    `### Throughput: ${fmt(BURST_MESSAGES)} messages as fast as each endpoint takes them`,
    '',
    `Median of ${BURST_ROUNDS} rounds after a warm-up, endpoints alternating. Both yield to I/O every 64 messages: the baseline calls \`ws.send(frame)\` in a loop, corking the socket until the end of the tick as this transport does, the agent behind this transport \`connection.send(message)\` (which validates, serializes, numbers and logs each message).`,
    '',
    '| Endpoint | messages/s (spread) | server CPU µs/message (spread) | MB/s | latency p50 ms | latency p99 ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...(['raw', 'a2ui'] as const).map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(throughput(endpoint))} (${spread(rates(endpoint, burst))}) | ${fmt(cpuPerMessage(endpoint), 2)} (${spread(cpus(endpoint, burst), 2)}) | ${fmt(megabytes(endpoint), 1)} | ${fmt(burstLatency(endpoint, 0.5), 1)} | ${fmt(burstLatency(endpoint, 0.99), 1)} |`,
    ),
    '',
    `**Throughput: ${fmt(ratio, 2)}× the raw baseline** (goal ≥ 0.8×). Under a burst the reader is the bottleneck, so latency there is mostly the reader's backlog, not the transport; the paced run below measures the transport itself.`,
    '',
    `### Server CPU per message, with a light reader`,
    '',
    `The same burst, ${BURST_ROUNDS} rounds alternating, but the client only counts the frames that carry an update (no \`JSON.parse\`), so the reader is no longer the bottleneck. Server CPU is \`process.cpuUsage()\` (user + system) read in the server process before and after each round, over the messages of the round; the spread is the lowest–highest round.`,
    '',
    '| Endpoint | messages/s (spread) | server CPU µs/message (spread) |',
    '|---|---:|---:|',
    ...(['raw', 'a2ui'] as const).map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(throughput(endpoint, light))} (${spread(rates(endpoint, light))}) | ${fmt(cpuPerMessage(endpoint, light), 2)} (${spread(cpus(endpoint, light), 2)}) |`,
    ),
    '',
    `**Server CPU per message: ${fmt(cpuPerMessage('a2ui', light) / cpuPerMessage('raw', light), 2)}× the corked \`ws\` baseline** (goal ≤ 1.2×); throughput with the light reader ${fmt(throughput('a2ui', light) / throughput('raw', light), 2)}× (goal ≥ 0.9×). 1-minute load average at the end: ${fmt(loadAverage(), 1)}.`,
    '',
    `### Latency: one message per millisecond (${fmt(PACED_MESSAGES)} messages × ${PACED_ROUNDS} rounds)`,
    '',
    '| Endpoint | p50 ms | p99 ms |',
    '|---|---:|---:|',
    ...(['raw', 'a2ui'] as const).map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(pacedLatency(endpoint, 0.5), 3)} | ${fmt(pacedLatency(endpoint, 0.99), 3)} |`,
    ),
    '',
    `p50 ratio (baseline ÷ this transport, higher is better): ${fmt(pacedLatency('raw', 0.5) / pacedLatency('a2ui', 0.5), 2)}×; p99: ${fmt(pacedLatency('raw', 0.99) / pacedLatency('a2ui', 0.99), 2)}×.`,
    '',
    `### Memory per idle connection, at ${fmt(IDLE_CONNECTIONS)} connections`,
    '',
    `The server's memory after a forced GC, before and with ${fmt(IDLE_CONNECTIONS)} open sockets that each received one \`createSurface\` and one update and then went quiet (the transport's clients also acknowledged them, as \`connectWs\` does, so the replay log is empty), divided by the number of sockets. JS = V8 heap + external memory; RSS is the whole process, noisier.`,
    '',
    '| Endpoint | JS KB / connection | RSS KB / connection |',
    '|---|---:|---:|',
    ...(['raw', 'a2ui'] as const).map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${kb(idle[endpoint].jsBytes)} | ${kb(idle[endpoint].rssBytes)} |`,
    ),
    '',
    `**This transport: ${kb(idle.a2ui.jsBytes)} KB of JS memory per idle connection** (goal ≤ 20 KB), ${kb(idle.a2ui.jsBytes - idle.raw.jsBytes)} KB above a bare \`ws\` socket: the session (its agent connection, replay log, request-id memory, registry record) and the link.`,
    '',
    'Per message this transport also checks the v0.9 envelope and the size limit, numbers the message, and appends it to the replay log (what makes resume possible); both write the frames of one tick in one TCP write (`cork`).',
    '',
  ].join('\n');

  report.write(section);
} finally {
  server.stop();
}
