/**
 * The README's plain `EventSource` + `fetch` recipe, run as is in Debian Chromium: a page on one
 * origin talks to the server on another (CORS), acts, loses its link and resumes without losing or
 * repeating a message, then says goodbye; and comes back to a restarted server.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type A2uiAgent,
  BASIC_CATALOG_ID,
  type Connection,
  type DisconnectReason,
  type ServerMessage,
} from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { type LaunchedBrowser, launchChromium } from '@a2ui-ts/test-browser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { serveSseJsonRpc } from './node.js';
import { createSseJsonRpcServer } from './server/create-sse-json-rpc-server.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const recipe = /<!-- browser-recipe -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1];

const surface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
};
const set = (path: string, value: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'main', path, value },
});

let browser: LaunchedBrowser;
let server: TestServer;
let proxy: TcpProxy;
let pageServer: Server;
let pageOrigin: string;
const connections: Connection[] = [];
const disconnected = createDeferred<DisconnectReason>();

beforeAll(async () => {
  expect(recipe, 'README.md has the browser recipe').toBeDefined();
  pageServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>a2ui</title><script>${recipe}</script>`);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  server = await startTestServer({
    cors: { origin: pageOrigin },
    reconnectGraceMs: 60_000,
    agent: {
      onConnect(connection) {
        connections.push(connection);
        connection.send([surface, set('/greeting', 'Hello')]);
      },
      onAction(connection, action) {
        connection.send(set('/reply', `${action.name}:${action.context.email}`));
      },
      onDisconnect(_connection, reason) {
        disconnected.resolve(reason);
      },
    },
  });
  proxy = await createTcpProxy(server.node.port);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

it('works from a plain EventSource + fetch page across origins, and resumes after a dropped link', async () => {
  const page = await browser.browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(pageOrigin);
  await page.evaluate((base) => {
    const state = { received: [] as unknown[], resets: 0 };
    Object.assign(window, { state });
    // biome-ignore lint/suspicious/noExplicitAny: the recipe is plain JavaScript in the page
    (window as any).a2ui = (window as any).connectA2ui(base, {
      onMessage: (message: unknown) => state.received.push(message),
      onReset: () => {
        state.resets++;
        state.received = [];
      },
      retryMs: 20,
    });
  }, proxy.url);
  const received = () =>
    page.evaluate(() => (window as unknown as { state: { received: unknown[] } }).state.received);

  await page.waitForFunction(
    () => (window as unknown as { state: { received: unknown[] } }).state.received.length >= 2,
  );
  const answer = await page.evaluate(() =>
    // biome-ignore lint/suspicious/noExplicitAny: the recipe is plain JavaScript in the page
    (window as any).a2ui.sendAction(
      {
        name: 'submit',
        surfaceId: 'main',
        sourceComponentId: 'send',
        timestamp: new Date().toISOString(),
        context: { email: 'ada@example.com' },
      },
      {
        a2uiClientCapabilities: {
          'v0.9': {
            supportedCatalogIds: [
              'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
            ],
          },
        },
      },
    ),
  );
  expect(answer).toMatchObject({ jsonrpc: '2.0', result: { accepted: true } });
  await page.waitForFunction(
    () => (window as unknown as { state: { received: unknown[] } }).state.received.length >= 3,
  );

  // The network breaks; the agent keeps talking; the page comes back and gets what it missed, once.
  proxy.drop();
  connections[0]!.send(set('/during', 'the outage'));
  await page.waitForFunction(
    () => (window as unknown as { state: { received: unknown[] } }).state.received.length >= 4,
  );
  connections[0]!.send(set('/after', 'resume'));
  await page.waitForFunction(
    () => (window as unknown as { state: { received: unknown[] } }).state.received.length >= 5,
  );
  expect(await received()).toEqual([
    surface,
    set('/greeting', 'Hello'),
    set('/reply', 'submit:ada@example.com'),
    set('/during', 'the outage'),
    set('/after', 'resume'),
  ]);
  expect(connections).toHaveLength(1);
  expect(
    await page.evaluate(() => (window as unknown as { state: { resets: number } }).state.resets),
  ).toBe(0);

  const goodbye = await page.evaluate(() =>
    (window as unknown as { a2ui: { close(): Promise<unknown> } }).a2ui.close(),
  );
  expect(goodbye).toMatchObject({ result: { closed: true } });
  expect(await disconnected.promise).toBe('client-closed');
  expect(problems).toEqual([]);
  await page.close();
});

it('comes back after the server restarts: the close event asks it back, and the new server resets it', async () => {
  const boot = (n: number): A2uiAgent => ({
    onConnect: (connection) => connection.send([surface, set('/boot', n)]),
  });
  const options = { cors: { origin: pageOrigin }, retryMs: 20 };
  const first = await serveSseJsonRpc(createSseJsonRpcServer({ agent: boot(1), ...options }));
  const page = await browser.browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(pageOrigin);
  await page.evaluate((base) => {
    const state = { received: [] as unknown[], resets: 0 };
    Object.assign(window, { state });
    // biome-ignore lint/suspicious/noExplicitAny: the recipe is plain JavaScript in the page
    (window as any).a2ui = (window as any).connectA2ui(base, {
      onMessage: (message: unknown) => state.received.push(message),
      onReset: () => {
        state.resets++;
        state.received = [];
      },
      retryMs: 20,
    });
  }, first.url);
  const state = () =>
    page.evaluate(
      () => (window as unknown as { state: { received: unknown[]; resets: number } }).state,
    );
  await page.waitForFunction(
    () => (window as unknown as { state: { received: unknown[] } }).state.received.length >= 2,
  );
  await first.close();
  const second = await serveSseJsonRpc(createSseJsonRpcServer({ agent: boot(2), ...options }), {
    port: first.port,
  });
  try {
    await page.waitForFunction(
      () => (window as unknown as { state: { resets: number } }).state.resets === 1,
    );
    await page.waitForFunction(
      () => (window as unknown as { state: { received: unknown[] } }).state.received.length >= 2,
    );
    expect(await state()).toEqual({ received: [surface, set('/boot', 2)], resets: 1 });
    expect(problems).toEqual([]);
  } finally {
    await page.close();
    await second.close();
  }
});
