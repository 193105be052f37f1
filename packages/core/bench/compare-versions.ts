/**
 * A/B of the per-version pipelines (`pnpm --filter @a2ui-ts/core bench:versions [<git ref>]`):
 * core at `<git ref>` (default `main`, extracted with `git archive` into a temporary folder)
 * and core as checked out, loaded side by side in one process, every pipeline (each side ×
 * v0.8, v0.9, v1.0 on the `version-corpora` streams) interleaved round after round in a shuffled
 * order and timed in this process's CPU time, so that a change in the machine's load hits both
 * sides alike. Prints, per version, each side's CPU ms per replay, the checked-out side's speed-up
 * and each side's speed against its own v0.9, as medians of per-round ratios with the 10th–90th
 * percentile over rounds, and the load average. Writes nothing.
 *
 * Environment: `ROUNDS` (default 61), `REPLAYS` per pipeline and round (default 20).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as head from '../src/index.js';
import { formatNumber as fmt, median, percentile } from '../src/testing/node/index.js';
import { loadVersionCorpora } from './version-corpora.js';

const ROUNDS = Number(process.env.ROUNDS ?? 61);
const REPLAYS = Number(process.env.REPLAYS ?? 20);
const WARM_UP_MS = 1500;
const ref = process.argv[2] ?? 'main';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: packageDir })
  .toString()
  .trim();
// The base is extracted beside nothing of this checkout (its tests must not be collected), with
// this checkout's node_modules linked in so that it resolves the same dependencies.
const baseRoot = mkdtempSync(join(tmpdir(), 'a2ui-core-ab-'));
process.on('exit', () => rmSync(baseRoot, { recursive: true, force: true }));
const archive = execFileSync(
  'git',
  ['archive', ref, 'packages/core/src', 'packages/core/package.json'],
  {
    cwd: repoRoot,
    maxBuffer: 1 << 30,
  },
);
execFileSync('tar', ['-x', '-C', baseRoot], { input: archive });
mkdirSync(join(baseRoot, 'packages/core'), { recursive: true });
symlinkSync(join(packageDir, 'node_modules'), join(baseRoot, 'packages/core/node_modules'));
symlinkSync(join(repoRoot, 'node_modules'), join(baseRoot, 'node_modules'));
const base = (await import(
  pathToFileURL(join(baseRoot, 'packages/core/src/index.ts')).href
)) as typeof head;

const corpora = loadVersionCorpora();
const sides = { base, head } as const;
const pipelines: Record<string, () => void> = {};
for (const [side, core] of Object.entries(sides)) {
  const catalogs = core.createDefaultCatalogs();
  for (const corpus of corpora) {
    pipelines[`${side} ${corpus.version}`] = () => {
      for (let replay = 0; replay < REPLAYS; replay++) {
        for (const stream of corpus.streams) {
          const processor = new core.MessageProcessor({ catalogs });
          for (const text of stream) processor.process(text);
        }
      }
    };
  }
}

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const loadAtStart = loadavg()[0] ?? 0;
for (const run of Object.values(pipelines)) {
  const until = performance.now() + WARM_UP_MS;
  while (performance.now() < until) run();
}
const names = Object.keys(pipelines);
const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  // A shuffled order each round: no pipeline always follows the same neighbour.
  const order = names
    .map((name) => ({ name, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ name }) => name);
  for (const name of order) {
    const start = cpuMs();
    pipelines[name]!();
    times[name]!.push(cpuMs() - start);
  }
}

/** Median and p10–p90 over rounds of `numerator[i] / denominator[i]`. */
const ratio = (numerator: readonly number[], denominator: readonly number[]): string => {
  const ratios = numerator.map((value, index) => value / denominator[index]!);
  return `${fmt(median(ratios), 2)}× (${fmt(percentile(ratios, 0.1), 2)}–${fmt(percentile(ratios, 0.9), 2)})`;
};
const perReplay = (name: string) => fmt(median(times[name]!) / REPLAYS, 3);
console.log(`base: ${ref}; head: the checkout`);
console.log(
  '| version | base CPU ms / replay | head CPU ms / replay | head speed-up | base vs its v0.9 | head vs its v0.9 |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const { version } of corpora) {
  const [b, h] = [`base ${version}`, `head ${version}`];
  console.log(
    `| ${version} | ${perReplay(b)} | ${perReplay(h)} | ${ratio(times[b]!, times[h]!)} | ${ratio(times['base v0.9']!, times[b]!)} | ${ratio(times['head v0.9']!, times[h]!)} |`,
  );
}
console.log(
  `${ROUNDS} rounds × ${REPLAYS} replays per pipeline; 1-minute load average ${fmt(loadAtStart, 1)} at the start, ${fmt(loadavg()[0] ?? 0, 1)} at the end.`,
);
