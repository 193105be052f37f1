/**
 * `pnpm bench`: @a2ui-ts/react-renderer side by side with the official @a2ui/react 0.11.1 on the
 * same streams, in one run, in the same jsdom + React 19 production (profiling) build.
 *
 * 1. A List template of 1,000 items, then 1,000 single-item `updateDataModel` messages: wall time
 *    per update (message in → DOM committed), React commits and re-rendered components per update.
 * 2. Initial render (process + first commit) of every shared example stream.
 * 2b. The same, with the official renderer configured with its markdown renderer
 *    (`@a2ui/markdown-it`, which it asks for), timed until everything it shows is on screen: its
 *    Text renders markdown asynchronously, in a later commit.
 *
 * Results go to stdout and to the `## React renderer` section of docs/benchmarks.md.
 */
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, percentile, writeBenchmarkSection } from '@a2ui-ts/core/testing/node';
import { installDom } from './dom-environment.js';
import { countRenders, installCommitHook } from './render-counter.js';

installDom();
installCommitHook();

// React and the renderers read the DOM globals at import time: import them after installDom().
const React = await import('react');
const { flushSync } = await import('react-dom');
const { createRoot } = await import('react-dom/profiling');
const core = await import('@a2ui-ts/core');
const { EXAMPLE_STREAMS } = await import('@a2ui-ts/core/testing');
const ours = await import('../src/index.js');
const webCore = await import('@a2ui/web_core/v0_9');
const official = await import('@a2ui/react/v0_9');
// DOMPurify binds to the window at import time.
const { renderMarkdown: officialMarkdown } = await import('@a2ui/markdown-it');

const { createElement } = React;

const ITEMS = 1000;
const WARMUP_UPDATES = 300;
const TIMED_ROUNDS = 3;
const EXAMPLE_REPEATS = 25;
const EXAMPLE_WARMUP = 5;

// The official Text warns once without a markdown renderer; the bench runs it in that default.
console.warn = () => {};

/** One renderer under test. */
interface Mounted {
  /** Applies one server message and returns when React has committed it to the DOM. */
  process(message: unknown): void;
  unmount(): void;
}

interface Adapter {
  readonly name: string;
  /** The functions that render one A2UI component each (what "a re-rendered component" counts). */
  readonly componentTypes: ReadonlySet<unknown>;
  /** `<component id>@<data path>` of one rendered component, from its props. */
  keyOf(props: Record<string, unknown>): string;
  mount(messages: readonly unknown[], container: HTMLElement): Mounted;
}

const oursAdapter: Adapter = {
  name: '@a2ui-ts/react-renderer',
  componentTypes: new Set(Object.values(ours.BASIC_COMPONENTS)),
  keyOf: (props) => `${props.id}@${(props.node as { scope: string }).scope}`,
  mount(messages, container) {
    const client = new core.A2uiClient();
    client.process(messages);
    const root = createRoot(container);
    // Mounted in one commit, as the official renderer does: the scenarios time whole surfaces.
    flushSync(() =>
      root.render(
        createElement(ours.A2UIRenderer, { client, mountSliceMs: Number.POSITIVE_INFINITY }),
      ),
    );
    return {
      process: (message) => flushSync(() => void client.process(message)),
      unmount: () => root.unmount(),
    };
  },
};

const officialAdapter: Adapter = {
  name: '@a2ui/react 0.11.1',
  // Each implementation's `view` is the component that subscribes to and renders one node.
  componentTypes: new Set(
    [...official.basicCatalog.components.values()].map((implementation) => implementation.view),
  ),
  keyOf: (props) => {
    const node = props.node as { componentId: string; dataPath: string };
    return `${node.componentId}@${node.dataPath}`;
  },
  mount(messages, container) {
    const processor = new webCore.MessageProcessor([official.basicCatalog]);
    processor.processMessages(messages as never);
    const surfaceId = (messages[0] as { createSurface: { surfaceId: string } }).createSurface
      .surfaceId;
    const surface = processor.model.surfacesMap.get(surfaceId);
    const root = createRoot(container);
    flushSync(() => root.render(createElement(official.A2uiSurface, { surface: surface! })));
    return {
      process: (message) => flushSync(() => processor.processMessages([message] as never)),
      unmount: () => root.unmount(),
    };
  },
};

