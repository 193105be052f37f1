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
  /**
   * The server process's CPU time so far (`process.cpuUsage()` read in the child), in
   * microseconds of user + system time. Read it before and after a round: the difference over
   * the round's messages is the server CPU per message, whatever core ran it.
   * @throws Error when the child exited
   */
  cpuMicros(): Promise<number>;
  /** Ends the child (`SIGTERM`). */
  stop(): void;
}

/**
 * Preloaded into every benchmark server (`--import`, as a `data:` module so it works from the
 * sources and from the build alike): answers the parent's `cpu-usage` message over the IPC channel
 * with the child's `process.cpuUsage()`, without the server script's help. The channel is unref'd
 * so it never keeps a finished server alive.
 */
const CPU_RESPONDER = `data:text/javascript,${encodeURIComponent(
  "process.on('message', (m) => { if (m === 'cpu-usage') process.send({ cpuUsage: process.cpuUsage() }); }); process.channel?.unref();",
)}`;

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
  const child = spawn(process.execPath, [...process.execArgv, '--import', CPU_RESPONDER, script], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const printed = await new Promise<string[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server ${script} exited with ${code}`)));
    const seen: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      seen.push(line);
      if (seen.length === lines) resolve(seen);
    });
  });
  return {
    child,
    lines: printed,
    cpuMicros: () => readCpuMicros(child),
    stop: () => child.kill('SIGTERM'),
  };
}

function readCpuMicros(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.connected) {
      reject(new Error('the bench server exited; it cannot say its CPU usage'));
      return;
    }
    const onMessage = (message: { cpuUsage?: NodeJS.CpuUsage }) => {
      if (!message.cpuUsage) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message.cpuUsage.user + message.cpuUsage.system);
    };
    const onExit = () => {
      child.off('message', onMessage);
      reject(new Error('the bench server exited before it said its CPU usage'));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send('cpu-usage', (error) => {
      if (error) onExit();
    });
  });
}
