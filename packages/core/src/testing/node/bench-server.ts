/**
 * A benchmark's server in a child process of its own (Node only), so that the server and the
 * measuring client do not share one event loop: the script runs with this process's loader flags
 * (`tsx`, the `@a2ui-ts/source` condition, `--expose-gc`) and says where it listens by printing
 * lines (its URLs) on stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A running benchmark server. */
export interface BenchServer {
  readonly child: ChildProcess;
  /** The first lines the script printed (its URLs, one per line). */
  readonly lines: readonly string[];
  /** Ends the child (`SIGTERM`). */
  stop(): void;
}

/**
 * Starts `script` with `node` and this process's flags, and resolves once it printed `lines`
 * lines.
 *
 * @param script - the path of the server script
 * @param lines - lines to wait for @default 1
 * @throws Error when the child exits first
 *
 * @example
 * ```ts
 * const server = await startBenchServer(fileURLToPath(new URL('./server.ts', import.meta.url)));
 * try { await measure(server.lines[0]!); } finally { server.stop(); }
 * ```
 */
export async function startBenchServer(script: string, lines = 1): Promise<BenchServer> {
  const child = spawn(process.execPath, [...process.execArgv, script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const printed = await new Promise<string[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server ${script} exited with ${code}`)));
    const seen: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      seen.push(line);
      if (seen.length === lines) resolve(seen);
    });
  });
  return { child, lines: printed, stop: () => child.kill('SIGTERM') };
}
