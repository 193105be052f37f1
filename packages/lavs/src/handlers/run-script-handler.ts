/**
 * The `script` handler (spec §4.3): the command is spawned without a shell, in its own process
 * group, with a minimal environment. Its stdout is the result (JSON; empty is `null`), read up
 * to `maxOutputBytes`. A Node script (`command: "node"`) whose permissions declare `fileAccess`
 * runs in the runtime's Node under its permission model, granted those files only
 * (`node-permission-args.ts`). Past its time, or past its output bound, the whole group gets SIGTERM and
 * `killGraceMs` later SIGKILL; the call is answered only once the process is gone. `maxMemory`
 * is held by the OS where it can be (`script-memory-cap.ts`).
 */
import { spawn } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { LavsError } from '../errors/lavs-error.js';
import type { ScriptHandler } from '../manifest/manifest-types.js';
import { resolveInside } from '../permissions/inside-directory.js';
import { permissionDenied } from '../permissions/permission-denied.js';
import type { HandlerDiagnostics, HandlerRun } from './handler-run.js';
import { isNodeCommand, nodePermissionArgs } from './node-permission-args.js';
import { inheritedEnvironment } from './script-environment.js';
import { fillArgs, inputToEnv } from './script-input.js';
import {
  capScriptMemory,
  endedOutOfMemory,
  hasPrlimit,
  memoryCapNote,
  prlimitCouldNotStart,
} from './script-memory-cap.js';

/** Most stderr kept for the log, in bytes (its end, where the error usually is). */
const STDERR_TAIL_BYTES = 4_096;

/**
 * Runs a script handler.
 *
 * @returns the parsed stdout
 * @throws `LavsError` `TIMEOUT` (killed past `timeoutMs`), `PERMISSION_DENIED` (`fileAccess`
 *   refused by Node's permission model, `maxMemory` reached), `HANDLER_ERROR` (non-zero exit,
 *   killed by a signal, output too large or not JSON, cannot start)
 */
export async function runScriptHandler(
  handler: ScriptHandler,
  run: HandlerRun,
  diagnostics: HandlerDiagnostics,
): Promise<unknown> {
  const cwd = resolveInside(run.baseDir, handler.cwd ?? '.') ?? run.baseDir;
  // Relative paths were checked to stay inside the service when the manifest was loaded.
  const command =
    handler.command.includes('/') && !isAbsolute(handler.command)
      ? resolve(run.baseDir, handler.command)
      : handler.command;
  const mode = handler.input ?? 'stdin';
  const env = {
    ...inheritedEnvironment(),
    ...handler.env,
    ...(mode === 'env' ? inputToEnv(run.input) : {}),
    LAVS_SERVICE_DIR: run.baseDir,
  };
  const scriptArgs =
    mode === 'args' ? fillArgs(handler.args ?? [], run.input) : (handler.args ?? []);
  // A Node script of a service that declares `fileAccess` runs in this runtime's own Node (so the
  // permission flag matches its version), confined by Node's permission model to those files.
  const confined = isNodeCommand(command) && run.permissions.fileAccess !== undefined;
  const args = confined
    ? [
        ...nodePermissionArgs(scriptArgs, run.baseDir, cwd, run.permissions.fileAccess),
        ...scriptArgs,
      ]
    : scriptArgs;
  const maxMemory = run.permissions.maxMemory;
  const capped = capScriptMemory(confined ? process.execPath : command, args, {
    maxMemory,
    isNode: confined || isNodeCommand(command),
    prlimit: maxMemory !== undefined && (await hasPrlimit()),
  });
  const capNote = memoryCapNote(capped);
  if (maxMemory !== undefined && capNote !== undefined) diagnostics(capNote);
  return new Promise((resolve, reject) => {
    const child = spawn(capped.command, capped.args, {
      cwd,
      env,
      shell: false,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let failure: LavsError | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (reason: LavsError) => {
      // Not "has it exited": a script that exited may have left children holding its stdout,
      // and the call waits for that to close.
      if (failure !== undefined || child.pid === undefined) return;
      failure = reason;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), run.killGraceMs);
    };
    const deadline = setTimeout(
      () =>
        stop(
          new LavsError(
            'TIMEOUT',
            `${run.endpointId} ran past ${run.timeoutMs} ms and was stopped`,
            {
              data: { permission: 'maxExecutionTime', timeoutMs: run.timeoutMs },
            },
          ),
        ),
      run.timeoutMs,
    );
    const onAbort = () => stop(new LavsError('INTERNAL_ERROR', 'The call was cancelled'));
    run.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > run.maxOutputBytes)
        stop(
          new LavsError('HANDLER_ERROR', `output is larger than ${run.maxOutputBytes} bytes`, {
            data: { maxOutputBytes: run.maxOutputBytes },
          }),
        );
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]).subarray(-STDERR_TAIL_BYTES);
    });
    // A script that never reads its stdin closes it early: that is its business.
    child.stdin.on('error', () => {});
    child.stdin.end(mode === 'stdin' ? JSON.stringify(run.input ?? null) : undefined);
    child.on('error', (error) => {
      failure ??= new LavsError('HANDLER_ERROR', 'the script could not be started', {
        cause: error,
      });
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(deadline);
      clearTimeout(killTimer);
      run.signal.removeEventListener('abort', onAbort);
      // Children the script left behind go with it.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      const stderrText = stderr.toString('utf8');
      if (stderr.length > 0) diagnostics(stderrText);
      if (failure !== undefined) return reject(failure);
      if (capped.enforcement === 'os' && prlimitCouldNotStart(exitCode, stderrText))
        return reject(new LavsError('HANDLER_ERROR', 'the script could not be started'));
      if (capped.enforcement !== 'none' && endedOutOfMemory(exitCode, signal, stderrText))
        return reject(
          permissionDenied('maxMemory', `${run.endpointId} used more than maxMemory`, {
            maxMemory,
          }),
        );
      if (exitCode !== 0 && confined && stderr.includes('ERR_ACCESS_DENIED'))
        return reject(
          new LavsError(
            'PERMISSION_DENIED',
            `${run.endpointId} was refused a file or process its permissions do not allow`,
            { data: { permission: 'fileAccess' } },
          ),
        );
      if (exitCode !== 0)
        return reject(
          new LavsError('HANDLER_ERROR', `the script exited with ${exitCode ?? signal}`, {
            data: exitCode === null ? { signal } : { exitCode },
          }),
        );
      const text = Buffer.concat(stdout).toString('utf8').trim();
      if (text === '') return resolve(null);
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(new LavsError('HANDLER_ERROR', 'the script did not print JSON', { cause: error }));
      }
    });
  });
}

/** Signals the process group `pid` leads; a group already gone is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left to stop.
  }
}
