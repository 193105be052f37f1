/**
 * AG-UI loses nothing: a client on `connectAgUi` (long polling) talks to the server through a TCP
 * proxy that, at seeded random points, cuts every connection mid-stream, drops a run's answer
 * right after the server wrote its end (the server thinks it was read), and stalls the path (no
 * byte lost, some stalls longer than the client's `idleTimeoutMs`). Meanwhile the agent answers
 * 20 actions with chunks of updates and pushes more between runs, ≈300 messages a trial. Every
 * update must reach the client exactly once, no action may be refused or applied twice, and
 * nothing may reject unhandled — in `state` and in `activity` mode.
 */
import {
  type A2uiAgent,
  A2uiClient,
  BASIC_CATALOG_ID,
  type Connection,
  type ServerMessage,
} from '@a2ui-ts/core';
import { seededRandom } from '@a2ui-ts/core/testing';
import { createTcpProxy, eventually, type TcpProxy } from '@a2ui-ts/core/testing/node';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_RECONNECT, startTestServer } from '../test/harness.js';
import { connectAgUi } from './client/connect-agui.js';

const TRIALS = 20;
const ACTIONS = 20;
/** Updates answering each action, and updates pushed between runs after it. */
const CHUNK = 10;
const PUSHES = 5;

/** The `more` action, but for its time and `context.next`. */
const MORE = { name: 'more', surfaceId: 'counter', sourceComponentId: 'root' } as const;

const createCounter: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID },
};
const update = (area: 'values' | 'ticks', index: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'counter', path: `/${area}/k${index}`, value: index },
});

/** Every key the client must end with: `values/k0…k209`, `ticks/k0…k99`. */
const EXPECTED = [
  ...Array.from({ length: CHUNK * (ACTIONS + 1) }, (_, index) => `values/k${index}`),
  ...Array.from({ length: PUSHES * ACTIONS }, (_, index) => `ticks/k${index}`),
];

/** The agent: a chunk on connect and per `more` action, pushes between runs after each action. */
function trialAgent(random: () => number) {
  const actions: number[] = [];
  let pushed = 0;
  const agent: A2uiAgent = {
    onConnect(connection) {
      connection.send([
        createCounter,
        ...Array.from({ length: CHUNK }, (_, index) => update('values', index)),
      ]);
    },
    onAction(connection, action) {
      const next = action.context.next as number;
      actions.push(next);
      connection.send(
        Array.from({ length: CHUNK }, (_, offset) => update('values', next + offset)),
      );
      const first = (next / CHUNK - 1) * PUSHES;
      for (let index = 0; index < PUSHES; index++) push(connection, first + index);
    },
  };
  const push = (connection: Connection, index: number) => {
    setTimeout(
      () => {
        if (connection.closed) return;
        connection.send(update('ticks', index));
        pushed++;
      },
      Math.floor(random() * 40),
    );
  };
  return { agent, actions, pushed: () => pushed };
}

/** Cuts, dropped answers and stalls at seeded random points, until `stop()`. */
function injectFaults(proxy: () => TcpProxy | undefined, random: () => number) {
  const counts = { cuts: 0, droppedAnswers: 0, stalls: 0 };
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unstall: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    if (stopped) return;
    const roll = random();
    if (roll < 0.12) {
      counts.cuts++;
      proxy()?.drop();
    } else if (roll < 0.16 && unstall === undefined) {
      counts.stalls++;
      proxy()?.setStalled(true);
      unstall = setTimeout(
        () => {
          unstall = undefined;
          proxy()?.setStalled(false);
        },
        20 + Math.floor(random() * 600),
      );
    }
    timer = setTimeout(tick, 2 + Math.floor(random() * 30));
  };
  /** Drops the link right after the server wrote a run's last bytes (some of them). */
  const dropAnswers = (parent: Hono) => {
    parent.use('*', async (c, next) => {
      await next();
      const body = c.res.body;
      if (!body || stopped) return;
      const drop = random() < 0.2;
      const ending = new TransformStream<Uint8Array, Uint8Array>({
        flush() {
          if (!drop || stopped) return;
          counts.droppedAnswers++;
          setImmediate(() => proxy()?.drop());
        },
      });
      c.res = new Response(body.pipeThrough(ending), c.res);
    });
  };
  return {
    counts,
    dropAnswers,
    start: tick,
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(unstall);
      unstall = undefined;
      proxy()?.setStalled(false);
    },
  };
}

