/**
 * Serves the built page and the agent: `GET /a2ui/sse` + `POST /a2ui/rpc`, everything else from
 * `dist/`.
 */

import { createSseJsonRpcServer } from '@a2ui-ts/transport-sse-jsonrpc';
import { type SseJsonRpcNodeServer, serveSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { greetingAgent } from './greeting-agent.js';

/** Options of {@link startQuickStartServer}. */
export interface QuickStartServerOptions {
  /** The built page (`vite build` output). */
  clientDir: string;
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
}

/** Starts the server on 127.0.0.1 and resolves once it listens. */
export function startQuickStartServer(
  options: QuickStartServerOptions,
): Promise<SseJsonRpcNodeServer> {
  const a2ui = createSseJsonRpcServer({ agent: greetingAgent });
  const app = new Hono().route('/a2ui', a2ui);
  app.use('/*', serveStatic({ root: options.clientDir }));
  return serveSseJsonRpc(
    { fetch: app.fetch, close: () => a2ui.close() },
    { port: options.port ?? 0 },
  );
}
