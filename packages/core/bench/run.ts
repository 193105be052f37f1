/**
 * Core benchmarks (`pnpm bench`): parse + validate + apply throughput side by side with
 * `@a2ui/web_core` 0.11 on the same input, and data-model update cost against unrelated
 * subscribers. Prints a Markdown section and writes it into docs/benchmarks.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  A2uiMessageSchema,
  BASIC_COMPONENTS,
  BASIC_FUNCTIONS,
  Catalog,
  DataModel as WebCoreDataModel,
  MessageProcessor as WebCoreProcessor,
} from '@a2ui/web_core/v0_9';
import {
  BASIC_CATALOG_ID,
  createDefaultCatalogs,
  DataModel,
  MessageProcessor,
  MINIMAL_CATALOG_ID,
} from '../src/index.js';
import { EXAMPLE_STREAMS } from '../src/testing/example-streams.js';

const ROUNDS = 7;

/**
 * Median of `ROUNDS` timed runs of `fn`, in milliseconds, after one warm-up run. `setup` runs
 * before each run, outside the timing, and its result is passed to `fn`.
 */
function measure<T>(fn: (input: T) => void, setup: () => T = () => undefined as T): number {
  fn(setup());
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const input = setup();
    const start = performance.now();
    fn(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

// Every example stream, each message as the JSON text a transport delivers.
const streams = EXAMPLE_STREAMS.map((stream) =>
  stream.messages.map((message) => JSON.stringify(message)),
);
const messagesPerReplay = streams.reduce((sum, stream) => sum + stream.length, 0);
const REPLAYS = 200;
const totalMessages = messagesPerReplay * REPLAYS;

const ours = (validate: boolean) => () => {
  const catalogs = createDefaultCatalogs();
  for (let replay = 0; replay < REPLAYS; replay++) {
    for (const stream of streams) {
      const processor = new MessageProcessor({ catalogs, validate });
      for (const text of stream) processor.process(text);
    }
  }
};

const minimalTypes = new Set(['Text', 'Row', 'Column', 'Button', 'TextField']);
const webCoreCatalogs = () => [
  new Catalog(BASIC_CATALOG_ID, BASIC_COMPONENTS, BASIC_FUNCTIONS),
  new Catalog(
    MINIMAL_CATALOG_ID,
    BASIC_COMPONENTS.filter((component) => minimalTypes.has(component.name)),
    [],
  ),
];
const webCore = (validate: boolean) => () => {
  const catalogs = webCoreCatalogs();
  for (let replay = 0; replay < REPLAYS; replay++) {
    for (const stream of streams) {
      const processor = new WebCoreProcessor(catalogs);
      for (const text of stream) {
        const message = JSON.parse(text);
        processor.processMessages([validate ? A2uiMessageSchema.parse(message) : message] as never);
      }
    }
  }
};

const throughput = (ms: number) => totalMessages / (ms / 1000);
const rows: Array<[string, number]> = [
  [
    'a2ui-ts, JSON text → schema validation (ajv, catalog-aware) → apply',
    throughput(measure(ours(true))),
  ],
  [
    '@a2ui/web_core, JSON.parse → Zod `A2uiMessageSchema.parse` → processMessages',
    throughput(measure(webCore(true))),
  ],
  ['a2ui-ts, validation off', throughput(measure(ours(false)))],
  ['@a2ui/web_core, processMessages only (no validation)', throughput(measure(webCore(false)))],
];

// Data-model update cost: one path written repeatedly while N subscribers watch unrelated paths.
const UPDATES = 20_000;
function updateCost(subscribers: number, kind: 'ours' | 'web_core'): number {
  const setup = () => {
    const model = kind === 'ours' ? new DataModel({}) : new WebCoreDataModel({});
    for (let i = 0; i < subscribers; i++) model.subscribe(`/unrelated/${i}/value`, () => {});
    // Steady state: let the young subscription objects be promoted before timing, so the figure
    // is the cost of an update rather than of the garbage collector copying fresh setup objects.
    for (let i = 0; i < UPDATES; i++) model.set('/warm-up', i);
    return model;
  };
  const ms = measure((model) => {
    for (let i = 0; i < UPDATES; i++) model.set('/target', i);
  }, setup);
  return (ms * 1000) / UPDATES;
}
const subscriberCounts = [1, 100, 10_000];
const updateRows = subscriberCounts.map(
  (count) => [count, updateCost(count, 'ours'), updateCost(count, 'web_core')] as const,
);

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const [oursValidated, webCoreValidated, oursRaw, webCoreRaw] = rows.map(([, value]) => value) as [
  number,
  number,
  number,
  number,
];
const section = [
  '## Core (`@a2ui-ts/core`)',
  '',
  `Measured by \`pnpm --filter @a2ui-ts/core bench\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}; median of ${ROUNDS} runs after a warm-up.`,
  '',
  `### Parse + validate + apply throughput`,
  '',
  `Every official example stream (${messagesPerReplay} messages) replayed ${REPLAYS} times into fresh processors, each message delivered as JSON text.`,
  '',
  '| Pipeline | messages/s |',
  '|---|---:|',
  ...rows.map(([name, value]) => `| ${name} | ${fmt(value)} |`),
  '',
  `**Ratio with validation on: ${fmt(oursValidated / webCoreValidated, 2)}× web_core.** Without validation: ${fmt(oursRaw / webCoreRaw, 2)}×.`,
  '',
  '### Data-model update cost vs unrelated subscribers',
  '',
  `${fmt(UPDATES)} writes to \`/target\` while N subscribers watch \`/unrelated/<i>/value\`.`,
  '',
  '| Unrelated subscribers | a2ui-ts µs/update | web_core µs/update |',
  '|---:|---:|---:|',
  ...updateRows.map(
    ([count, mine, theirs]) => `| ${fmt(count)} | ${fmt(mine, 3)} | ${fmt(theirs, 3)} |`,
  ),
  '',
  `a2ui-ts cost at 10,000 vs 1 subscriber: ${fmt(updateRows[2]![1] / updateRows[0]![1], 2)}× (flat means independent of unrelated subscribers).`,
  '',
].join('\n');

console.log(section);

const docs = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
let current = '';
try {
  current = readFileSync(docs, 'utf8');
} catch {
  current =
    "# Benchmarks\n\nEach section is written by its package's `bench` script (`pnpm bench` runs them all).\n\n";
}
const start = current.indexOf('## Core (`@a2ui-ts/core`)');
if (start === -1) {
  current = `${current.trimEnd()}\n\n${section}`;
} else {
  const next = current.indexOf('\n## ', start + 1);
  current = current.slice(0, start) + section + (next === -1 ? '' : current.slice(next + 1));
}
writeFileSync(docs, `${current.trimEnd()}\n`);
