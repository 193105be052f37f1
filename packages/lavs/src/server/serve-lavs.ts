/**
 * A LAVS service on Node: the HTTP app (`POST /`, `GET /manifest`) and the WebSocket endpoint on
 * one server and one URL, through core's `serveFetchApp` and `@hono/node-server`.
 */
import type { Server } from 'node:http';
import { type HttpListener, type ListenOptions, serveFetchApp } from '@a2ui-ts/core/host';
import { createAdaptorServer } from '@hono/node-server';
import type { LavsRuntime } from '../runtime/lavs-runtime.js';
import { attachLavsWebSocket, type LavsWebSocketOptions } from './attach-lavs-web-socket.js';
import { createLavsServer, type LavsServerOptions } from './create-lavs-server.js';

/** Options of {@link serveLavs}. */
export interface ServeLavsOptions
  extends ListenOptions,
    LavsServerOptions,
    Omit<LavsWebSocketOptions, 'server' | 'path'> {
  /** Also closes the runtime when the server closes. @default true */
  closeRuntime?: boolean;
}

/**
 * Serves `runtime` over HTTP and WebSocket on `http://<hostname>:<port>/` (`ws://` for sockets).
 *
 * @param runtime - from `createLavsRuntime`
 * @param options - `port` (0), `hostname` ('127.0.0.1') and the options of `createLavsServer`
 *   and `attachLavsWebSocket`
 * @returns the listener; `close()` ends sockets, the server and (by default) the runtime
 *
 * @example
 * ```ts
 * const server = await serveLavs(runtime, { port: 5555 });
 * console.log(`POST ${server.url}/`);
 * ```
 */
export async function serveLavs(
  runtime: LavsRuntime,
  options: ServeLavsOptions = {},
): Promise<HttpListener<Server>> {
  const app = createLavsServer(runtime, options);
  let socket: { close(): Promise<void> } | undefined;
  const listener = await serveFetchApp(
    {
      fetch: app.fetch,
      async close() {
        await socket?.close();
        if (options.closeRuntime !== false) await runtime.close();
      },
    },
    (adaptor) => createAdaptorServer(adaptor) as Server,
    options,
  );
  socket = attachLavsWebSocket(runtime, { ...options, server: listener.server, path: '/' });
  return listener;
}
