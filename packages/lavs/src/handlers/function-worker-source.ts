/**
 * The code of the worker thread a `function` handler runs in, as text: started from a `data:`
 * URL, it needs no file of its own beside the built package (or the TypeScript sources under
 * test). It imports the handler's module, calls the export with `(input, context)`, and
 * forwards each `context.files` operation to the runtime, which checks `fileAccess` and does
 * the I/O itself — the policy lives on the trusted side of the thread boundary.
 *
 * Messages, worker → runtime: `{ kind: 'file', id, op, path, data? }`, `{ kind: 'result', value }`,
 * `{ kind: 'error', message }`; runtime → worker: `{ id, ok: true, value } | { id, ok: false, message }`.
 */
export const FUNCTION_WORKER_SOURCE = `
import { parentPort, workerData } from 'node:worker_threads';

const pending = new Map();
let nextId = 0;
parentPort.on('message', (reply) => {
  const call = pending.get(reply.id);
  pending.delete(reply.id);
  if (reply.ok) call.resolve(reply.value);
  else call.reject(Object.assign(new Error(reply.message), { code: 'PERMISSION_DENIED' }));
});
const file = (op) => (path, data) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    parentPort.postMessage({ kind: 'file', id, op, path, data });
  });
const files = Object.freeze({
  readFile: file('read'),
  writeFile: file('write'),
  deleteFile: file('delete'),
});

try {
  const module = await import(workerData.moduleUrl);
  const fn = module[workerData.exportName];
  if (typeof fn !== 'function') throw new Error(workerData.exportName + ' is not a function of the module');
  const value = await fn(workerData.input, { files, endpoint: workerData.endpointId });
  parentPort.postMessage({ kind: 'result', value });
} catch (error) {
  parentPort.postMessage({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
}
`;
