/**
 * Load: 1,000 concurrent WebSocket clients, 100 messages each, every one delivered in order,
 * within a bounded time; then every session, socket and timer is gone. Server and clients share
 * this process (and its two cores), so the bound is loose.
 */
import { BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { recordTransport } from '@a2ui-ts/core/testing';
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

it(`delivers ${MESSAGES} messages to each of ${CLIENTS} concurrent WebSocket clients, in order`, async () => {
  const started = performance.now();
  server = await startTestServer({
    agent: {
      async onConnect(connection) {
        connection.send({
          version: 'v0.9',
          createSurface: { surfaceId: 'load', catalogId: BASIC_CATALOG_ID },
        });
        // Streamed in slices, as an agent producing output over time would.
        for (let index = 0; index < MESSAGES - 1; index++) {
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 'load', path: '/n', value: index },
          });
          if (index % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
        }
      },
    },
  });
  const transports = Array.from({ length: CLIENTS }, () => server!.connect());
  const recordings = transports.map((transport) => recordTransport(transport));
  // Counted, not parsed, while waiting: parsing every message on every event would be the test's
  // own quadratic cost.
  const count = (events: readonly { type: string }[]) =>
    events.reduce((sum, event) => sum + (event.type === 'messages' ? 1 : 0), 0);
  await Promise.all(
    recordings.map((recording) => recording.until((events) => count(events) >= MESSAGES)),
  );
  const deliveredMs = performance.now() - started;

  expect(server.a2ui.registry.size()).toBe(CLIENTS);
  for (const recording of recordings) {
    const messages = recording.messages() as ServerMessage[];
    expect(messages).toHaveLength(MESSAGES);
    expect(messages[0]).toHaveProperty('createSurface');
    const values = messages
      .slice(1)
      .map((message) => ('updateDataModel' in message ? message.updateDataModel.value : undefined));
    expect(values).toEqual(Array.from({ length: MESSAGES - 1 }, (_, index) => index));
  }
  for (const transport of transports) expect(transport.lastSeq).toBe(MESSAGES);
  await Promise.all(transports.map((transport) => transport.close()));
  await eventually(() => server!.a2ui.registry.size() === 0 && server!.a2ui.stats().sockets === 0);
  expect(server.a2ui.stats()).toMatchObject({
    sessions: 0,
    links: 0,
    sockets: 0,
    bufferedBytes: 0,
    heartbeatTimer: false,
  });
  // A few seconds on an idle 2-core machine; slack for a machine shared with other work.
  expect(deliveredMs).toBeLessThan(45_000);
  console.info(
    `load: ${CLIENTS} clients × ${MESSAGES} messages delivered in ${Math.round(deliveredMs)} ms`,
  );
}, 90_000);