const ADAPTERS = [oursAdapter, officialAdapter];

// ---------------------------------------------------------------------------------------------
// Scenario 1: 1,000-item template, 1,000 single-item updates
// ---------------------------------------------------------------------------------------------

const SURFACE_ID = 'bench-list';
const listStream: unknown[] = [
  { version: 'v0.9', createSurface: { surfaceId: SURFACE_ID, catalogId: core.BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: SURFACE_ID,
      components: [
        { id: 'root', component: 'Column', children: ['title', 'list'] },
        { id: 'title', component: 'Text', text: { path: '/title' }, variant: 'h2' },
        { id: 'list', component: 'List', children: { componentId: 'row', path: '/items' } },
        { id: 'row', component: 'Row', children: ['name', 'qty'] },
        { id: 'name', component: 'Text', text: { path: 'name' } },
        { id: 'qty', component: 'Text', text: { path: 'qty' } },
      ],
    },
  },
  {
    version: 'v0.9',
    updateDataModel: {
      surfaceId: SURFACE_ID,
      path: '/',
      value: {
        title: 'Inventory',
        items: Array.from({ length: ITEMS }, (_, index) => ({ name: `Item ${index}`, qty: index })),
      },
    },
  },
];

/** Update `round` of item `index`: a new name, so exactly one Text changes. */
const update = (index: number, round: number): unknown => ({
  version: 'v0.9',
  updateDataModel: {
    surfaceId: SURFACE_ID,
    path: `/items/${index}/name`,
    value: `Renamed ${index} r${round}`,
  },
});

function newContainer(): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  return container;
}

interface UpdateTiming {
  mountMs: number;
  totalMs: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
}

function timeUpdates(adapter: Adapter, round: number, count: number): UpdateTiming {
  const container = newContainer();
  const mountStart = performance.now();
  const mounted = adapter.mount(listStream, container);
  const mountMs = performance.now() - mountStart;
  const durations: number[] = [];
  for (let index = 0; index < count; index++) {
    const message = update(index, round);
    const start = performance.now();
    mounted.process(message);
    durations.push(performance.now() - start);
  }
  // Correctness: the last update is on screen.
  const expected = `Renamed ${count - 1} r${round}`;
  if (!container.textContent?.includes(expected))
    throw new Error(`${adapter.name}: "${expected}" not rendered`);
  mounted.unmount();
  container.remove();
  const sorted = [...durations].sort((a, b) => a - b);
  const totalMs = durations.reduce((sum, value) => sum + value, 0);
  return {
    mountMs,
    totalMs,
    meanMs: totalMs / count,
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
  };
}

interface UpdateCounts {
  commitsPerUpdate: number;
  rendersPerUpdate: number;
  maxRenders: number;
  /** Updates where exactly the one bound Text (`name@/items/<i>`) rendered and nothing else. */
  exact: number;
  sample: string[];
}

function countUpdates(adapter: Adapter): UpdateCounts {
  const container = newContainer();
  const mounted = adapter.mount(listStream, container);
  const counter = countRenders(adapter.componentTypes, adapter.keyOf);
  let totalRenders = 0;
  let totalCommits = 0;
  let maxRenders = 0;
  let exact = 0;
  let sample: string[] = [];
  for (let index = 0; index < ITEMS; index++) {
    counter.reset();
    mounted.process(update(index, 99));
    totalRenders += counter.rendered.length;
    totalCommits += counter.commits;
    maxRenders = Math.max(maxRenders, counter.rendered.length);
    if (counter.rendered.length === 1 && counter.rendered[0] === `name@/items/${index}`) exact++;
    if (index === 500) sample = counter.rendered.slice(0, 6);
  }
  counter.stop();
  mounted.unmount();
  container.remove();
  return {
    commitsPerUpdate: totalCommits / ITEMS,
    rendersPerUpdate: totalRenders / ITEMS,
    maxRenders,
    exact,
    sample,
  };
}

// ---------------------------------------------------------------------------------------------
// Scenario 2: initial render of every example
// ---------------------------------------------------------------------------------------------

