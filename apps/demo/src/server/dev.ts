/**
 * `pnpm dev`: the agents and transports on a free port, and Vite's dev server (with hot reload)
 * on `PORT` (default 5173) proxying `/api` and `/a2ui` to them. One process, one URL.
 */
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { A2UI_BASE_PATH } from './create-demo-app.js';
import { createJsonLogger } from './json-logger.js';
import { startDemoServer } from './start-demo-server.js';

const logger = createJsonLogger();
const api = await startDemoServer({ port: 0, logger });
const vite = await createServer({
  configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
  server: {
    port: Number(process.env.PORT ?? 5173),
    host: process.env.HOST ?? '127.0.0.1',
    strictPort: true,
    proxy: {
      '/api': api.url,
      // `ws` for the WebSocket transport; the Host kept, so the server's Origin check sees one origin.
      [A2UI_BASE_PATH]: { target: api.url, ws: true },
    },
  },
});
await vite.listen();
const url = vite.resolvedUrls?.local[0] ?? `http://localhost:${vite.config.server.port}/`;
logger('server.listening', { url, api: api.url, mode: 'dev' });
process.stdout.write(
  `\n  A2UI demo (dev) running — open ${url.replace('127.0.0.1', 'localhost')}\n\n`,
);

const stop = () => {
  Promise.all([vite.close(), api.close()]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
