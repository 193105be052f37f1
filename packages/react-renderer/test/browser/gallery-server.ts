/**
 * Bundles the gallery with esbuild and serves it on 127.0.0.1 with an ephemeral port.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

export interface GalleryServer {
  readonly url: string;
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>A2UI gallery</title>
<link rel="stylesheet" href="/gallery-app.css">
<style>
  body { margin: 0; padding: 16px; font-family: system-ui, sans-serif; background: Canvas; color: CanvasText; }
  .gallery-section { max-width: 720px; margin: 0 auto 32px; }
  .gallery-section > h2 { font-size: 14px; margin: 0 0 8px; }
</style>
</head>
<body><div id="app"></div><script type="module" src="/gallery-app.js"></script></body>
</html>`;

/**
 * `/` serves the page without a Content-Security-Policy (so the XSS suite proves the renderer,
 * not the CSP, is safe); `/csp` serves it under a strict one (no inline script, no eval).
 */
export async function startGalleryServer(): Promise<GalleryServer> {
  const outdir = await mkdtemp(join(tmpdir(), 'a2ui-gallery-'));
  await build({
    entryPoints: [join(here, 'gallery-app.tsx')],
    bundle: true,
    format: 'esm',
    outdir,
    conditions: ['@a2ui-ts/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    target: 'es2022',
    logLevel: 'silent',
  });
  const files: Record<string, { type: string; body: Buffer }> = {
    '/gallery-app.js': {
      type: 'text/javascript',
      body: await readFile(join(outdir, 'gallery-app.js')),
    },
    '/gallery-app.css': { type: 'text/css', body: await readFile(join(outdir, 'gallery-app.css')) },
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = files[path];
    if (file) {
      response.writeHead(200, { 'content-type': file.type });
      response.end(file.body);
      return;
    }
    if (path === '/' || path === '/csp') {
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
      if (path === '/csp') {
        headers['content-security-policy'] =
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; media-src 'self' https:";
      }
      response.writeHead(200, headers);
      response.end(PAGE);
      return;
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(outdir, { recursive: true, force: true });
    },
  };
}