function timeInitialRender(adapter: Adapter, messages: readonly unknown[]): number {
  const container = newContainer();
  const start = performance.now();
  const mounted = adapter.mount(messages, container);
  const elapsed = performance.now() - start;
  if (
    (container.textContent ?? '').length === 0 &&
    container.querySelector('input, img, svg') === null
  ) {
    throw new Error(`${adapter.name} rendered nothing`);
  }
  mounted.unmount();
  container.remove();
  return elapsed;
}

/** Markdown renders of the official renderer still running (it renders markdown asynchronously). */
const pendingMarkdown = new Set<Promise<unknown>>();
const trackedMarkdown = (text: string, options?: unknown): Promise<string> => {
  const rendering = officialMarkdown(text, options as never);
  pendingMarkdown.add(rendering);
  void rendering.finally(() => pendingMarkdown.delete(rendering));
  return rendering;
};
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Process + render with the official markdown renderer, until the page stops changing: every
 * markdown render resolved and committed (no `.no-markdown-renderer` placeholder text left).
 */
async function timeOfficialSettled(messages: readonly unknown[]): Promise<number> {
  const container = newContainer();
  const start = performance.now();
  const processor = new webCore.MessageProcessor([official.basicCatalog]);
  processor.processMessages(messages as never);
  const surfaceId = (messages[0] as { createSurface: { surfaceId: string } }).createSurface
    .surfaceId;
  const root = createRoot(container);
  flushSync(() =>
    root.render(
      createElement(
        official.MarkdownContext.Provider,
        { value: trackedMarkdown as never },
        createElement(official.A2uiSurface, {
          surface: processor.model.surfacesMap.get(surfaceId)!,
        }),
      ),
    ),
  );
  for (let turns = 0; pendingMarkdown.size > 0 || turns === 0; turns++) {
    if (turns > 10_000) throw new Error('the official renderer never settled');
    await nextTurn();
  }
  const elapsed = performance.now() - start;
  root.unmount();
  container.remove();
  return elapsed;
}

// ---------------------------------------------------------------------------------------------

const fmt = (value: number, digits = 3): string => value.toFixed(digits);
const ratio = (theirs: number, mine: number): string => `${(theirs / mine).toFixed(1)}×`;

console.log(`Scenario 1: ${ITEMS}-item List template, ${ITEMS} single-item updates`);
for (const adapter of ADAPTERS) timeUpdates(adapter, -1, WARMUP_UPDATES);
const timings = new Map<string, UpdateTiming[]>(ADAPTERS.map((adapter) => [adapter.name, []]));
for (let round = 0; round < TIMED_ROUNDS; round++) {
  // Alternate the order so neither renderer always runs on a warmer heap.
  const order = round % 2 === 0 ? ADAPTERS : [...ADAPTERS].reverse();
  for (const adapter of order) timings.get(adapter.name)!.push(timeUpdates(adapter, round, ITEMS));
}
const counts = new Map(ADAPTERS.map((adapter) => [adapter.name, countUpdates(adapter)]));

/** The round with the median total time of each renderer. */
const representative = (name: string): UpdateTiming => {
  const rounds = [...timings.get(name)!].sort((a, b) => a.totalMs - b.totalMs);
  return rounds[Math.floor(rounds.length / 2)]!;
};
const mine = representative(oursAdapter.name);
const theirs = representative(officialAdapter.name);
const mineCounts = counts.get(oursAdapter.name)!;
const theirCounts = counts.get(officialAdapter.name)!;

for (const adapter of ADAPTERS) {
  const timing = representative(adapter.name);
  const count = counts.get(adapter.name)!;
  console.log(
    `  ${adapter.name.padEnd(26)} mount ${fmt(timing.mountMs, 1)} ms | 1000 updates ${fmt(timing.totalMs, 1)} ms | mean ${fmt(timing.meanMs)} p50 ${fmt(timing.p50Ms)} p95 ${fmt(timing.p95Ms)} ms | commits/update ${fmt(count.commitsPerUpdate, 2)} | components/update ${fmt(count.rendersPerUpdate, 2)} (max ${count.maxRenders}, exact ${count.exact}/${ITEMS}) | sample ${JSON.stringify(count.sample)}`,
  );
}
console.log(
  `  update speed-up: ${ratio(theirs.meanMs, mine.meanMs)} (mean), ${ratio(theirs.p50Ms, mine.p50Ms)} (p50)`,
);

