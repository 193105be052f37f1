import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  formatNumber,
  loadAverage,
  measuredBy,
  median,
  percentile,
  startBenchReport,
  writeBenchmarkSection,
} from './bench-report.js';
import { startBenchServer } from './bench-server.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('statistics', () => {
  it('takes the nearest-rank quantile of unsorted samples, without changing them', () => {
    const samples = [5, 1, 4, 2, 3];
    expect(percentile(samples, 0.5)).toBe(3);
    expect(percentile(samples, 0.99)).toBe(5);
    expect(percentile(samples, 1)).toBe(5);
    expect(percentile(samples, 0)).toBe(1);
    expect(samples).toEqual([5, 1, 4, 2, 3]);
    expect(percentile(Float64Array.of(10, 30, 20), 0.5)).toBe(20);
  });

  it('takes the upper middle as the median of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([7])).toBe(7);
  });

  it('formats numbers as the tables print them', () => {
    expect(formatNumber(12_345.678)).toBe('12,346');
    expect(formatNumber(12_345.678, 1)).toBe('12,345.7');
    expect(formatNumber(0.5, 2)).toBe('0.50');
  });
});

describe('measuredBy', () => {
  it('names the command, the date, Node, the machine and the load', () => {
    expect(measuredBy('@a2ui-ts/example', 1.23)).toMatch(
      /^Measured by `pnpm --filter @a2ui-ts\/example bench` on \d{4}-\d{2}-\d{2}, Node v\d+\.\d+\.\d+, \d+ × .+, \d+ GiB, 1-minute load average 1\.2 at the start$/,
    );
    expect(loadAverage()).toBeGreaterThanOrEqual(0);
  });
});

describe('writeBenchmarkSection', () => {
  it('replaces its section, keeps the others and one blank line between them, or appends', () => {
    const file = pathToFileURL(join(dir, 'benchmarks.md'));
    writeFileSync(file, '# Benchmarks\n\n## A\n\nold a\n\n## B\n\nb\n');
    writeBenchmarkSection(file, '## A', '## A\n\nnew a\n');
    expect(readFileSync(file, 'utf8')).toBe('# Benchmarks\n\n## A\n\nnew a\n\n## B\n\nb\n');
    writeBenchmarkSection(file, '## C', '## C\n\nc\n');
    expect(readFileSync(file, 'utf8')).toBe(
      '# Benchmarks\n\n## A\n\nnew a\n\n## B\n\nb\n\n## C\n\nc\n',
    );
  });

  it('starts a new document when there is none', () => {
    const file = pathToFileURL(join(dir, 'new.md'));
    writeBenchmarkSection(file, '## A', '## A\n\na');
    expect(readFileSync(fileURLToPath(file), 'utf8')).toBe(
      "# Benchmarks\n\nEach section is written by its package's `bench` script (`pnpm bench` runs them all).\n\n## A\n\na\n",
    );
  });
});

describe('startBenchReport', () => {
  it('names the package in its first words, and prints and writes the section', () => {
    const file = pathToFileURL(join(dir, 'report.md'));
    writeFileSync(file, '# Benchmarks\n\n## Mine\n\nold\n');
    const report = startBenchReport({ packageName: '@a2ui-ts/mine', heading: '## Mine', file });
    expect(report.heading).toBe('## Mine');
    expect(report.loadAtStart).toBeGreaterThanOrEqual(0);
    expect(report.measuredBy()).toMatch(/^Measured by `pnpm --filter @a2ui-ts\/mine bench` on /);
    const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      report.write('## Mine\n\nnew\n');
      expect(printed).toHaveBeenCalledWith('## Mine\n\nnew\n');
    } finally {
      printed.mockRestore();
    }
    expect(readFileSync(file, 'utf8')).toBe('# Benchmarks\n\n## Mine\n\nnew\n');
  });
});

describe('startBenchServer', () => {
  it('starts the script in a child and resolves with the lines it printed', async () => {
    const script = join(dir, 'server.mjs');
    writeFileSync(
      script,
      "console.log('http://one'); console.log('http://two'); setInterval(() => {}, 1000);",
    );
    const server = await startBenchServer(script, 2);
    expect(server.lines).toEqual(['http://one', 'http://two']);
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.stop();
    await exited;
  });

  it("reads the child's own CPU time, which grows with the work it does", async () => {
    const script = join(dir, 'busy.mjs');
    // Spins for 200 ms of its own CPU when told to, then says so.
    writeFileSync(
      script,
      "console.log('ready'); process.on('message', (m) => { if (m !== 'spin') return; const end = process.cpuUsage().user + 200000; while (process.cpuUsage().user < end); process.send('spun'); }); setInterval(() => {}, 1000);",
    );
    const server = await startBenchServer(script);
    try {
      const before = await server.cpuMicros();
      server.child.send('spin');
      await new Promise((resolve) => server.child.once('message', resolve));
      const after = await server.cpuMicros();
      expect(after - before).toBeGreaterThanOrEqual(200_000);
    } finally {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.stop();
      await exited;
    }
    await expect(server.cpuMicros()).rejects.toThrow(/exited/);
  });

  it('rejects when the child exits before printing', async () => {
    const script = join(dir, 'crash.mjs');
    writeFileSync(script, 'process.exit(3);');
    await expect(startBenchServer(script)).rejects.toThrow(/exited with 3/);
  });
});
