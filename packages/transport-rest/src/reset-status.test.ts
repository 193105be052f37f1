/**
 * The status after a reset: an action the server refused for now (HTTP 503) waits and the status
 * is `degraded`; when the server then forgets the connection (a restart) the client resets, the
 * action goes with its session — never reported failed, since an attempt may have arrived — and,
 * nothing waiting any more, the status is `open` again, not "messages waiting" for ever.
 */
import type { A2uiError } from '@a2ui-ts/core';
import { recordTransport } from '@a2ui-ts/core/testing';
import { afterEach, expect, it } from 'vitest';
import { action, capabilities, echoAgent } from '../test/fixtures.js';
import { FAST_RECONNECT, startTestServer, type TestServer } from '../test/harness.js';
import { connectRest } from './client/connect-rest.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('is open again after a reset dropped the message that was waiting', async () => {
  const recorder = echoAgent();
  let refusing = true;
  server = await startTestServer({
    agent: recorder.agent,
    configure(parent) {
      parent.post('/action', async (c, next) => {
        if (!refusing) return next();
        return c.json({ error: { code: 'LIMIT_EXCEEDED', message: 'Busy.' } }, 503, {
          'Retry-After': '1',
        });
      });
    },
  });
  // A long redelivery backoff: the message still waits when the reset comes.
  const transport = connectRest({
    url: server.node.url,
    reconnect: { ...FAST_RECONNECT, initialDelayMs: 3_600_000, maxDelayMs: 3_600_000 },
  });
  const recording = recordTransport(transport);
  await recording.until(() => recording.messages().length === 1);
  const told = transport.send({ version: 'v0.9', action: action('waits') }, capabilities).then(
    () => 'ok',
    (error: A2uiError) => error.code,
  );
  await recording.until((events) =>
    events.some((event) => event.type === 'status' && event.status === 'degraded'),
  );

  // The server forgets the connection, as a restarted one would.
  refusing = false;
  await server.app.host.disconnect(transport.connectionId!, { principal: undefined });
  await recording.until((events) => events.some((event) => event.type === 'reset'));
  // Nothing waits any more: the trouble is over.
  const statuses = recording.events.filter((event) => event.type === 'status');
  expect(statuses.at(-1)).toMatchObject({ status: 'open' });
  expect(transport.status).toBe('open');
  expect(await told).toBe('OUTCOME_UNKNOWN');
  expect(recorder.actions).toEqual([]);
  await transport.close();
});
