/**
 * The "before" column of the benchmark: this package and core as they were at an earlier commit
 * (`BENCH_BASELINE_REV`, by default the last wave-1 commit, before the session host), extracted with
 * `git archive` into a temporary folder whose `node_modules` point at this checkout's installed
 * dependencies — except `@a2ui-ts/core`, which points at the old core beside it. Nothing of it is
 * committed; without git history the column is left out.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The commit measured as "before" unless `BENCH_BASELINE_REV` names another. */
export const DEFAULT_BASELINE_REV = 'b92fe78';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** Links every entry of `from` (a node_modules folder) into `to`, except the names in `skip`. */
function linkModules(from: string, to: string, skip: readonly string[] = []): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('.') || skip.includes(entry)) continue;
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(join(from, entry))) {
        const name = `${entry}/${scoped}`;
        if (skip.includes(name)) continue;
        mkdirSync(join(to, entry), { recursive: true });
        symlinkSync(join(from, entry, scoped), join(to, entry, scoped));
      }
    } else symlinkSync(join(from, entry), join(to, entry));
  }
}

/** The extracted tree, and how to remove it. */
export interface BaselineTree {
  readonly rev: string;
  /** The old `bench/server.ts` of this package. */
  readonly serverScript: string;
  dispose(): void;
}

/**
 * Extracts the baseline tree.
 * @returns the tree, or `undefined` (with the reason on stderr) when git cannot produce it
 */
export function extractBaselineTree(
  rev = process.env.BENCH_BASELINE_REV ?? DEFAULT_BASELINE_REV,
): BaselineTree | undefined {
  const root = mkdtempSync(join(tmpdir(), 'a2ui-bench-baseline-'));
  try {
    const archive = execFileSync(
      'git',
      [
        '-C',
        repo,
        'archive',
        rev,
        'tsconfig.base.json',
        'packages/core',
        'packages/transport-sse-jsonrpc',
      ],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    execFileSync('tar', ['-x', '-C', root], { input: archive });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    console.error(
      `[bench] no "before" column: git archive ${rev} failed (${(error as Error).message.split('\n')[0]})`,
    );
    return undefined;
  }
  const sse = join(root, 'packages/transport-sse-jsonrpc');
  try {
    linkModules(join(repo, 'node_modules'), join(root, 'node_modules'));
    linkModules(
      join(repo, 'packages/core/node_modules'),
      join(root, 'packages/core/node_modules'),
      ['@a2ui-ts/test-browser'],
    );
    linkModules(
      join(repo, 'packages/transport-sse-jsonrpc/node_modules'),
      join(sse, 'node_modules'),
      ['@a2ui-ts/core', '@a2ui-ts/test-browser'],
    );
    mkdirSync(join(sse, 'node_modules/@a2ui-ts'), { recursive: true });
    symlinkSync(join(root, 'packages/core'), join(sse, 'node_modules/@a2ui-ts/core'));
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    console.error(`[bench] no "before" column: ${(error as Error).message}`);
    return undefined;
  }
  return {
    rev,
    serverScript: join(sse, 'bench/server.ts'),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
