/**
 * Load and leaks: 1,000 connect/disconnect cycles leave nothing behind on the server, and 1,000
 * clients long-polling at once each get a push exactly once. What is asserted is what arrives and
 * what is left behind; how long it takes is the benchmarks' business (`pnpm bench`), since a
 * loaded machine makes any time bound fail for no fault of the code.
 */
import { recordTransport } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { afterEach, expect, it } from 'vitest';
import { action, capabilities, createMain, echoAgent, update } from '../test/fixtures.js';
import { startTestServer, type TestServer } from '../test/harness.js';

const CYCLES = 1_000;
const CONCURRENCY = 50;
const CLIENTS = 1_000;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What a server holds for nobody: every counter that must be back to zero. */
const leftBehind = (test: TestServer) => {
  const stats = test.app.stats();
  return {
    sessions: stats.sessions,
    registry: test.app.registry.size(),
    polls: stats.polls,
    requests: stats.requests,
    graceTimers: stats.graceTimers,
    queuedClientMessages: stats.queuedClientMessages,
    rememberedRequests: stats.rememberedRequests,
    closedConnections: stats.closedConnections,
    rememberedConnects: stats.rememberedConnects,
  };
};
const NOTHING = {
  sessions: 0,
  registry: 0,
  polls: 0,
  requests: 0,
  graceTimers: 0,
  queuedClientMessages: 0,
  rememberedRequests: 0,
  closedConnections: 0,
  rememberedConnects: 0,
};

it(`leaves nothing behind after ${CYCLES} connect / disconnect cycles`, async () => {
  const recorder = echoAgent();
  server = await startTestServer({ agent: recorder.agent });
  const started = performance.now();
  let next = 0;
  const cycle = async (): Promise<void> => {
    while (next < CYCLES) {
      const index = next++;
      const transport = server!.connect();
      const recording = recordTransport(transport);
      await recording.until(() => recording.messages().length === 1);
      // Every tenth one acts too, so that remembered request ids are checked as well.
      if (index % 10 === 0) {
        await transport.send({ version: 'v0.9', action: action(`a${index}`) }, capabilities);
        expect(recording.messages()).toEqual([createMain, update('/last', `a${index}`)]);
      }
      await transport.close();
      await recording.done;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, cycle));
  const elapsedMs = performance.now() - started;
  expect(recorder.connections).toHaveLength(CYCLES);
  expect(recorder.actions).toHaveLength(CYCLES / 10);
  await eventually(() => recorder.disconnects.length === CYCLES);
  expect(new Set(recorder.disconnects)).toEqual(new Set(['client-closed']));
  await eventually(() => server!.app.stats().requests === 0);
  expect(leftBehind(server)).toEqual(NOTHING);
  console.info(`load: ${CYCLES} REST connect/disconnect cycles in ${Math.round(elapsedMs)} ms`);
});

it(`pushes to ${CLIENTS} clients long-polling at once, each message exactly once`, async () => {
  const recorder = echoAgent();
  let pollsArrived = 0;
  let pollsWaiting = 0;
  server = await startTestServer({
    agent: recorder.agent,
    configure(parent) {
      parent.use('/messages', async (_c, next) => {
        pollsArrived++;
        pollsWaiting++;
        try {
          await next();
        } finally {
          pollsWaiting--;
        }
      });
    },
  });
  // Counted as they come and go: `stats()` walks every session, and asked on every turn of the
  // event loop it takes the time the polls it waits for need on a loaded machine.
  const polling = (count: number) => eventually(() => pollsArrived >= count);
  const transports = Array.from({ length: CLIENTS }, () => server!.connect());
  const recordings = transports.map((transport) => recordTransport(transport));
  await Promise.all(
    recordings.map((recording) => recording.until(() => recording.messages().length === 1)),
  );
  await polling(CLIENTS);
  const started = performance.now();
  for (const connection of recorder.connections) connection.send(update('/live', connection.id));
  await Promise.all(
    recordings.map((recording) => recording.until(() => recording.messages().length === 2)),
  );
  const deliveredMs = performance.now() - started;
  // And a second round, to the polls the first answers started.
  await polling(2 * CLIENTS);
  await eventually(() => pollsWaiting === CLIENTS);
  for (const connection of recorder.connections) connection.send(update('/again', true));
  await Promise.all(
    recordings.map((recording) => recording.until(() => recording.messages().length === 3)),
  );
  transports.forEach((transport, index) => {
    expect(recordings[index]!.messages()).toEqual([
      createMain,
      update('/live', transport.connectionId),
      update('/again', true),
    ]);
  });
  await Promise.all(transports.map((transport) => transport.close()));
  await eventually(() => recorder.disconnects.length === CLIENTS);
  await eventually(() => server!.app.stats().requests === 0);
  expect(leftBehind(server)).toEqual(NOTHING);
  console.info(
    `load: a push to ${CLIENTS} long-polling clients delivered in ${Math.round(deliveredMs)} ms`,
  );
});
