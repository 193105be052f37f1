/**
 * `maxMemory` for script handlers (issue 23: "a memory cap for scripts where the OS allows").
 *
 * On Linux the script is started through util-linux's `prlimit` (part of the essential
 * `util-linux` package on Debian and most distributions; still no shell), which sets
 * `RLIMIT_DATA` — soft and hard, so the script cannot raise it — and then execs the command in
 * the same process. `RLIMIT_DATA` counts a process's private writable memory (its heap and,
 * since Linux 4.7, anonymous mappings), which is what a script allocates. `RLIMIT_AS` is not
 * used: it counts reserved address space, and Node alone reserves ~700 MB of it before running
 * a line, so any realistic cap would stop every Node script from starting. A Node script also
 * gets `--max-old-space-size`, so V8 collects garbage within the cap instead of growing into it.
 *
 * Where `prlimit` is missing (not Linux, or a minimal image), a Node script is held to the V8 heap
 * flag only and any other script is not held at all: the cap is advisory there, and each call's
 * audit entry says so.
 */
import { execFile } from 'node:child_process';

const MEBIBYTE = 1024 * 1024;

/** What a capped script is started as, and how far the cap holds. */
export interface CappedCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** `os`: the kernel enforces the cap; `heap`: only V8's heap is capped; `none`: advisory. */
  readonly enforcement: 'os' | 'heap' | 'none';
}

let prlimitProbe: Promise<boolean> | undefined;

/**
 * Whether `prlimit` can start a command here; probed once per process (`prlimit --version`).
 *
 * @returns true on Linux with util-linux's `prlimit` on the `PATH`
 */
export function hasPrlimit(): Promise<boolean> {
  prlimitProbe ??=
    process.platform === 'linux'
      ? new Promise((resolve) =>
          execFile('prlimit', ['--version'], { timeout: 10_000 }, (error) => resolve(!error)),
        )
      : Promise.resolve(false);
  return prlimitProbe;
}

/**
 * The command that runs a script within `maxMemory` bytes.
 *
 * @param command - the script's command (already resolved)
 * @param args - its arguments; for a Node script, Node's own flags may come first
 * @param options.maxMemory - the cap in bytes; absent: the command as it is
 * @param options.isNode - the command runs Node (it gets `--max-old-space-size` too)
 * @param options.prlimit - `prlimit` is available ({@link hasPrlimit})
 */
export function capScriptMemory(
  command: string,
  args: readonly string[],
  options: { maxMemory: number | undefined; isNode: boolean; prlimit: boolean },
): CappedCommand {
  const { maxMemory, isNode, prlimit } = options;
  if (maxMemory === undefined) return { command, args, enforcement: 'none' };
  const withHeapFlag = isNode
    ? [`--max-old-space-size=${Math.max(1, Math.floor(maxMemory / MEBIBYTE))}`, ...args]
    : args;
  if (!prlimit) return { command, args: withHeapFlag, enforcement: isNode ? 'heap' : 'none' };
  const bytes = Math.max(1, Math.floor(maxMemory));
  return {
    command: 'prlimit',
    args: [`--data=${bytes}`, '--', command, ...withHeapFlag],
    enforcement: 'os',
  };
}

/** The audit note for a cap that does not hold fully; undefined when it does. */
export function memoryCapNote(capped: CappedCommand): string | undefined {
  if (capped.enforcement === 'heap')
    return 'maxMemory caps only the V8 heap of this Node script: prlimit is not available here';
  if (capped.enforcement === 'none')
    return 'maxMemory is advisory for this script: prlimit is not available here';
  return undefined;
}

/**
 * What a script's failed allocation looks like: V8's heap limit, a failed `ArrayBuffer`, C's
 * `ENOMEM`, Python's `MemoryError`, C++'s `bad_alloc`.
 */
const OUT_OF_MEMORY =
  /out of memory|allocation failed|cannot allocate memory|ENOMEM|MemoryError|bad_alloc/i;
/**
 * How a capped process dies when an allocation fails where it cannot report it: V8 and glibc
 * abort, and a process that cannot grow its stack or heap may fault.
 */
const OUT_OF_MEMORY_SIGNALS = new Set<string>(['SIGABRT', 'SIGSEGV', 'SIGBUS']);

/**
 * Whether a script that was capped ended because it reached the cap: it died by abort or fault
 * (a capped Node aborts without a word when even its error message cannot be allocated), or it
 * exited non-zero saying an allocation failed.
 */
export function endedOutOfMemory(
  exitCode: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
): boolean {
  if (signal !== null) return OUT_OF_MEMORY_SIGNALS.has(signal);
  return exitCode !== 0 && OUT_OF_MEMORY.test(stderr);
}

/**
 * Whether `prlimit` itself failed to start the command (util-linux exits 126 "cannot invoke" or
 * 127 "not found" and says `prlimit: failed to execute …`): the script could not be started.
 */
export function prlimitCouldNotStart(exitCode: number | null, stderr: string): boolean {
  return (exitCode === 126 || exitCode === 127) && stderr.startsWith('prlimit:');
}
