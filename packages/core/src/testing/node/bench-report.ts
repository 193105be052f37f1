/**
 * What every package's benchmark (`bench/run.ts`) needs to report its figures, written once
 * (Node only; no vitest, so a benchmark can load it): order statistics of its samples, numbers as
 * `docs/benchmarks.md` prints them, the machine the figures were measured on, and the writing of
 * the package's section into the document.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { replaceMarkdownSection } from '../markdown-sections.js';

/**
 * The `fraction` quantile of `values` (nearest rank, no interpolation): the value at index
 * `⌊fraction × n⌋` of the sorted values, the last one for `fraction` 1. `values` is not changed.
 *
 * @param values - the samples (at least one)
 * @param fraction - 0.5 for the median, 0.99 for p99
 *
 * @example
 * ```ts
 * percentile([5, 1, 4, 2, 3], 0.5); // 3
 * ```
 */
export function percentile(values: ArrayLike<number>, fraction: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/** The median of `values`: {@link percentile} 0.5 (of an even count, the upper of the middle two). */
export function median(values: ArrayLike<number>): number {
  return percentile(values, 0.5);
}

/**
 * `value` as the benchmark tables print it: US English grouping, exactly `digits` decimals.
 *
 * @example
 * ```ts
 * formatNumber(12345.678, 1); // '12,345.7'
 * ```
 */
export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** The 1-minute load average now: read it before the benchmark starts, for {@link measuredBy}. */
export function loadAverage(): number {
  return loadavg()[0] ?? 0;
}

/**
 * The first words of a benchmark section: the command, the date and the machine —
 * "Measured by `pnpm --filter <package> bench` on <date>, Node <version>, <n> × <CPU>, <GiB> GiB,
 * 1-minute load average <load> at the start" (the caller goes on with its sentence).
 *
 * @param packageName - e.g. `'@a2ui-ts/transport-rest'`
 * @param loadAtStart - {@link loadAverage} when the benchmark started
 */
export function measuredBy(packageName: string, loadAtStart: number): string {
  const cpu = cpus();
  const date = new Date().toISOString().slice(0, 10);
  return `Measured by \`pnpm --filter ${packageName} bench\` on ${date}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, 1-minute load average ${formatNumber(loadAtStart, 1)} at the start`;
}

/** What a new benchmarks document starts with. */
const NEW_DOCUMENT =
  "# Benchmarks\n\nEach section is written by its package's `bench` script (`pnpm bench` runs them all).\n";

/**
 * Writes `section` into the Markdown file `file` in place of the section whose first line is
 * `heading` (up to the next `## ` heading), or at its end when it has none; the file is created
 * when missing. One blank line separates the section from the next.
 *
 * @param file - e.g. `new URL('../../../docs/benchmarks.md', import.meta.url)`
 * @param heading - the section's first line, e.g. `'## REST transport'`
 * @param section - the whole section, starting with `heading`
 *
 * @example
 * ```ts
 * writeBenchmarkSection(new URL('../../../docs/benchmarks.md', import.meta.url), '## REST transport', section);
 * ```
 */
export function writeBenchmarkSection(file: URL, heading: string, section: string): void {
  const path = fileURLToPath(file);
  let current: string;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = NEW_DOCUMENT;
  }
  writeFileSync(path, replaceMarkdownSection(current, heading, `${section.trimEnd()}\n\n`));
}

/** A benchmark's report: where it goes, and the machine it is measured on. */
export interface BenchReport {
  /** The section's first line, e.g. `'## REST transport'`. */
  readonly heading: string;
  /** The 1-minute load average when the report was started (before the benchmark ran). */
  readonly loadAtStart: number;
  /** {@link measuredBy} for this package and load: the first words of the section. */
  measuredBy(): string;
  /** Prints `section` and writes it into the document ({@link writeBenchmarkSection}). */
  write(section: string): void;
}

/** Options of {@link startBenchReport}. */
export interface BenchReportOptions {
  /** The package measured, e.g. `'@a2ui-ts/transport-rest'`. */
  readonly packageName: string;
  /** The section's first line, e.g. `'## REST transport'`. */
  readonly heading: string;
  /** The document, e.g. `new URL('../../../docs/benchmarks.md', import.meta.url)`. */
  readonly file: URL;
}

/**
 * Starts a benchmark's report: reads the load average now, before the benchmark loads the
 * machine, for the section's first sentence.
 *
 * @example
 * ```ts
 * const report = startBenchReport({ packageName: '@a2ui-ts/transport-rest', heading: '## REST transport',
 *   file: new URL('../../../docs/benchmarks.md', import.meta.url) });
 * // … measure …
 * report.write([report.heading, '', `${report.measuredBy()}.`, '', table].join('\n'));
 * ```
 */
export function startBenchReport(options: BenchReportOptions): BenchReport {
  const loadAtStart = loadAverage();
  return {
    heading: options.heading,
    loadAtStart,
    measuredBy: () => measuredBy(options.packageName, loadAtStart),
    write(section) {
      console.log(section);
      writeBenchmarkSection(options.file, options.heading, section);
    },
  };
}
