/**
 * `serveA2a` bounds how long a client may take to send a request (core's `listenHttpServer`):
 * raw sockets that trickle their headers are cut with 408 while a normal client is served.
 */
import { HTTP_TIMEOUT_DEFAULTS } from '@a2ui-ts/core/host';
import { runSlowHeaderTrial } from '@a2ui-ts/core/testing/node';
import { describe, expect, it } from 'vitest';
import { formAgent } from '../test/agents.js';
import { serveA2a } from './node.js';
import { createA2aServer } from './server/create-a2a-server.js';

const cut = Array(3).fill(expect.stringMatching(/^HTTP\/1\.1 408 /));

describe('serveA2a request timeouts', () => {
  it('has the documented defaults', async () => {
    const node = await serveA2a(createA2aServer({ agent: formAgent().agent }));
    try {
      expect(node.server.headersTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.headersTimeoutMs);
      expect(node.server.requestTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.requestTimeoutMs);
      expect(node.server.keepAliveTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.keepAliveTimeoutMs);
    } finally {
      await node.close();
    }
  });

  it('cuts clients that trickle their headers, while a normal client gets the agent card', async () => {
    const node = await serveA2a(createA2aServer({ agent: formAgent().agent }), {
      headersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      timeoutCheckIntervalMs: 50,
    });
    try {
      const trial = await runSlowHeaderTrial(
        node.port,
        async () => (await fetch(`${node.url}/.well-known/agent-card.json`)).status,
        { byteIntervalMs: 20 },
      );
      expect(trial.served).toBe(200);
      expect(trial.answers).toEqual(cut);
    } finally {
      await node.close();
    }
  });
});
