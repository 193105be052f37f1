/**
 * `guardRunFetch` under `@ag-ui/client`'s `HttpAgent`: a response cut mid-stream ends the run
 * without an unhandled rejection (stock, its teardown re-throws `TypeError: terminated`), and a
 * response that stalls is aborted after `idleTimeoutMs`, ending the run.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgent } from '@ag-ui/client';
import { afterEach, expect, it } from 'vitest';
import { guardRunFetch, RunCutError } from './guard-run-fetch.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A run endpoint that sends `RUN_STARTED`, then `then(response)` decides what happens. */
async function serveRun(then: (socket: { destroy(): void }) => void): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n');
      then(response.socket!);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs once; resolves with how the run ended, and the unhandled rejections meanwhile. */
async function runOnce(url: string, idleTimeoutMs: number) {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const agent = new HttpAgent({ url, fetch: guardRunFetch(fetch, { idleTimeoutMs }) });
    let cut: unknown;
    let finished = false;
    await agent.runAgent(
      {},
      {
        onRunErrorEvent: ({ event }) => {
          cut = event.rawEvent;
        },
        onRunFinishedEvent: () => {
          finished = true;
        },
        onRunFailed: ({ error }) => {
          cut = error;
          return { stopPropagation: true } as never;
        },
      },
    );
    // Teardown rejections surface on a later turn of the event loop.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    return { cut, finished, unhandled };
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
}

it('a response cut mid-stream ends the run with a RunCutError, and nothing rejects unhandled', async () => {
  const url = await serveRun((socket) => setImmediate(() => socket.destroy()));
  const { cut, finished, unhandled } = await runOnce(url, 0);
  expect(finished).toBe(false);
  expect(RunCutError.isInstance(cut)).toBe(true);
  expect(unhandled).toEqual([]);
});

it('a response that stalls is aborted after idleTimeoutMs: the run ends with a RunCutError', async () => {
  const url = await serveRun(() => {});
  const { cut, finished, unhandled } = await runOnce(url, 200);
  expect(finished).toBe(false);
  expect(RunCutError.isInstance(cut)).toBe(true);
  expect((cut as Error).message).toContain('sent nothing for 200 ms');
  expect(unhandled).toEqual([]);
});
