/**
 * The booking flow on two demo nodes sharing one Redis (a real `redis-server`), behind a
 * round-robin balancer without sticky sessions. Over SSE + JSON-RPC the page's event stream is on
 * one node and its actions alternate between the nodes — those that reach the other node are
 * handed to the owner over Redis and answered on the stream. Over WebSocket the socket is cut
 * halfway: it comes back on the other node, which follows the owner's connection from the shared
 * log and forwards the page's actions to it. Real Chromium.
 *
 * The transports that keep per-node state (A2A, AG-UI: `anyNode: false`) run behind the same
 * balancer with the rule of `pnpm demo:cluster` (`clusterAffinity`): each of their mounts on one
 * node, the booking flow whole.
 */

import {
  type RedisServerProcess,
  type RoundRobinProxy,
  startRedisServer,
  startRoundRobinProxy,
} from '@a2ui-ts/redis/testing';
import { collectPageErrors, type LaunchedBrowser, launchChromium } from '@a2ui-ts/test-browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createManualScheduler } from '../agents/scheduler.js';
import { type DemoServer, startDemoServer } from '../server/start-demo-server.js';
import { clusterAffinity, SERVER_TRANSPORTS } from '../server/transports.js';
import { type LogRecord, restaurantTestAgent } from './demo-harness.js';

interface Node {
  server: DemoServer;
  logs: LogRecord[];
  /** `METHOD path` of every A2UI request this node received. */
  requests: string[];
}

let redis: RedisServerProcess | undefined;
let balancer: RoundRobinProxy | undefined;
let browser: LaunchedBrowser | undefined;
const nodes: Node[] = [];
const scheduler = createManualScheduler();

beforeAll(async () => {
  redis = await startRedisServer();
  for (let index = 0; index < 2; index++) {
    const node: Node = { logs: [], requests: [], server: undefined as unknown as DemoServer };
    node.server = await startDemoServer({
      port: 0,
      clientDir: inject('demoClientDir'),
      redisUrl: redis.url,
      agents: [restaurantTestAgent(scheduler)],
      configure: (app) =>
        app.use('/a2ui/*', async (c, next) => {
          node.requests.push(`${c.req.method} ${c.req.path}`);
          await next();
        }),
      logger: (event, fields) => node.logs.push({ event, ...fields }),
    });
    nodes.push(node);
  }
  balancer = await startRoundRobinProxy(
    nodes.map((node) => node.server.url),
    { affinity: clusterAffinity },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await balancer?.close();
  await Promise.all(nodes.map((node) => node.server.close()));
  await redis?.stop();
});

/**
 * The booking flow through the balancer, to the confirmation; `beforeBook` runs on the results
 * (a live push was applied), before a restaurant is picked.
 */
async function bookATable(page: Page, beforeBook: () => void = () => {}): Promise<void> {
  const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
  await search.getByRole('heading', { name: 'Find a table' }).waitFor();
  await search.getByLabel('City or restaurant').fill('Lyon');
  const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  await search.getByLabel('Date').fill(date);
  await search.getByText('French', { exact: true }).click();
  await search.getByRole('button', { name: 'Find tables' }).click();

  const results = page.getByTestId('surface-booking-results').locator('.a2ui-surface');
  await results.getByText('5 tables left').waitFor();
  // A live push from the agent on the owner node reaches the page.
  scheduler.tick();
  await results.getByText('4 tables left').waitFor();
  beforeBook();
  await results.getByRole('button', { name: 'Book Le Petit Lyon' }).click();

  const form = page.getByTestId('surface-booking-form').locator('.a2ui-surface');
  await form.getByRole('heading', { name: 'Book Le Petit Lyon' }).waitFor();
  await form.getByLabel('Full name').fill('Ada Lovelace');
  await form.getByLabel('Email').fill('ada@example.com');
  await form.getByText('19:30', { exact: true }).click();
  await form.getByLabel('I accept the cancellation policy').check();
  await form.getByRole('button', { name: 'Confirm booking' }).click();

  const confirmation = page.getByTestId('surface-booking-confirmation').locator('.a2ui-surface');
  await confirmation.getByRole('heading', { name: 'You’re booked!' }).waitFor();
  await confirmation.getByText('Booked for Ada Lovelace (ada@example.com)').waitFor();
}

it.each(['sse-jsonrpc', 'ws'])(
  'books a table with the stream on one node and the actions on the other, over %s',
  async (transportId) => {
    for (const node of nodes) {
      node.logs.length = 0;
      node.requests.length = 0;
    }
    const ofThisRun = (log: LogRecord) => log.transport === transportId;
    const page = await browser!.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${balancer!.url}/?agent=restaurant&transport=${transportId}`);

    const ownerIndex = () =>
      nodes.findIndex((node) => node.logs.some((log) => log.event === 'action' && ofThisRun(log)));
    try {
      await bookATable(page, () => {
        if (transportId !== 'ws') return;
        // The socket comes back through the balancer, on the other node: the owner's node is out
        // of turn for the reconnect (round robin alone would depend on how many chunks the page
        // fetched meanwhile).
        balancer!.setEnabled(ownerIndex(), false);
        balancer!.dropUpgrades();
      });
    } finally {
      for (const index of nodes.keys()) balancer!.setEnabled(index, true);
    }

    // One node owns the connection: its agent handled every action, each once. (The page may
    // have opened, and closed at once, another connection first.)
    const owners = nodes.filter((node) =>
      node.logs.some((log) => log.event === 'action' && ofThisRun(log)),
    );
    expect(owners).toHaveLength(1);
    const [owner] = owners;
    const other = nodes.find((node) => node !== owner)!;
    const actions = owner!.logs
      .filter((log) => log.event === 'action' && ofThisRun(log))
      .map((log) => log.name);
    expect(actions).toEqual(['search', 'select', 'book']);
    if (transportId === 'sse-jsonrpc') {
      // The stream is on the owner; actions were posted to the other node too.
      const streams = owner!.requests.filter((request) => /^GET .*\/sse$/.test(request));
      expect(streams).toHaveLength(1);
      expect(other.requests.filter((request) => request.startsWith('POST '))).not.toEqual([]);
    } else {
      // The socket that came back is on the other node, following the owner's connection.
      const health = (await fetch(`${other.server.url}/api/health`).then((response) =>
        response.json(),
      )) as { redis: { followers: number } };
      expect(health.redis.followers).toBeGreaterThan(0);
    }
    expect(pageErrors).toEqual([]);
    await page.close();
  },
);

it.each(
  SERVER_TRANSPORTS.filter((transport) => !transport.anyNode).map((transport) => transport.id),
)('books a table over %s, whose requests the balancer keeps on one node', async (transportId) => {
  for (const node of nodes) {
    node.logs.length = 0;
    node.requests.length = 0;
  }
  const page = await browser!.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const pageErrors = collectPageErrors(page);
  await page.goto(`${balancer!.url}/?agent=restaurant&transport=${transportId}`);
  await bookATable(page);
  const mount = `/a2ui/restaurant/${transportId}`;
  const reached = nodes.filter((node) => node.requests.some((request) => request.includes(mount)));
  expect(reached).toHaveLength(1);
  const actions = reached[0]!.logs
    .filter((log) => log.event === 'action' && log.transport === transportId)
    .map((log) => log.name);
  expect(actions).toEqual(['search', 'select', 'book']);
  expect(pageErrors).toEqual([]);
  await page.close();
});
