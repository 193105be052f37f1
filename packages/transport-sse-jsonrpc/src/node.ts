/**
 * `@a2ui-ts/transport-sse-jsonrpc/node`: serves a Hono app (usually from
 * `createSseJsonRpcServer`) with `@hono/node-server`. Kept apart from the main entry so that the
 * server binding itself stays Web-standard and runs on any runtime.
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

export type { FetchApp } from '@a2ui-ts/core/host';

/** Options of {@link serveSseJsonRpc}: `port` (0 picks a free one) and `hostname` ('127.0.0.1'). */
export type ServeSseJsonRpcOptions = ListenOptions;

/**
 * A listening server: `url` (`http://<hostname>:<port>`, without a trailing slash), `port`, the
 * Node HTTP `server`, and `close()`, which stops listening, closes the app's connections (when it
 * has `close()`, as the SSE + JSON-RPC app does: each stream writes its `close` event) and ends
 * every open socket.
 */
export type SseJsonRpcNodeServer = HttpListener<Server>;

/**
 * Listens with `app` on Node.
 *
 * @param app - a Hono app (e.g. `createSseJsonRpcServer(...)` or a parent app that mounts it)
 * @param options - `{ port, hostname }`, defaults `0` and `'127.0.0.1'`
 * @returns the server and its URL, once listening
 *
 * @example
 * ```ts
 * const { url, close } = await serveSseJsonRpc(createSseJsonRpcServer({ agent }), { port: 8787 });
 * console.log(`GET ${url}/sse`);
 * ```
 */
export async function serveSseJsonRpc(
  app: FetchApp,
  options: ServeSseJsonRpcOptions = {},
): Promise<SseJsonRpcNodeServer> {
  return serveFetchApp(app, (adaptor) => createAdaptorServer(adaptor) as Server, options);
}
