/**
 * `pnpm start`: builds the page, then serves it and the agent on PORT (default 5174).
 */
import { relative } from 'node:path';
import { CLIENT_OUT_DIR } from '../vite.config.js';
import { startQuickStartServer } from './start-server.js';

const server = await startQuickStartServer({
  clientDir: relative(process.cwd(), CLIENT_OUT_DIR) || '.',
  port: Number(process.env.PORT ?? 5174),
});
console.log(`A2UI quick start on ${server.url}`);
