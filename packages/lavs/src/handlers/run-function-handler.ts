/**
 * The `function` handler (spec §4.3): the module's export runs in a worker thread of its own,
 * with `resourceLimits` from `maxMemory` (spec §6.4 "separate V8 isolate"), terminated past
 * `timeoutMs`. Files are reached only through `context.files`, which the runtime checks against
 * `fileAccess`; a refused access ends the call with -32001 whatever the handler does about it.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LavsError } from '../errors/lavs-error.js';
import type { FunctionHandler } from '../manifest/manifest-types.js';
import {
  createFileAccessPolicy,
  type FileAccessPolicy,
} from '../permissions/file-access-policy.js';
import { resolveInside } from '../permissions/inside-directory.js';
import { permissionDenied } from '../permissions/permission-denied.js';
import { FUNCTION_WORKER_SOURCE } from './function-worker-source.js';
import type { HandlerDiagnostics, HandlerRun } from './handler-run.js';

const WORKER_URL = new URL(`data:text/javascript,${encodeURIComponent(FUNCTION_WORKER_SOURCE)}`);
const MEBIBYTE = 1_048_576;

/** A file operation a handler asked for. */
interface FileRequest {
  kind: 'file';
  id: number;
  op: 'read' | 'write' | 'delete';
  path: string;
  data?: unknown;
}

type WorkerMessage =
  | FileRequest
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; message: string };

/**
 * Runs a function handler.
 *
 * @returns what the export returned (structured-cloned out of the worker)
 * @throws `LavsError` `TIMEOUT`, `PERMISSION_DENIED` (`fileAccess`, `maxMemory`),
 *   `HANDLER_ERROR` (it threw, or the module or export is missing)
 */
export function runFunctionHandler(
  handler: FunctionHandler,
  run: HandlerRun,
  diagnostics: HandlerDiagnostics,
): Promise<unknown> {
  const modulePath = resolveInside(run.baseDir, handler.module);
  if (modulePath === undefined)
    return Promise.reject(
      new LavsError('INTERNAL_ERROR', 'the handler module is outside the service'),
    );
  const policy = createFileAccessPolicy(run.baseDir, run.permissions.fileAccess);
  const maxMemory = run.permissions.maxMemory;
  const worker = new Worker(WORKER_URL, {
    workerData: {
      moduleUrl: pathToFileURL(modulePath).href,
      exportName: handler.function,
      input: run.input,
      endpointId: run.endpointId,
    },
    // Heap only: V8 has no cap on a thread's whole footprint; the young generation and the
    // code stay at V8's defaults.
    ...(maxMemory === undefined
      ? {}
      : {
          resourceLimits: { maxOldGenerationSizeMb: Math.max(1, Math.ceil(maxMemory / MEBIBYTE)) },
        }),
    // The handler's console goes to the audit log, not the server's own output.
    stdout: true,
    stderr: true,
  });
  const consoleTail = collectOutput(worker);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { value: unknown } | { error: LavsError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      run.signal.removeEventListener('abort', onAbort);
      // Answered once the thread is gone, with what it printed in the log.
      void worker.terminate().finally(() => {
        const printed = consoleTail();
        if (printed !== '') diagnostics(printed);
        if ('error' in outcome) reject(outcome.error);
        else resolve(outcome.value);
      });
    };
    const deadline = setTimeout(
      () =>
        finish({
          error: new LavsError(
            'TIMEOUT',
            `${run.endpointId} ran past ${run.timeoutMs} ms and was stopped`,
            {
              data: { permission: 'maxExecutionTime', timeoutMs: run.timeoutMs },
            },
          ),
        }),
      run.timeoutMs,
    );
    const onAbort = () =>
      finish({ error: new LavsError('INTERNAL_ERROR', 'The call was cancelled') });
    run.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'result') finish({ value: message.value });
      else if (message.kind === 'error') {
        diagnostics(message.message);
        finish({ error: new LavsError('HANDLER_ERROR', 'the function threw') });
      } else
        serveFile(policy, message).then(
          (value) => {
            if (!settled) worker.postMessage({ id: message.id, ok: true, value });
          },
          (error: unknown) => {
            if (LavsError.isInstance(error) && error.code === 'PERMISSION_DENIED')
              return finish({ error });
            if (!settled)
              worker.postMessage({ id: message.id, ok: false, message: describeFsError(error) });
          },
        );
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY')
        return finish({
          error: permissionDenied('maxMemory', `${run.endpointId} used more than maxMemory`, {
            maxMemory,
          }),
        });
      diagnostics(error.message);
      finish({ error: new LavsError('HANDLER_ERROR', 'the function failed', { cause: error }) });
    });
    worker.on('exit', () =>
      finish({ error: new LavsError('HANDLER_ERROR', 'the function ended without a result') }),
    );
  });
}

/** Does one checked file operation for a handler. */
async function serveFile(policy: FileAccessPolicy, request: FileRequest): Promise<unknown> {
  const path = await policy.resolve(request.path);
  switch (request.op) {
    case 'read':
      return readFile(path, 'utf8');
    case 'write': {
      await mkdir(dirname(path), { recursive: true });
      const data = request.data instanceof Uint8Array ? request.data : String(request.data ?? '');
      await writeFile(path, data);
      return undefined;
    }
    case 'delete':
      await rm(path, { force: true });
      return undefined;
  }
}

/** A file error as the handler sees it: its code (`ENOENT`), never the runtime's absolute path. */
function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'file operation failed';
}

/** Most console output of a function kept for the log, in bytes (its end). */
const CONSOLE_TAIL_BYTES = 4_096;

/** Keeps the end of what the worker prints; @returns a function that reads it. */
function collectOutput(worker: Worker): () => string {
  let tail = Buffer.alloc(0);
  const keep = (chunk: Buffer) => {
    tail = Buffer.concat([tail, chunk]).subarray(-CONSOLE_TAIL_BYTES);
  };
  worker.stdout.on('data', keep);
  worker.stderr.on('data', keep);
  return () => tail.toString('utf8');
}
