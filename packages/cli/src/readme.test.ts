/**
 * Every `pnpm exec a2ui …` line of the README runs as printed, from the repository root, in a
 * real shell: it exits as the README says and prints nothing but the CLI's own output (no
 * package-manager lines such as `ELIFECYCLE`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((block) => block[1]!.split('\n'))
  .filter((line) => line.startsWith('pnpm exec a2ui '));

/** The lines the README says exit 1. */
const FAILING = new Set([
  'pnpm exec a2ui validate packages/cli/src/fixtures/mixed.jsonl',
  'pnpm exec a2ui migrate --to v0.8 packages/core/src/testing/fixtures/basic/32_advanced-form-validator.json',
]);

function runAsPrinted(command: string) {
  return spawnSync(command, { shell: true, cwd: root, encoding: 'utf8' });
}

describe('README examples', () => {
  it('lists runnable commands, the failing ones among them', () => {
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of FAILING) expect(commands).toContain(command);
  });

  for (const command of commands) {
    it(command, () => {
      const result = runAsPrinted(command);
      expect(result.stdout + result.stderr).not.toBe('');
      expect(result.stderr).not.toMatch(/ELIFECYCLE|ERR_PNPM|Command failed/);
      expect(result.status, result.stderr).toBe(FAILING.has(command) ? 1 : 0);
    });
  }

  it('a failed validation prints only the CLI report: one error object per line, the summary on stderr', () => {
    const result = runAsPrinted('pnpm exec a2ui validate packages/cli/src/fixtures/mixed.jsonl');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('a2ui: 1 source, 4 messages, 3 problems\n');
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines.map((line) => JSON.parse(line).code)).toEqual([
      'VALIDATION_FAILED',
      'INVALID_JSON',
      'VALIDATION_FAILED',
    ]);
  });
});
