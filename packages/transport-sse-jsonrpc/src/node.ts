/**
 * `@a2ui-ts/transport-sse-jsonrpc/node`: serves a Hono app (usually from
 * `createSseJsonRpcServer`) with `@hono/node-server`. Kept apart from the main entry so that the
 * server binding itself stays Web-standard and runs on any runtime.
 *
 * @module
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';

/** Options of {@link serveSseJsonRpc}. */
export interface ServeSseJsonRpcOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  hostname?: string;
}

/** A listening server. */
export interface SseJsonRpcNodeServer {
  /** `http://<hostname>:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** The Node HTTP server. */
  readonly server: Server;
  /**
   * Stops listening, closes the app's connections (when it has `close()`, as the SSE + JSON-RPC
   * app does) and ends every open socket.
   */
  close(): Promise<void>;
}

/** Anything with a Web-standard `fetch` handler, such as a Hono app. */
export interface FetchApp {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  close?(): Promise<void> | void;
}

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
  const hostname = options.hostname ?? '127.0.0.1';
  const server = createAdaptorServer({
    fetch: (request, env) => app.fetch(request, env),
    hostname,
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await app.close?.();
        // Let the streams write their `close` event before the sockets go.
        await new Promise((resolve) => setImmediate(resolve));
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