console.log('\nScenario 2: initial render (process + first commit), median of', EXAMPLE_REPEATS);
const exampleRows: Array<{ file: string; mine: number; theirs: number }> = [];
for (const stream of EXAMPLE_STREAMS.filter((entry) => entry.catalog === 'basic')) {
  const messages = stream.messages as readonly unknown[];
  for (let warm = 0; warm < EXAMPLE_WARMUP; warm++)
    for (const adapter of ADAPTERS) timeInitialRender(adapter, messages);
  const samples = new Map<string, number[]>(ADAPTERS.map((adapter) => [adapter.name, []]));
  for (let repeat = 0; repeat < EXAMPLE_REPEATS; repeat++) {
    const order = repeat % 2 === 0 ? ADAPTERS : [...ADAPTERS].reverse();
    for (const adapter of order)
      samples.get(adapter.name)!.push(timeInitialRender(adapter, messages));
  }
  const row = {
    file: stream.file,
    mine: median(samples.get(oursAdapter.name)!),
    theirs: median(samples.get(officialAdapter.name)!),
  };
  exampleRows.push(row);
  console.log(
    `  ${row.file.padEnd(34)} ours ${fmt(row.mine)} ms | official ${fmt(row.theirs)} ms | ${ratio(row.theirs, row.mine)}`,
  );
}
const geometricMean = Math.exp(
  exampleRows.reduce((sum, row) => sum + Math.log(row.theirs / row.mine), 0) / exampleRows.length,
);
console.log(`  geometric mean speed-up: ${geometricMean.toFixed(2)}×`);

console.log(
  '\nScenario 2b: initial render, official renderer with @a2ui/markdown-it, until settled; median of',
  EXAMPLE_REPEATS,
);
const settledRows: Array<{ file: string; mine: number; theirs: number }> = [];
for (const stream of EXAMPLE_STREAMS.filter((entry) => entry.catalog === 'basic')) {
  const messages = stream.messages as readonly unknown[];
  for (let warm = 0; warm < EXAMPLE_WARMUP; warm++) {
    timeInitialRender(oursAdapter, messages);
    await timeOfficialSettled(messages);
  }
  const mineSamples: number[] = [];
  const theirSamples: number[] = [];
  for (let repeat = 0; repeat < EXAMPLE_REPEATS; repeat++) {
    mineSamples.push(timeInitialRender(oursAdapter, messages));
    theirSamples.push(await timeOfficialSettled(messages));
  }
  const row = { file: stream.file, mine: median(mineSamples), theirs: median(theirSamples) };
  settledRows.push(row);
  console.log(
    `  ${row.file.padEnd(34)} ours ${fmt(row.mine)} ms | official + markdown ${fmt(row.theirs)} ms | ${ratio(row.theirs, row.mine)}`,
  );
}
const settledMean = Math.exp(
  settledRows.reduce((sum, row) => sum + Math.log(row.theirs / row.mine), 0) / settledRows.length,
);
console.log(`  geometric mean speed-up: ${settledMean.toFixed(2)}×`);

// ---------------------------------------------------------------------------------------------
// docs/benchmarks.md
// ---------------------------------------------------------------------------------------------

