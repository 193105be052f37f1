/**
 * Load: 1,000 concurrent SSE clients, 100 messages each, every one delivered in order, and
 * nothing left behind. The time it takes is printed, not asserted: speed is the benchmark's job.
 */
import {
  createLoadAgent,
  expectLoadDelivered,
  recordTransport,
  untilLoadDelivered,
} from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const CLIENTS = 1_000;
const MESSAGES = 100;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it(`delivers ${MESSAGES} messages to each of ${CLIENTS} concurrent SSE clients, in order`, async () => {
  const started = performance.now();
  server = await startTestServer({ agent: createLoadAgent(MESSAGES) });
  const transports = Array.from({ length: CLIENTS }, () => server!.connect());
  const recordings = transports.map((transport) => recordTransport(transport));
  await untilLoadDelivered(recordings, MESSAGES);
  const deliveredMs = performance.now() - started;

  expect(server.app.registry.size()).toBe(CLIENTS);
  expectLoadDelivered(recordings, MESSAGES);
  for (const transport of transports) expect(transport.lastEventId).toBe(MESSAGES);
  await Promise.all(transports.map((transport) => transport.close()));
  await eventually(() => server!.app.registry.size() === 0);
  expect(server.app.stats()).toMatchObject({ sessions: 0, links: 0, bufferedBytes: 0 });
  console.info(
    `load: ${CLIENTS} clients × ${MESSAGES} messages delivered in ${Math.round(deliveredMs)} ms`,
  );
});
