/**
 * Core must work on a page whose Content-Security-Policy forbids `unsafe-eval` (ARCHITECTURE §1):
 * the validators are precompiled, so nothing calls `eval` or `new Function`. This bundles the
 * browser entry with esbuild, serves it under `script-src 'self'`, and processes every official
 * example stream in real Chromium.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type LaunchedBrowser, launchChromium } from '@a2ui-ts/test-browser';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = `
import { A2uiClient, loadValidators, safeParseServerMessage } from './index.ts';
import { EXAMPLE_STREAMS } from './testing/example-streams.ts';
const client = new A2uiClient();
const errors = [];
client.processor.onError((error) => errors.push(error));
for (const stream of EXAMPLE_STREAMS) client.process(stream.messages.map((message) => JSON.stringify(message)).map((text) => JSON.parse(text)));
// In a page the catalogs' validators load on first need and messages wait for them, in order
// (the v0.9 ones are static here: safeParseServerMessage below uses basicCatalogValidator).
await client.processor.whenIdle();
const invalid = safeParseServerMessage('{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":42}]}}');
// v1.0 components go through the precompiled v1.0 basic catalog validator: 'h1' is v0.9-only.
const v10Client = new A2uiClient();
const v10Errors = [];
v10Client.processor.onError((error) => v10Errors.push(error));
v10Client.process([
  { version: 'v1.0', createSurface: { surfaceId: 'v10', catalogId: 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json', components: [{ id: 'root', component: 'Video', url: 'https://example.com/a.mp4', posterUrl: 'p.png' }] } },
  { version: 'v1.0', updateComponents: { surfaceId: 'v10', components: [{ id: 'root', component: 'Text', text: 'Title', variant: 'h1' }] } },
]);
const waited = v10Client.processor.getSurface('v10') === undefined;
await v10Client.processor.whenIdle();
const context = client.getDataContext(client.processor.getSurfaces()[0].surfaceId);
const catastrophic = { call: 'regex', args: { value: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', pattern: '^(a+)+$' } };
// RE2 loads on the first regex call, which evaluates to nothing meanwhile.
const regexBeforeLoad = context.evaluate(catastrophic) ?? null;
await loadValidators();
document.body.dataset.result = JSON.stringify({
  waited,
  surfaces: client.processor.getSurfaces().length,
  errors,
  invalidPath: invalid.success ? null : invalid.errors[0].path,
  currency: context.evaluate({ call: 'formatCurrency', args: { value: 1234.5, currency: 'EUR' } }),
  regexBeforeLoad,
  regex: context.evaluate(catastrophic),
  v10Errors: v10Errors.map((error) => error.code + ' ' + error.path),
  v10Root: v10Client.processor.getSurface('v10')?.components.get('root')?.type,
});
`;

let server: Server;
let url: string;
let browser: LaunchedBrowser;

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
    write: false,
    minify: true,
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(script);
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/html',
      'content-security-policy': "default-src 'none'; script-src 'self'",
    });
    response.end(
      '<!doctype html><html><body><script type="module" src="/app.js"></script></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('core under a strict Content-Security-Policy', () => {
  it('validates and processes every example stream, and v1.0 components, with no eval', async () => {
    const page = await browser.browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { reportViolation(text: string): void }).reportViolation(
          `${event.violatedDirective}: ${event.blockedURI}`,
        );
      });
    });
    await page.goto(url);
    const result = JSON.parse(
      (await page
        .waitForSelector('body[data-result]', { state: 'attached' })
        .then((body) => body.getAttribute('data-result')))!,
    );
    expect(violations).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.waited).toBe(true);
    expect(result.regexBeforeLoad).toBe(null);
    expect(result.surfaces).toBeGreaterThan(10);
    expect(result.invalidPath).toBe('/updateComponents/components/0/text');
    expect(result.currency).toBe('€1,234.50');
    expect(result.regex).toBe(false);
    expect(result.v10Errors).toEqual(['VALIDATION_FAILED /updateComponents/components/0/variant']);
    expect(result.v10Root).toBe('Video');
    await page.close();
  }, 30_000);
});
