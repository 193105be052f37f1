/**
 * MCP over Streamable HTTP on loopback: this package's server against the SDK's own `echo` tool
 * in the same run, A/B interleaved round by round — messages per second (one call whose result
 * carries `BURST` updates), the round trip of one action, and the server's CPU time per message
 * (read from the server's child process). Both are driven by the SDK's stock `Client`. Prints a
 * Markdown section and writes it into docs/benchmarks.md ("MCP transport").
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
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const BURST = 2_000;
const ROUNDS = 7;
const TRIPS = 200;

type Side = 'a2ui' | 'sdk';
const NAMES: Record<Side, string> = {
  a2ui: '`@a2ui-ts/transport-mcp` (`a2ui_action`, A2UI embedded resource)',
  sdk: "the SDK's own `McpServer` `echo` tool (text blocks, baseline)",
};

const report = startBenchReport({
  packageName: '@a2ui-ts/transport-mcp',
  heading: '## MCP transport',
  file: new URL('../../../docs/benchmarks.md', import.meta.url),
});
const server = await startBenchServer(fileURLToPath(new URL('./server.ts', import.meta.url)));
const base = server.lines[0]!;

async function connect(side: Side): Promise<Client> {
  const capabilities = {
    a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
  };
  const client = new Client({ name: 'bench', version: '1.0.0' }, { capabilities } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/${side}/mcp`)));
  if (side === 'a2ui') await client.callTool({ name: 'a2ui_open', arguments: {} });
  return client;
}

const call = (client: Client, side: Side, n: number) =>
  side === 'a2ui'
    ? client.callTool({ name: 'a2ui_action', arguments: { name: 'burst', context: { n } } })
    : client.callTool({ name: 'echo', arguments: { n } });

interface Figures {
  rates: number[];
  cpuPerMessage: number[];
  trips: number[];
}
const figures: Record<Side, Figures> = {
  a2ui: { rates: [], cpuPerMessage: [], trips: [] },
  sdk: { rates: [], cpuPerMessage: [], trips: [] },
};

async function round(side: Side): Promise<void> {
  const client = await connect(side);
  try {
    const cpuBefore = await server.cpuMicros();
    const start = performance.now();
    await call(client, side, BURST);
    const elapsed = performance.now() - start;
    const cpu = (await server.cpuMicros()) - cpuBefore;
    figures[side].rates.push((BURST / elapsed) * 1000);
    figures[side].cpuPerMessage.push(cpu / BURST);
    for (let trip = 0; trip < TRIPS; trip++) {
      const t0 = performance.now();
      await call(client, side, 1);
      figures[side].trips.push(performance.now() - t0);
    }
  } finally {
    await client.close();
  }
}

try {
  // One warm-up round each, not counted.
  await round('a2ui');
  await round('sdk');
  for (const side of ['a2ui', 'sdk'] as const)
    figures[side] = { rates: [], cpuPerMessage: [], trips: [] };
  // A/B interleaved, the order alternating, so drift in the machine's load hits both alike.
  for (let index = 0; index < ROUNDS; index++)
    for (const side of index % 2 === 0 ? (['a2ui', 'sdk'] as const) : (['sdk', 'a2ui'] as const))
      await round(side);
} finally {
  server.stop();
}

const spread = (values: number[], digits = 0) =>
  `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`;
const rows = (['a2ui', 'sdk'] as const).map((side) => {
  const { rates, cpuPerMessage, trips } = figures[side];
  return `| ${NAMES[side]} | ${fmt(median(rates))} (${spread(rates)}) | ${fmt(median(cpuPerMessage), 1)} (${spread(cpuPerMessage, 1)}) | ${fmt(median(trips), 2)} | ${fmt(percentile(trips, 0.9), 2)} |`;
});
report.write(
  [
    report.heading,
    '',
    `${report.measuredBy()}. Server in a child process, the SDK's stock \`Client\` here, loopback Streamable HTTP; ${ROUNDS} rounds per side after one warm-up each, A/B interleaved (the order alternating). Messages/s: one call whose result carries ${fmt(BURST)} data-model updates (~150 bytes each), from request to parsed result. Server CPU: user + system time of the server process over that call, per message. Round trip: ${fmt(TRIPS)} sequential calls with one update each, per round. Medians, with the range over the rounds in brackets.`,
    '',
    '| Server | Messages/s | Server CPU µs/message | Round trip median ms | p90 ms |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n'),
);
