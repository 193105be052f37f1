/**
 * `serveSseJsonRpc` bounds how long a client may take to send a request (core's
 * `listenHttpServer`): raw sockets that trickle their headers are cut with 408 while a normal
 * client opens its stream.
 */
import { HTTP_TIMEOUT_DEFAULTS } from '@a2ui-ts/core/host';
import { runSlowHeaderTrial } from '@a2ui-ts/core/testing/node';
import { describe, expect, it } from 'vitest';
import { serveSseJsonRpc } from './node.js';
import { createSseJsonRpcServer } from './server/create-sse-json-rpc-server.js';

const agent = { onConnect() {} };

describe('serveSseJsonRpc request timeouts', () => {
  it('has the documented defaults', async () => {
    const node = await serveSseJsonRpc(createSseJsonRpcServer({ agent }));
    try {
      expect(node.server.headersTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.headersTimeoutMs);
      expect(node.server.requestTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.requestTimeoutMs);
    } finally {
      await node.close();
    }
  });

  it('cuts clients that trickle their headers, while a normal client opens its stream', async () => {
    const node = await serveSseJsonRpc(createSseJsonRpcServer({ agent }), {
      headersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      timeoutCheckIntervalMs: 50,
    });
    try {
      const trial = await runSlowHeaderTrial(
        node.port,
        async () => {
          const stream = await fetch(`${node.url}/sse`, {
            headers: { accept: 'text/event-stream' },
          });
          await stream.body?.cancel();
          return stream.status;
        },
        { byteIntervalMs: 20 },
      );
      expect(trial.served).toBe(200);
      expect(trial.answers).toEqual(Array(3).fill(expect.stringMatching(/^HTTP\/1\.1 408 /)));
    } finally {
      await node.close();
    }
  });
});
