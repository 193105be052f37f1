/**
 * `serveWs` bounds how long a client may take to send its handshake (core's `listenHttpServer`):
 * raw sockets that trickle their headers are cut with 408 while a normal client opens a socket;
 * an upgraded socket is not subject to the request timeouts.
 */
import { HTTP_TIMEOUT_DEFAULTS } from '@a2ui-ts/core/host';
import { runSlowHeaderTrial } from '@a2ui-ts/core/testing/node';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { serveWs } from './attach-ws-server.js';
import { createWsServer } from './create-ws-server.js';

const agent = { onConnect() {} };

describe('serveWs request timeouts', () => {
  it('has the documented defaults', async () => {
    const node = await serveWs(createWsServer({ agent }));
    try {
      expect(node.server.headersTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.headersTimeoutMs);
      expect(node.server.requestTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.requestTimeoutMs);
    } finally {
      await node.close();
    }
  });

  it('cuts clients that trickle their headers, while a normal client opens a socket that stays open', async () => {
    const node = await serveWs(createWsServer({ agent }), {
      headersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      timeoutCheckIntervalMs: 50,
    });
    try {
      const socket = new WebSocket(`${node.url}/ws`);
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const trial = await runSlowHeaderTrial(
        node.port,
        () =>
          new Promise<boolean>((resolve) => {
            socket.once('open', () => resolve(true));
            socket.once('error', () => resolve(false));
          }),
        { byteIntervalMs: 20 },
      );
      expect(trial.served).toBe(true);
      expect(trial.answers).toEqual(Array(3).fill(expect.stringMatching(/^HTTP\/1\.1 408 /)));
      // The slow clients were cut once their headers took too long; the older upgraded socket is open.
      expect(socket.readyState).toBe(WebSocket.OPEN);
      socket.close();
      await closed;
    } finally {
      await node.close();
    }
  });
});
