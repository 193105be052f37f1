/**
 * The per-version comparison's rounds: each round runs every pipeline once, each in a fresh
 * child process (`version-child.ts`), in a new random order, one after the other, so that every
 * pipeline starts from the same cold JIT state and a change in the machine's load hits all of
 * them alike.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The pipelines a child can run: a2ui-ts per version, and web_core on v0.9. */
export const VERSION_PIPELINES = ['v0.8', 'v0.9', 'v1.0', 'web_core'] as const;
export type VersionPipeline = (typeof VERSION_PIPELINES)[number];

/** What one child prints: CPU ms per replay of every stream, medians over its samples. */
export interface VersionSample {
  readonly pipeline: VersionPipeline;
  /** The pipeline: JSON text → validation → apply (web_core: JSON.parse → Zod → processMessages). */
  readonly ms: number;
  /** `JSON.parse` of the same text, nothing else. */
  readonly parseMs: number;
}

/** Options of {@link sampleVersionRounds}. */
export interface VersionRoundsOptions {
  /** Rounds; each spawns one child per pipeline. */
  readonly rounds: number;
  /** Warm-up of each child before it measures, in milliseconds of its CPU time. */
  readonly warmUpMs: number;
  /** Samples each child takes (it reports their medians). */
  readonly samples: number;
  /** Replays of the whole corpus per sample. */
  readonly replays: number;
  /** Called after each round, e.g. to show progress. */
  readonly onRound?: (round: number) => void;
}

const childScript = fileURLToPath(new URL('./version-child.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** @returns per pipeline, one sample per round (index = round) */
export function sampleVersionRounds(
  options: VersionRoundsOptions,
): Record<VersionPipeline, VersionSample[]> {
  const samples: Record<VersionPipeline, VersionSample[]> = {
    'v0.8': [],
    'v0.9': [],
    'v1.0': [],
    web_core: [],
  };
  for (let round = 0; round < options.rounds; round++) {
    const order = VERSION_PIPELINES.map((name) => ({ name, key: Math.random() }))
      .sort((a, b) => a.key - b.key)
      .map(({ name }) => name);
    for (const pipeline of order) {
      const output = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          childScript,
          pipeline,
          String(options.warmUpMs),
          String(options.samples),
          String(options.replays),
        ],
        { cwd: packageDir, encoding: 'utf8' },
      );
      samples[pipeline].push(JSON.parse(output.trim().split('\n').at(-1)!) as VersionSample);
    }
    options.onRound?.(round);
  }
  return samples;
}
