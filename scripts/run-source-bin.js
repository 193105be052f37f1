// What a package's bin does in the repository, where `src/` is present: it runs the TypeScript
// entry point through tsx, so `pnpm exec <bin>` never needs a build and never runs a stale one.
// A child process is needed because the source export condition can only be set when Node
// starts. The child inherits stdio (an MCP host talks to it directly), and the signals a host or
// a terminal sends to the bin are passed on, or the child would outlive it. Installed from a
// tarball, bins import their `dist/` build instead and never load this file.
import { spawn } from 'node:child_process';

/**
 * Runs `source` (an absolute path to a `.ts` entry point) with the remaining command-line
 * arguments; the bin exits with the child's code (1 when the child was killed by a signal).
 */
export function runSourceBin(source) {
  const tsx = import.meta.resolve('tsx');
  const child = spawn(
    process.execPath,
    ['--conditions=@a2ui-ts/source', '--import', tsx, source, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    throw error;
  });
  child.on('exit', (code) => {
    process.exitCode = code ?? 1;
  });
}
