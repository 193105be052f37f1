/**
 * Every `pnpm --silent a2ui …` line of the README runs as printed (from the repository root) and
 * exits as the README's table says.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((block) => block[1]!.split('\n'))
  .filter((line) => line.startsWith('pnpm --silent a2ui '));

describe('README examples', () => {
  it('lists runnable commands', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
  });

  for (const command of commands) {
    it(command, async () => {
      // Paths in the README are relative to the repository root.
      const args = command
        .slice('pnpm --silent a2ui '.length)
        .split(' ')
        .map((arg) => (arg.startsWith('packages/') ? root + arg : arg));
      let stdout = '';
      let stderr = '';
      const code = await runCli(args, {
        stdout: (text) => {
          stdout += text;
        },
        stderr: (text) => {
          stderr += text;
        },
        readStdin: async () => '',
      });
      expect((stdout + stderr).length).toBeGreaterThan(0);
      // The modal example's h2 heading has no v1.0 form: migrate says so and exits 1.
      expect(code, stderr).toBe(command.includes('--to v1.0') ? 1 : 0);
    });
  }
});
