/**
 * `@a2ui-ts/transport-a2a/node`: serves the A2A app (usually from `createA2aServer`) with
 * `@hono/node-server`. Kept apart from the main entry so that the server binding itself stays
 * Web-standard and runs on any runtime.
 *
 * @module
 */

import type { Server } from 'node:http';
import {
  type FetchApp,
  type HttpListener,
  type ListenOptions,
  serveFetchApp,
} from '@a2ui-ts/core/host';
import { createAdaptorServer } from '@hono/node-server';

/** Options of {@link serveA2a}: `port` (0 picks a free one) and `hostname` ('127.0.0.1'). */
export type ServeA2aOptions = ListenOptions;

/**
 * A listening A2A server: `url` (`http://<hostname>:<port>`, without a trailing slash: the agent's
 * base URL when mounted at `/`), `port`, the Node HTTP `server`, and `close()`, which closes the
 * app's sessions (when it has `close()`), stops listening and ends every socket.
 */
export type A2aNodeServer = HttpListener<Server>;

/** Anything with a Web-standard `fetch` handler, such as a Hono app. */
export type A2aFetchApp = FetchApp;

/**
 * Listens with `app` on Node.
 *
 * @param app - an `createA2aServer(...)` app, or a parent app that mounts it
 * @param options - `{ port, hostname }`, defaults `0` and `'127.0.0.1'`
 * @returns the server and its URL, once listening
 *
 * @example
 * ```ts
 * const { url } = await serveA2a(createA2aServer({ agent }), { port: 10002 });
 * console.log(`agent card: ${url}/.well-known/agent-card.json`);
 * ```
 */
export async function serveA2a(
  app: A2aFetchApp,
  options: ServeA2aOptions = {},
): Promise<A2aNodeServer> {
  return serveFetchApp(app, (adaptor) => createAdaptorServer(adaptor) as Server, options);
}
