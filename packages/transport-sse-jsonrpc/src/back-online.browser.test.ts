/**
 * Back online, in Debian Chromium: an action sent while the browser is offline waits in the
 * outbox with a retry backoff of an hour, and goes out as soon as the browser is online again (its
 * `online` event), as reconnects already do — not when the backoff ends. The client is this
 * package's, bundled with esbuild and served to a page on another origin (CORS).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { eventually } from '@a2ui-ts/core/testing/node';
import { type LaunchedBrowser, launchChromium } from '@a2ui-ts/test-browser';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

const entry = `
import { A2uiClient } from '@a2ui-ts/core';
import { connectSseJsonRpc } from './client/connect-sse-json-rpc.ts';
const state = { events: [] };
window.state = state;
window.addEventListener('online', () => state.events.push('online'));
window.start = (url) => {
  // An hour: only the browser's online event can send a failed message again while the test runs.
  const hour = 3600000;
  const transport = connectSseJsonRpc({ url, reconnect: { initialDelayMs: hour, maxDelayMs: hour } });
  const client = new A2uiClient({ transport });
  client.subscribe((event) => {
    if (event.type === 'status') state.events.push('status:' + event.status);
  });
  client.connect().catch(() => {});
  window.client = client;
};
window.sendAction = (id) => {
  window.client
    .send({ version: 'v0.9', action: { name: 'book', surfaceId: 'main', sourceComponentId: 'root',
      timestamp: new Date().toISOString(), context: { id } } })
    .then(() => state.events.push('delivered:' + id), (error) => state.events.push('failed:' + error.code));
};
`;

let browser: LaunchedBrowser;
let server: TestServer;
let pageServer: Server;
let pageOrigin: string;
const actions: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    stdin: {
      contents: entry,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@a2ui-ts/source'],
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  pageServer = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>a2ui</title><script type="module" src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  server = await startTestServer({
    cors: { origin: pageOrigin },
    reconnectGraceMs: 60_000,
    agent: {
      onConnect(connection) {
        connection.send({
          version: 'v0.9',
          createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
        });
      },
      onAction(_connection, action) {
        actions.push(String(action.context.id));
      },
    },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

it('sends an action queued while offline as soon as the browser is back online, not after its backoff', async () => {
  const context = await browser.browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(pageOrigin);
  await page.waitForFunction(() => 'start' in window);
  await page.evaluate(
    (url) => (window as unknown as { start(url: string): void }).start(url),
    server.node.url,
  );
  const events = () =>
    page.evaluate(() => (window as unknown as { state: { events: string[] } }).state.events);
  await page.waitForFunction(() =>
    (window as unknown as { state: { events: string[] } }).state.events.includes('status:open'),
  );

  await context.setOffline(true);
  await page.evaluate(() =>
    (window as unknown as { sendAction(id: string): void }).sendAction('a'),
  );
  // Its delivery failed: it waits for a retry an hour away.
  await page.waitForFunction(() =>
    (window as unknown as { state: { events: string[] } }).state.events.includes('status:degraded'),
  );
  expect(actions).toEqual([]);

  await context.setOffline(false);
  await eventually(() => actions.length === 1);
  await page.waitForFunction(() =>
    (window as unknown as { state: { events: string[] } }).state.events.includes('delivered:a'),
  );
  const seen = await events();
  expect(seen.indexOf('online')).toBeGreaterThan(seen.indexOf('status:degraded'));
  expect(seen.indexOf('delivered:a')).toBeGreaterThan(seen.indexOf('online'));
  expect(actions).toEqual(['a']);
  expect(problems).toEqual([]);
  await context.close();
});
