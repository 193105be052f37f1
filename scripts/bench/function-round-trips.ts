/**
 * `pnpm bench:functions` (and the last step of `pnpm bench`): a v1.0 function round trip
 * (`callAgentFunction` → `agentFunctionResponse`) beside an action round trip (an action → the
 * agent's one `updateDataModel`), per binding, in the same run, interleaved. The server (every
 * binding, one process: `function-round-trips-server.ts`) runs in a child process; the client —
 * an `A2uiClient` on each binding's own client transport — here. Server CPU per round trip is the
 * child's `process.cpuUsage()` over each round. Writes the section "Function calls beside actions,
 * per binding" of docs/benchmarks.md.
 */
import { fileURLToPath } from 'node:url';
import { A2uiClient, type ClientTransport } from '@a2ui-ts/core';
import {
  formatNumber as fmt,
  loadAverage,
  median,
  percentile,
  startBenchReport,
  startBenchServer,
} from '@a2ui-ts/core/testing/node';
import { connectA2a } from '@a2ui-ts/transport-a2a';
import { connectRest } from '@a2ui-ts/transport-rest';
import { connectSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc';
import { connectWs } from '@a2ui-ts/transport-ws';
import { WebSocket } from 'ws';

const WARM_UP = 50;
const PER_ROUND = 200;
const ROUNDS = 5;

type Binding = 'sse' | 'ws' | 'rest' | 'a2a';
type Kind = 'action' | 'function';
const BINDINGS: Record<Binding, { name: string; connect: (url: string) => ClientTransport }> = {
  sse: { name: 'SSE + JSON-RPC', connect: (url) => connectSseJsonRpc({ url }) },
  ws: { name: 'WebSocket', connect: (url) => connectWs({ url, WebSocket }) },
  rest: { name: 'REST', connect: (url) => connectRest({ url }) },
  a2a: { name: 'A2A', connect: (url) => connectA2a({ url }) },
};
const ORDER = Object.keys(BINDINGS) as Binding[];
const now = () => performance.now();

/** One client on one binding, with a round trip of each kind. */
async function open(binding: Binding, url: string) {
  const client = new A2uiClient({ transport: BINDINGS[binding].connect(url) });
  const waiting = new Map<number, () => void>();
  client.subscribe((event) => {
    if (event.type !== 'received') return;
    const input = typeof event.input === 'string' ? JSON.parse(event.input) : event.input;
    for (const message of Array.isArray(input) ? input : [input]) {
      const index = message?.updateDataModel?.value?.index;
      if (typeof index === 'number') waiting.get(index)?.();
    }
  });
  void client.connect().catch(() => {});
  await client.until(() => client.processor.getSurface('bench') !== undefined);
  let counter = 0;
  return {
    async action(): Promise<number> {
      const index = ++counter;
      const started = now();
      const answered = new Promise<void>((resolve) => waiting.set(index, resolve));
      await client.send({
        version: 'v0.9',
        action: {
          name: 'submit',
          surfaceId: 'bench',
          sourceComponentId: 'send',
          timestamp: new Date().toISOString(),
          context: { index },
        },
      });
      await answered;
      waiting.delete(index);
      return now() - started;
    },
    async function(): Promise<number> {
      const index = ++counter;
      const started = now();
      const value = await client.callAgentFunction('bench', { call: 'echo', args: { index } });
      if ((value as { index?: number }).index !== index) throw new Error('a wrong answer');
      return now() - started;
    },
    close: () => client.close(),
  };
}

interface Round {
  latenciesMs: number[];
  cpuMicrosPerTrip: number;
}

const report = startBenchReport({
  packageName: 'a2ui-ts',
  heading: '## Function calls beside actions, per binding',
  file: new URL('../../docs/benchmarks.md', import.meta.url),
});
const server = await startBenchServer(
  fileURLToPath(new URL('./function-round-trips-server.ts', import.meta.url)),
  ORDER.length,
);

try {
  const clients = Object.fromEntries(
    await Promise.all(
      ORDER.map(async (binding, index) => [binding, await open(binding, server.lines[index]!)]),
    ),
  ) as Record<Binding, Awaited<ReturnType<typeof open>>>;
  for (const binding of ORDER)
    for (let trip = 0; trip < WARM_UP; trip++) {
      await clients[binding].action();
      await clients[binding].function();
    }
  const rounds: Record<string, Round[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const binding of ORDER) {
      // Alternate which kind goes first, so neither always runs on a warmer machine.
      const kinds: Kind[] = round % 2 === 0 ? ['action', 'function'] : ['function', 'action'];
      for (const kind of kinds) {
        const latenciesMs: number[] = [];
        const cpuBefore = await server.cpuMicros();
        for (let trip = 0; trip < PER_ROUND; trip++)
          latenciesMs.push(await clients[binding][kind]());
        const cpuMicrosPerTrip = ((await server.cpuMicros()) - cpuBefore) / PER_ROUND;
        const row = rounds[`${binding} ${kind}`] ?? [];
        row.push({ latenciesMs, cpuMicrosPerTrip });
        rounds[`${binding} ${kind}`] = row;
      }
    }
  }
  for (const binding of ORDER) await clients[binding].close();
  const loadAtEnd = loadAverage();

  const all = (binding: Binding, kind: Kind) =>
    rounds[`${binding} ${kind}`]!.flatMap((round) => round.latenciesMs);
  const p = (binding: Binding, kind: Kind, fraction: number) =>
    percentile(all(binding, kind), fraction);
  /** The median of the rounds' p50s, with their lowest–highest. */
  const spread = (binding: Binding, kind: Kind) => {
    const p50s = rounds[`${binding} ${kind}`]!.map((round) => percentile(round.latenciesMs, 0.5));
    return `${fmt(Math.min(...p50s), 2)}–${fmt(Math.max(...p50s), 2)}`;
  };
  const cpu = (binding: Binding, kind: Kind) => {
    const perRound = rounds[`${binding} ${kind}`]!.map((round) => round.cpuMicrosPerTrip);
    return `${fmt(median(perRound))} (${fmt(Math.min(...perRound))}–${fmt(Math.max(...perRound))})`;
  };

  const section = [
    report.heading,
    '',
    `Measured by \`pnpm bench:functions\` (the last step of \`pnpm bench\`) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, 1-minute load average ${fmt(report.loadAtStart, 1)} at the start and ${fmt(loadAtEnd, 1)} at the end (the machine is shared: other work adds noise to every column alike). One server process runs every binding (each on its own loopback port) with one agent; the client — an \`A2uiClient\` on each binding's own client transport (\`connectSseJsonRpc\`, \`connectWs\` with \`ws\`, \`connectRest\`, \`connectA2a\`) — runs in this process. The connection negotiates v1.0.`,
    '',
    `An **action round trip** sends an action and ends when the agent's one \`updateDataModel\` (echoing the action's index) is applied; a **function round trip** is \`client.callAgentFunction('bench', { call: 'echo', args: { index } })\` until its promise resolves with the agent's \`agentFunctionResponse\` (the agent function returns its arguments). ${PER_ROUND} sequential round trips per round, ${ROUNDS} rounds after ${WARM_UP} warm-up trips of each kind; in each round the bindings take turns and the two kinds alternate which goes first. p50/p99 are over all ${fmt(PER_ROUND * ROUNDS)} trips of a row; the spread is the lowest–highest p50 of its rounds. Server CPU is user + system time of the server process per round trip, in µs: median of the rounds (lowest–highest).`,
    '',
    '| Binding | action p50 ms | action p99 ms | function p50 ms | function p99 ms | function ÷ action p50 | action p50 spread | function p50 spread | server CPU µs/action | server CPU µs/function |',
    '|---|---:|---:|---:|---:|---:|---|---|---:|---:|',
    ...ORDER.map(
      (binding) =>
        `| ${BINDINGS[binding].name} | ${fmt(p(binding, 'action', 0.5), 2)} | ${fmt(p(binding, 'action', 0.99), 2)} | ${fmt(p(binding, 'function', 0.5), 2)} | ${fmt(p(binding, 'function', 0.99), 2)} | ${fmt(p(binding, 'function', 0.5) / p(binding, 'action', 0.5), 2)}× | ${spread(binding, 'action')} | ${spread(binding, 'function')} | ${cpu(binding, 'action')} | ${cpu(binding, 'function')} |`,
    ),
    '',
    "REST and A2A are turn-based: an action is one request answered with its turn, and so is a `callAgentFunction` (its answer is in the turn); on SSE + JSON-RPC the call is a POST acknowledged at once and the answer arrives on the event stream, as an action's does.",
    '',
  ].join('\n');
  report.write(section);
  process.stdout.write(`${section}\n`);
} finally {
  server.stop();
}
