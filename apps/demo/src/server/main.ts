/**
 * `pnpm start`: serves the built client and every agent on every transport, on `PORT` (default
 * 5173) of `HOST` (default 127.0.0.1). With `A2UI_REDIS_URL`, this node shares its connections
 * with every other node on that Redis (see `cluster.ts`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createJsonLogger } from './json-logger.js';
import { startDemoServer } from './start-demo-server.js';

const clientDir = fileURLToPath(new URL('../../dist/client/', import.meta.url));
const logger = createJsonLogger();
if (!existsSync(`${clientDir}index.html`)) {
  logger('server.warning', {
    message: 'The client is not built; run "pnpm --filter @a2ui-ts/demo build" first.',
    clientDir,
  });
}
const port = Number(process.env.PORT ?? 5173);
const server = await startDemoServer({
  port,
  hostname: process.env.HOST ?? '127.0.0.1',
  clientDir,
  logger,
  redisUrl: process.env.A2UI_REDIS_URL || undefined,
});
const openUrl = server.url.replace('127.0.0.1', 'localhost');
logger('server.listening', { url: openUrl, port: server.port });
process.stdout.write(`\n  A2UI demo running — open ${openUrl}\n\n`);

const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