const here = dirname(fileURLToPath(import.meta.url));
const docPath = join(here, '..', '..', '..', 'docs', 'benchmarks.md');
const reactVersion = React.version;
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const section = `## React renderer

\`pnpm --filter @a2ui-ts/react-renderer bench\` (part of \`pnpm bench\`), run ${new Date().toISOString().slice(0, 10)} on ${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, React ${reactVersion} production (profiling) build, jsdom 26. Both renderers run in the same process, against the same DOM, on the same streams; each update is timed from \`process(message)\` to the end of React's synchronous commit (\`flushSync\`). The official renderer runs with its default Text (no markdown renderer configured, so it parses no markdown); ours parses markdown where the text has any.

### 1. 1,000-item List template, then 1,000 single-item \`updateDataModel\` messages

Template: \`List\` over \`/items\` → \`Row\` → two bound \`Text\`s (3,002 components). Each update renames one item (\`/items/<i>/name\`). Median of ${TIMED_ROUNDS} rounds after ${WARMUP_UPDATES} warm-up updates; commits and re-rendered components counted in a separate pass through a React DevTools-style commit hook (no wrapper around any component): a component counts as re-rendered when React ran its function in that commit.

| | @a2ui-ts/react-renderer | @a2ui/react 0.11.1 | ratio |
|---|---:|---:|---:|
| mount (process + first render), ms | ${fmt(mine.mountMs, 1)} | ${fmt(theirs.mountMs, 1)} | ${ratio(theirs.mountMs, mine.mountMs)} |
| 1,000 updates, total ms | ${fmt(mine.totalMs, 1)} | ${fmt(theirs.totalMs, 1)} | ${ratio(theirs.totalMs, mine.totalMs)} |
| per update, mean ms | ${fmt(mine.meanMs)} | ${fmt(theirs.meanMs)} | **${ratio(theirs.meanMs, mine.meanMs)}** |
| per update, p50 ms | ${fmt(mine.p50Ms)} | ${fmt(theirs.p50Ms)} | ${ratio(theirs.p50Ms, mine.p50Ms)} |
| per update, p95 ms | ${fmt(mine.p95Ms)} | ${fmt(theirs.p95Ms)} | ${ratio(theirs.p95Ms, mine.p95Ms)} |
| React commits per update | ${fmt(mineCounts.commitsPerUpdate, 2)} | ${fmt(theirCounts.commitsPerUpdate, 2)} | |
| components re-rendered per update | ${fmt(mineCounts.rendersPerUpdate, 2)} (max ${mineCounts.maxRenders}) | ${fmt(theirCounts.rendersPerUpdate, 2)} (max ${theirCounts.maxRenders}) | |
| updates re-rendering exactly the changed \`Text\` | ${mineCounts.exact} / ${ITEMS} | ${theirCounts.exact} / ${ITEMS} | |

Re-rendered components for the update of item 500 — ours: \`${JSON.stringify(mineCounts.sample)}\`; official: \`${JSON.stringify(theirCounts.sample)}\`.

### 2. Initial render of the shared examples (process + first commit, median of ${EXAMPLE_REPEATS})

| example | ours, ms | official, ms | ratio |
|---|---:|---:|---:|
${exampleRows.map((row) => `| ${row.file} | ${fmt(row.mine)} | ${fmt(row.theirs)} | ${ratio(row.theirs, row.mine)} |`).join('\n')}
| **geometric mean** | | | **${geometricMean.toFixed(2)}×** |

Ratios are official ÷ ours (higher = ours faster). The 12 basic-catalog examples; the 3 minimal-catalog ones are left out because \`@a2ui/react\` ships no minimal catalog. Our processing includes JSON Schema validation of every message against the catalog (ajv, precompiled); the official processor validates with zod. Ours renders markdown (lexed by \`marked\`) in this first commit; the official renderer without a configured markdown renderer shows the raw \`#\` and \`**\`, so on the markdown example (35) it builds far fewer elements.

### 2b. Initial render until everything is on screen, official renderer with its markdown renderer (median of ${EXAMPLE_REPEATS})

The official renderer configured as its console warning asks (\`MarkdownContext\` with \`@a2ui/markdown-it\` 0.1.2: markdown-it + DOMPurify). It renders every body Text's markdown asynchronously and commits it later, so its time runs until the last markdown render has resolved and been committed (event-loop turns included: what a user waits for). Ours renders everything in the first commit, so its column is the same measurement as in 2.

| example | ours, ms | official + markdown, ms | ratio |
|---|---:|---:|---:|
${settledRows.map((row) => `| ${row.file} | ${fmt(row.mine)} | ${fmt(row.theirs)} | ${ratio(row.theirs, row.mine)} |`).join('\n')}
| **geometric mean** | | | **${settledMean.toFixed(2)}×** |
`;

writeBenchmarkSection(pathToFileURL(docPath), '## React renderer', section);
console.log(`\nwrote ${docPath}`);