interface TrialFigures {
  lost: number;
  doubled: number;
  clientErrors: number;
  actionsDoubled: number;
  cuts: number;
  droppedAnswers: number;
  stalls: number;
  messages: number;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

async function runTrial(mode: 'state' | 'activity', seed: number): Promise<TrialFigures> {
  const random = seededRandom(seed);
  const trial = trialAgent(random);
  let proxy: TcpProxy | undefined;
  const faults = injectFaults(() => proxy, random);
  const server = await startTestServer({
    agent: trial.agent,
    mode,
    keepAliveIntervalMs: 100,
    reconnectGraceMs: 60_000,
    configure: faults.dropAnswers,
  });
  proxy = await createTcpProxy(server.node.port);
  const transport = connectAgUi({
    url: `${proxy.url}/agent`,
    longPoll: true,
    idleTimeoutMs: 300,
    reconnect: FAST_RECONNECT,
  });
  const client = new A2uiClient({ transport });
  const received = new Map<string, number>();
  let messages = 0;
  const clientErrors: unknown[] = [];
  client.subscribe((event) => {
    if (event.type === 'reset') clientErrors.push(new Error(`reset: ${event.reason}`));
    if (event.type === 'status' && event.status === 'closed')
      clientErrors.push(new Error(`closed: ${event.reason}`));
    if (event.type !== 'received') return;
    messages++;
    for (const error of event.result.errors) clientErrors.push(error);
    const message = (
      typeof event.input === 'string' ? JSON.parse(event.input) : event.input
    ) as ServerMessage;
    if (!('updateDataModel' in message)) return;
    const key = message.updateDataModel.path?.slice(1);
    if (key && key !== '') received.set(key, (received.get(key) ?? 0) + 1);
  });
  void client.connect().catch((error) => clientErrors.push(error));
  const dataModel = () => client.processor.getSurface('counter')?.dataModel;
  await client.until(() => dataModel()?.get('/values/k0') === 0);
  faults.start();
  for (let action = 1; action <= ACTIONS; action++) {
    await client
      .send({
        version: 'v0.9',
        action: { ...MORE, timestamp: new Date().toISOString(), context: { next: action * CHUNK } },
      })
      .catch((error) => clientErrors.push(error));
  }
  await eventually(() => trial.pushed() === PUSHES * ACTIONS);
  faults.stop();
  // One clean run collects whatever the server still holds for this client.
  await transport.run().catch((error) => clientErrors.push(error));
  const model = dataModel();
  const lost = EXPECTED.filter((key) => model?.get(`/${key}`) === undefined).length;
  let doubled = 0;
  for (const count of received.values()) doubled += Math.max(0, count - 1);
  const figures: TrialFigures = {
    lost,
    doubled,
    clientErrors: clientErrors.length,
    actionsDoubled: trial.actions.length - new Set(trial.actions).size,
    ...faults.counts,
    messages,
  };
  if (clientErrors.length > 0) console.log(`${mode} trial ${seed}: client errors`, clientErrors);
  await client.close();
  await proxy.close();
  await server.close();
  return figures;
}

describe.each(['state', 'activity'] as const)(
  'in %s mode, through cuts, dropped answers and stalls',
  (mode) => {
    it(`delivers every update exactly once, every action once, with no client error (${TRIALS} trials)`, async () => {
      const totals: TrialFigures = {
        lost: 0,
        doubled: 0,
        clientErrors: 0,
        actionsDoubled: 0,
        cuts: 0,
        droppedAnswers: 0,
        stalls: 0,
        messages: 0,
      };
      const unhandledBefore = unhandled.length;
      for (let trial = 0; trial < TRIALS; trial++) {
        const figures = await runTrial(mode, 4_000 + trial);
        for (const key of Object.keys(totals) as Array<keyof TrialFigures>)
          totals[key] += figures[key];
      }
      const unhandledNow = unhandled.length - unhandledBefore;
      console.log(
        `${mode}: ${TRIALS} trials, ${TRIALS * EXPECTED.length} updates, ${TRIALS * ACTIONS} actions —`,
        JSON.stringify({ ...totals, unhandled: unhandledNow }),
      );
      expect({
        lost: totals.lost,
        doubled: totals.doubled,
        clientErrors: totals.clientErrors,
        actionsDoubled: totals.actionsDoubled,
        unhandled: unhandledNow,
      }).toEqual({ lost: 0, doubled: 0, clientErrors: 0, actionsDoubled: 0, unhandled: 0 });
      // The faults happened: each kind, many times.
      expect(totals.cuts).toBeGreaterThan(100);
      expect(totals.droppedAnswers).toBeGreaterThan(20);
      expect(totals.stalls).toBeGreaterThan(20);
    });
  },
);
