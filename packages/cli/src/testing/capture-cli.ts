/** Runs the CLI in-process for tests, capturing what it prints. */
import { runCli } from '../run-cli.js';

/** What one CLI run printed and returned. */
export interface CapturedCliRun {
  /** The exit code `runCli` returned. */
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The non-empty lines of stdout. */
  readonly lines: string[];
}

/**
 * Runs `a2ui <args>` through `runCli` with stdout and stderr captured.
 *
 * @param args - The arguments after `a2ui`.
 * @param stdin - What standard input (`-`) reads.
 * @default stdin `''`
 */
export async function captureCli(
  args: readonly string[],
  stdin: string | Uint8Array = '',
): Promise<CapturedCliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: async () => stdin,
  });
  return { code, stdout, stderr, lines: stdout.split('\n').filter(Boolean) };
}
