/**
 * `@a2ui-ts/transport-a2a/node`: serves the A2A app (usually from `createA2aServer`) with
 * `@hono/node-server`. Kept apart from the main entry so that the server binding itself stays
 * Web-standard and runs on any runtime.
 *
 * @module
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';

/** Options of {@link serveA2a}. */
export interface ServeA2aOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  hostname?: string;
}

/** A listening A2A server. */
export interface A2aNodeServer {
  /** `http://<hostname>:<port>`, without a trailing slash: the agent's base URL when mounted at `/`. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Closes the app's sessions (when it has `close()`), stops listening and ends every socket. */
  close(): Promise<void>;
}

/** Anything with a Web-standard `fetch` handler, such as a Hono app. */
export interface A2aFetchApp {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  close?(): Promise<void> | void;
}

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
        // Let the streams write their last events before the sockets go.
        await new Promise((resolve) => setImmediate(resolve));
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
