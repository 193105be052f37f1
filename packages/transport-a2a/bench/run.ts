/**
 * Streamed messages/s and action round trips of the A2A transport over loopback, side by side in
 * the same run with the same `@a2a-js/sdk` server running a bare executor that publishes the same
 * parts (the baseline). The server runs in a child process; the client here is the SDK's stock
 * client for both endpoints. Prints a Markdown section and writes it into docs/benchmarks.md
 * ("A2A transport").
 */
import { fileURLToPath } from 'node:url';
import { type Message, Role, type SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import {
  formatNumber as fmt,
  median,
  percentile,
  startBenchReport,
  startBenchServer,
} from '@a2ui-ts/core/testing/node';
import { A2UI_EXTENSION_URI } from '../src/protocol/a2ui-extension.js';
import { createA2uiDataPart } from '../src/protocol/a2ui-parts.js';

const BURST_MESSAGES = 10_000;
const BURST_ROUNDS = 5;
const ROUND_TRIPS = 200;
const ROUND_TRIP_ROUNDS = 3;

type Endpoint = 'raw' | 'a2ui' | 'a2uiFull';
const ENDPOINTS: readonly Endpoint[] = ['raw', 'a2ui', 'a2uiFull'];
const PATHS: Record<Endpoint, string> = { raw: '/raw/', a2ui: '/a2ui/', a2uiFull: '/a2ui-full/' };
const NAMES: Record<Endpoint, string> = {
  raw: '`@a2a-js/sdk` server, bare executor (baseline)',
  a2ui: '`@a2ui-ts/transport-a2a` (default: last 20 messages of task history stored)',
  a2uiFull: '`@a2ui-ts/transport-a2a`, whole task history stored (as the baseline)',
};

const now = () => performance.timeOrigin + performance.now();
const options = {
  serviceParameters: ServiceParameters.create(withA2AExtensions(A2UI_EXTENSION_URI)),
};

function request(
  contextId: string,
  action?: { name: string; context: Record<string, unknown> },
): SendMessageRequest {
  const message: Message = {
    messageId: crypto.randomUUID(),
    contextId,
    taskId: '',
    role: Role.ROLE_USER,
    parts: action
      ? [
          createA2uiDataPart({
            version: 'v0.9',
            action: {
              ...action,
              surfaceId: 'bench',
              sourceComponentId: 'go',
              timestamp: new Date().toISOString(),
            },
          }),
        ]
      : [],
    metadata: undefined,
    extensions: [A2UI_EXTENSION_URI],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

interface Turn {
  elapsedMs: number;
  messages: number;
  latenciesMs: number[];
}

/** Sends one message and reads its streamed answer to `input-required`, parsing every part. */
async function turn(
  client: Client,
  contextId: string,
  action?: { name: string; context: Record<string, unknown> },
): Promise<Turn> {
  const started = now();
  const latenciesMs: number[] = [];
  for await (const event of client.sendMessageStream(request(contextId, action), options)) {
    if (event.payload?.$case !== 'statusUpdate') continue;
    const status = event.payload.value.status;
    for (const part of status?.message?.parts ?? []) {
      const value =
        part.content?.$case === 'data'
          ? (part.content.value as { updateDataModel?: { value?: { sentAt?: number } } })
          : undefined;
      const sentAt = value?.updateDataModel?.value?.sentAt;
      if (typeof sentAt === 'number') latenciesMs.push(now() - sentAt);
    }
    if (status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) break;
  }
  return { elapsedMs: now() - started, messages: latenciesMs.length, latenciesMs };
}

const report = startBenchReport({
  packageName: '@a2ui-ts/transport-a2a',
  heading: '## A2A transport',
  file: new URL('../../../docs/benchmarks.md', import.meta.url),
});
const server = await startBenchServer(fileURLToPath(new URL('./server.ts', import.meta.url)));
const base = server.lines[0]!;

try {
  const clients = {} as Record<Endpoint, Client>;
  const contexts = {} as Record<Endpoint, string>;
  for (const endpoint of ENDPOINTS) {
    clients[endpoint] = await new ClientFactory().createFromUrl(`${base}${PATHS[endpoint]}`);
    contexts[endpoint] = crypto.randomUUID();
  }
  // Open the conversations, then warm up (JIT on both sides).
  for (const endpoint of ENDPOINTS) {
    await turn(clients[endpoint], contexts[endpoint]);
    await turn(clients[endpoint], contexts[endpoint], { name: 'burst', context: { n: 2_000 } });
    for (let index = 0; index < 50; index++)
      await turn(clients[endpoint], contexts[endpoint], { name: 'ping', context: {} });
  }

  const bursts: Record<Endpoint, Turn[]> = { raw: [], a2ui: [], a2uiFull: [] };
  for (let round = 0; round < BURST_ROUNDS; round++) {
    // Rotate the order so no endpoint always runs on a warmer machine.
    const order = ENDPOINTS.map((_, index) => ENDPOINTS[(index + round) % ENDPOINTS.length]!);
    for (const endpoint of order) {
      const result = await turn(clients[endpoint], contexts[endpoint], {
        name: 'burst',
        context: { n: BURST_MESSAGES },
      });
      if (result.messages !== BURST_MESSAGES)
        throw new Error(`${endpoint}: ${result.messages} of ${BURST_MESSAGES} messages`);
      bursts[endpoint].push(result);
    }
  }
  const trips: Record<Endpoint, number[]> = { raw: [], a2ui: [], a2uiFull: [] };
  for (let round = 0; round < ROUND_TRIP_ROUNDS; round++) {
    for (const endpoint of ENDPOINTS.map(
      (_, index) => ENDPOINTS[(index + round) % ENDPOINTS.length]!,
    )) {
      for (let index = 0; index < ROUND_TRIPS; index++)
        trips[endpoint].push(
          (await turn(clients[endpoint], contexts[endpoint], { name: 'ping', context: {} }))
            .elapsedMs,
        );
    }
  }

  const throughput = (endpoint: Endpoint) =>
    median(bursts[endpoint].map((round) => BURST_MESSAGES / (round.elapsedMs / 1000)));
  const latency = (endpoint: Endpoint, fraction: number) =>
    percentile(
      bursts[endpoint].flatMap((round) => round.latenciesMs),
      fraction,
    );
  const trip = (endpoint: Endpoint, fraction: number) => percentile(trips[endpoint], fraction);
  const ratio = throughput('a2ui') / throughput('raw');

  const section = [
    report.heading,
    '',
    `${report.measuredBy()} (other work on the machine adds noise to both columns alike). The server (every endpoint, one process) runs in a child process; the client — \`@a2a-js/sdk\`'s stock \`Client\` (SSE parsing, ProtoJSON decoding), identical for both — in the parent, over 127.0.0.1. The baseline is the same SDK server (\`DefaultRequestHandler\`, \`InMemoryTaskStore\`, the same JSON-RPC route) running a bare \`AgentExecutor\` that publishes the same data parts in the same \`working\` status updates (64 per update, one update per tick) and ends in \`input-required\`; this transport hosts an \`A2uiAgent\` sending the same messages, 64 per tick. Each message is the same \`updateDataModel\` carrying its send time.`,
    '',
    `### Streamed messages: one action answered with ${fmt(BURST_MESSAGES)} messages`,
    '',
    `Median of ${BURST_ROUNDS} rounds after a warm-up, endpoints alternating; each round is one A2A message (a new task in the same context) whose streamed answer carries all of them.`,
    '',
    '| Endpoint | messages/s | latency p50 ms | latency p99 ms |',
    '|---|---:|---:|---:|',
    ...ENDPOINTS.map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(throughput(endpoint))} | ${fmt(latency(endpoint, 0.5), 1)} | ${fmt(latency(endpoint, 0.99), 1)} |`,
    ),
    '',
    `**Throughput: ${fmt(ratio, 2)}× the SDK baseline** (goal ≥ 0.8×); ${fmt(throughput('a2uiFull') / throughput('raw'), 2)}× when it stores whole task histories as the baseline does, which is what the hosting itself costs. The SDK loads and saves the whole task on every event, and a task's history grows with every status update, so a long turn costs both quadratically; this transport keeps the last 20 messages of history by default (\`maxTaskHistory\`; clients resume from the session's replay log).`,
    '',
    `### Action round trip: ${fmt(ROUND_TRIPS)} actions × ${ROUND_TRIP_ROUNDS} rounds, one message answered with one`,
    '',
    'From sending the action (`SendStreamingMessage`) to reading `input-required`: the whole turn, with task creation and storage.',
    '',
    '| Endpoint | p50 ms | p99 ms |',
    '|---|---:|---:|',
    ...ENDPOINTS.map(
      (endpoint) =>
        `| ${NAMES[endpoint]} | ${fmt(trip(endpoint, 0.5), 3)} | ${fmt(trip(endpoint, 0.99), 3)} |`,
    ),
    '',
    `p50 ratio (baseline ÷ this transport, higher is better): ${fmt(trip('raw', 0.5) / trip('a2ui', 0.5), 2)}×; p99: ${fmt(trip('raw', 0.99) / trip('a2ui', 0.99), 2)}×.`,
    '',
    "Per action this transport also parses and validates the A2UI part (schema, metadata, sizes), opens or finds the context's session, runs the turn on the session host (in order, idempotent by message id), follows the session's replay log and validates every outgoing message against its catalog; the baseline does none of it.",
    '',
  ].join('\n');

  report.write(section);
} finally {
  server.stop();
}
