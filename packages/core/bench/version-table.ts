/**
 * The per-version comparison of `pnpm bench` (and of `pnpm --filter @a2ui-ts/core
 * bench:per-version`, which runs it alone): the basic-catalog examples as v0.8, v0.9 and v1.0
 * streams through a2ui-ts, and the v0.9 streams through `@a2ui/web_core`, each pipeline in a fresh
 * process per round (`version-samples.ts`); returns the Markdown of its paragraph and table.
 */
import { formatNumber as fmt, loadAverage, median, percentile } from '../src/testing/node/index.js';
import { loadVersionCorpora, type VersionCorpus } from './version-corpora.js';
import {
  sampleVersionRounds,
  type VersionPipeline,
  type VersionSample,
} from './version-samples.js';

/** Options of {@link measureVersionTable}. */
export interface VersionTableOptions {
  /** Rounds; each spawns one process per pipeline. */
  readonly rounds: number;
  /** CPU milliseconds each process warms its pipeline before it measures. Default 1,500. */
  readonly warmUpMs?: number;
  /** Timed samples per process (it reports their medians). Default 15. */
  readonly samples?: number;
  /** Replays of every stream per sample. Default 20. */
  readonly replays?: number;
  /** Called after each round, e.g. to show progress. */
  readonly onRound?: (round: number) => void;
}

/** The comparison's figures and its Markdown. */
export interface VersionTable {
  /** Per pipeline, one sample per round. */
  readonly samples: Record<VersionPipeline, VersionSample[]>;
  /** The paragraph saying how it was measured, then the table. */
  readonly markdown: string;
}

/** Median and p10–p90 over rounds of `numerator[i] / denominator[i]`, as table text. */
const ratioWithSpread = (numerator: readonly number[], denominator: readonly number[]): string => {
  const ratios = numerator.map((value, index) => value / denominator[index]!);
  return `${fmt(median(ratios), 2)}× (${fmt(percentile(ratios, 0.1), 2)}–${fmt(percentile(ratios, 0.9), 2)})`;
};

/** Runs the comparison (minutes: every round spawns four processes) and writes its Markdown. */
export function measureVersionTable(options: VersionTableOptions): VersionTable {
  const warmUpMs = options.warmUpMs ?? 1500;
  const sampleCount = options.samples ?? 15;
  const replays = options.replays ?? 20;
  const corpora = loadVersionCorpora();
  const v09 = corpora.find((entry) => entry.version === 'v0.9')!;
  const loadBefore = loadAverage();
  const samples = sampleVersionRounds({
    rounds: options.rounds,
    warmUpMs,
    samples: sampleCount,
    replays,
    onRound: options.onRound,
  });
  const loadAfter = loadAverage();
  const msOf = (pipeline: VersionPipeline) => samples[pipeline].map((sample) => sample.ms);
  const row = (pipeline: VersionPipeline, label: string, corpus: VersionCorpus) => {
    const times = msOf(pipeline);
    const parseShare = median(samples[pipeline].map((sample) => sample.parseMs / sample.ms));
    return [
      label,
      fmt(corpus.messages),
      fmt(corpus.bytes),
      fmt(corpus.messages / (median(times) / 1000)),
      `${fmt(median(times), 3)} (${fmt(percentile(times, 0.1), 3)}–${fmt(percentile(times, 0.9), 3)})`,
      pipeline === 'v0.9' ? '1.00×' : ratioWithSpread(msOf('v0.9'), times),
      pipeline === 'web_core' ? '1.00×' : ratioWithSpread(msOf('web_core'), times),
      `${fmt(parseShare * 100, 0)}%`,
    ];
  };
  const rows = corpora.map((entry) => row(entry.version, entry.version, entry));
  rows.push(
    row(
      'web_core',
      'v0.9, `@a2ui/web_core` (Zod `A2uiMessageSchema.parse` → processMessages)',
      v09,
    ),
  );
  const rounds = options.rounds;
  const markdown = [
    `The ${v09.streams.length} basic-catalog examples as v0.8, v0.9 and v1.0 streams (v0.8 and v1.0: the committed \`fixtures/v0_8/basic\` and \`fixtures/v1_0/basic\`, written by \`migrateMessages\`; the same UIs, though v0.8 needs more messages for them), each replayed into fresh a2ui-ts processors with validation on (default catalogs), next to \`@a2ui/web_core\` on the v0.9 text. **Each pipeline runs in its own fresh Node process, one per pipeline and round** (\`bench/version-child.ts\`): ${rounds} rounds, each spawning the four processes one after the other in a new shuffled order; each process warms its one pipeline (and \`JSON.parse\` of the same text) for ${fmt(warmUpMs)} CPU ms, then takes ${sampleCount} samples of ${replays} replays, alternating with \`JSON.parse\` of the very same text, timed in its CPU time (\`process.cpuUsage\`, so time spent waiting for a core is not counted; messages/s are per CPU-second), and reports the medians. Why fresh processes: V8 optimises the code every version shares (processor, data model, validator helpers) for the message shapes it has met, so in one process the warm-up history decides which version runs hottest (\`pnpm bench\`'s throughput section replays v0.9 alone for about 15 s, and a per-version comparison run after it in the same process gave v0.8 0.62× and v1.0 0.70× of v0.9, against 0.92× and 1.06× in an A/B that warmed every version alike); in a fresh process each version gets the same cold start and the same warm-up on its own input, as a process serving that version would. 1-minute load average ${fmt(loadBefore, 1)} before this comparison, ${fmt(loadAfter, 1)} after it. "Speed vs v0.9" and "× web_core" compare the time to apply the same UIs (so a version that needs more messages is not flattered by messages/s): the median of per-round ratios, with the 10th–90th percentile over rounds in brackets; CPU ms per replay is the median over rounds with p10–p90; the \`JSON.parse\` share is that of \`JSON.parse\` alone in the pipeline's time on the same bytes (the median over rounds; the pipeline's speed as a fraction of bare \`JSON.parse\`). Goals: v1.0 and v0.8 ≥ 0.90× v0.9; every version ≥ 4.5× web_core and ≥ 40% of bare \`JSON.parse\`.`,
    '',
    '| Version | messages / replay | bytes / replay | messages per CPU-s | CPU ms / replay (p10–p90) | speed vs v0.9 (p10–p90) | × web_core (p10–p90) | `JSON.parse` share |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ].join('\n');
  return { samples, markdown };
}
