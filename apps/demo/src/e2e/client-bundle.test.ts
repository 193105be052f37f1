/**
 * The built client: what the first paint downloads stays small. The page shell (React, the top
 * bar) is the entry; everything that speaks A2UI is a chunk the shell requests at once.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildForProduction, launchChromium } from '@a2ui-ts/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config.js';
import { ASSET_CACHE_CONTROL, SHELL_CACHE_CONTROL } from '../server/create-demo-app.js';
import { startDemoServer } from '../server/start-demo-server.js';
import { restaurantTestAgent } from './demo-harness.js';

/** Most JavaScript, gzip-compressed, that the page loads before its first paint. */
const MAX_FIRST_PAINT_GZIP_BYTES = 150 * 1024;

/**
 * Most bytes crossing the wire (brotli) before the restaurant agent's first surface is on the
 * page: 167.8 kB measured 2026-12-03 once the catalog validators compiled each component once and
 * the v0.8 reader loaded with the first v0.8 message (docs/benchmarks.md), with about 1.5% left
 * for the HTML and `/api/config`, which vary a little. Issue 21's goal is 150 kB.
 */
const MAX_FIRST_SURFACE_BYTES = 170_000;

describe('demo client bundle', () => {
  let dir: string;

  // A production build, as `pnpm build` makes it (the browser tests' build keeps React's
  // development checks, which are several times larger).
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'a2ui-demo-bundle-'));
    await buildForProduction({
      configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
      outDir: dir,
      manifest: true,
    });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`loads at most ${MAX_FIRST_PAINT_GZIP_BYTES / 1024} kB of gzipped JavaScript before the first paint`, async () => {
    const html = await readFile(join(dir, 'index.html'), 'utf8');
    // The entry script and the chunks it imports statically (Vite lists them as modulepreload).
    const files = [
      ...html.matchAll(/<script type="module"[^>]*\ssrc="([^"]+)"/g),
      ...html.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"/g),
    ].map((match) => match[1]!);
    expect(files.length).toBeGreaterThan(0);
    let bytes = 0;
    for (const file of files) bytes += gzipSync(await readFile(join(dir, file))).length;
    expect(bytes).toBeLessThanOrEqual(MAX_FIRST_PAINT_GZIP_BYTES);
    // The A2UI half is a chunk of its own, not in the entry.
    const entry = await readFile(join(dir, files[0]!), 'utf8');
    expect(entry).toMatch(/workspace-[\w-]+\.js/);
    expect(entry).not.toContain('updateComponents');
  });

  it('loads a transport, and the A2A/AG-UI SDKs, only when that transport is chosen', async () => {
    const manifest = JSON.parse(await readFile(join(dir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string; imports?: string[]; dynamicImports?: string[] }
    >;
    /** The files a chunk needs before it runs: itself and its static imports, transitively. */
    const closure = (key: string, seen = new Set<string>()): Set<string> => {
      const chunk = manifest[key];
      if (!chunk || seen.has(chunk.file)) return seen;
      seen.add(chunk.file);
      for (const imported of chunk.imports ?? []) closure(imported, seen);
      return seen;
    };
    const transportKey = (name: string) => {
      const key = Object.keys(manifest).find((entry) =>
        entry.endsWith(`packages/${name}/src/index.ts`),
      );
      expect(key, name).toBeDefined();
      return key!;
    };
    const workspace = closure('workspace.tsx');
    expect([...workspace].some((file) => file.includes('protocol-sdks'))).toBe(false);
    expect(manifest['workspace.tsx']!.dynamicImports).toEqual(
      expect.arrayContaining(
        [
          'transport-sse-jsonrpc',
          'transport-ws',
          'transport-rest',
          'transport-a2a',
          'agui-adapter',
        ].map(transportKey),
      ),
    );
    // The default transport needs no peer SDK; A2A and AG-UI do.
    const sse = closure(transportKey('transport-sse-jsonrpc'));
    expect([...sse].some((file) => file.includes('protocol-sdks'))).toBe(false);
    for (const name of ['transport-a2a', 'agui-adapter']) {
      expect(
        [...closure(transportKey(name))].some((file) => file.includes('protocol-sdks')),
        name,
      ).toBe(true);
    }
  });

  it('builds without a chunk over the size warning limit (what `pnpm demo` prints)', async () => {
    // Vite warns above `chunkSizeWarningLimit` kB of minified code (1 kB = 1000 bytes there).
    const limitBytes = viteConfig.build!.chunkSizeWarningLimit! * 1000;
    const assets = join(dir, 'assets');
    const chunks = (await readdir(assets)).filter((file) => file.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(2);
    const over: string[] = [];
    for (const file of chunks) {
      const bytes = Buffer.byteLength(await readFile(join(assets, file), 'utf8'));
      if (bytes > limitBytes) over.push(`${file}: ${bytes} bytes`);
    }
    expect(over).toEqual([]);
  });

  it('serves every asset compressed and hashed assets cacheable for a year, in Chromium', async () => {
    const assetRequests: string[] = [];
    const server = await startDemoServer({
      port: 0,
      clientDir: dir,
      agents: [restaurantTestAgent()],
      logger: () => {},
      configure: (app) =>
        app.use('/assets/*', async (c, next) => {
          assetRequests.push(c.req.path);
          await next();
        }),
    });
    const { browser, close } = await launchChromium();
    try {
      const page = await browser.newPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      const responses = new Map<string, { url: string; headers: Record<string, string> }>();
      let transferred = 0;
      let recording = true;
      cdp.on('Network.responseReceived', ({ requestId, response }) => {
        const headers = Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
        );
        responses.set(requestId, { url: response.url, headers });
      });
      cdp.on('Network.loadingFinished', ({ encodedDataLength }) => {
        if (recording) transferred += encodedDataLength;
      });
      await page.goto(`${server.url}/?agent=restaurant&transport=sse-jsonrpc`);
      await page.getByTestId('surface-booking-search').waitFor();
      recording = false;
      console.log(`demo: ${transferred} bytes crossed the wire before the first surface`);
      expect(transferred).toBeLessThanOrEqual(MAX_FIRST_SURFACE_BYTES);

      // The restaurant agent speaks v0.9 with the basic catalog, sends valid messages, calls no
      // `regex` and its first surface holds no markdown: the page fetched that catalog's
      // validator, and no other version's (nor v0.8's reader), no other catalog's, no failure wording, no RE2 and
      // no markdown parser.
      const manifest = JSON.parse(
        await readFile(join(dir, '.vite/manifest.json'), 'utf8'),
      ) as Record<string, { file: string }>;
      const chunkOf = (source: RegExp) => {
        const key = Object.keys(manifest).find((entry) => source.test(entry));
        expect(key, String(source)).toBeDefined();
        return `/${manifest[key!]!.file}`;
      };
      const generated = (name: string) =>
        chunkOf(new RegExp(`core/src/validation/generated/${name}\\.js$`));
      expect(assetRequests).toContain(generated('basic'));
      for (const unused of [
        generated('v0-8'),
        // The v0.8 reader (upgrader, translation), loaded with the first v0.8 message.
        chunkOf(/core\/src\/versions\/v0-8\/v08-reader\.ts$/),
        generated('v1-0-basic'),
        generated('minimal'),
        // The documents that word a validation failure: every message here is valid. (A chunk
        // of their own, keyed by the source file, or shared with the MCP Apps catalog's runtime
        // compiler, which imports them statically: keyed `_family-schemas-<hash>.js`.)
        chunkOf(/(core\/src\/validation\/family-schemas\.ts|_family-schemas-[\w-]+\.js)$/),
        chunkOf(/node_modules\/re2js\//),
        chunkOf(/node_modules\/marked\//),
      ])
        expect(assetRequests).not.toContain(unused);

      const assets = [...responses.values()].filter(({ url }) => /\/assets\//.test(url));
      expect(assets.filter(({ url }) => url.endsWith('.js')).length).toBeGreaterThan(2);
      for (const { url, headers } of assets) {
        const file = join(dir, new URL(url).pathname);
        expect(headers['cache-control'], url).toBe(ASSET_CACHE_CONTROL);
        if (existsSync(`${file}.br`)) {
          expect(headers['content-encoding'], url).toBe('br');
          expect(headers.vary, url).toContain('Accept-Encoding');
        } else {
          // The build keeps no brotli copy only where it would not be smaller: a few hundred bytes.
          expect(statSync(file).size, url).toBeLessThan(1024);
        }
      }
      const shell = [...responses.values()].find(({ url }) => new URL(url).pathname === '/');
      expect(shell?.headers['cache-control']).toBe(SHELL_CACHE_CONTROL);

      // A reload asks the server for the shell again, and for no hashed asset: the browser keeps them.
      assetRequests.length = 0;
      await page.reload();
      await page.getByTestId('surface-booking-search').waitFor();
      expect(assetRequests).toEqual([]);
    } finally {
      await close();
      await server.close();
    }
  });
});
