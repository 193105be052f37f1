/**
 * `serveLavs` bounds how long a client may take to send a request (core's `listenHttpServer`):
 * raw sockets that trickle their headers are cut with 408 while a normal client reads the manifest.
 */
import { HTTP_TIMEOUT_DEFAULTS } from '@a2ui-ts/core/host';
import { runSlowHeaderTrial } from '@a2ui-ts/core/testing/node';
import { describe, expect, it } from 'vitest';
import { copyTodoManager, startService } from '../../test/service-fixture.js';

describe('serveLavs request timeouts', () => {
  it('has the documented defaults, and cuts clients that trickle their headers with its options', async () => {
    const defaults = await startService(await copyTodoManager());
    try {
      expect(defaults.server.server.headersTimeout).toBe(HTTP_TIMEOUT_DEFAULTS.headersTimeoutMs);
    } finally {
      await defaults.close();
    }
    const service = await startService(await copyTodoManager(), {
      headersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      timeoutCheckIntervalMs: 50,
    });
    try {
      const trial = await runSlowHeaderTrial(
        service.server.port,
        async () => (await fetch(`${service.url}/manifest`)).status,
        { byteIntervalMs: 20 },
      );
      expect(trial.served).toBe(200);
      expect(trial.answers).toEqual(Array(3).fill(expect.stringMatching(/^HTTP\/1\.1 408 /)));
    } finally {
      await service.close();
    }
  });
});
