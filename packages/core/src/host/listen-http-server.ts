/**
 * Listening on a Node HTTP server, as every binding's Node helper does it (`serveSseJsonRpc`,
 * `serveA2a`, `serveWs`, the test servers): listen on `hostname:port`, report the URL, and close in
 * order — stop accepting, let the app end its connections (so its streams write their last
 * events), then end every socket that is left.
 *
 * Runtime-neutral like the rest of core: the server comes from the caller (Node's
 * `http.createServer`, `@hono/node-server`'s `createAdaptorServer`) and is used only through the
 * methods of Node's `http.Server` that {@link NodeHttpServerLike} names; core imports nothing
 * from `node:` and depends on no adapter.
 */

import {
  applyHttpTimeouts,
  type HttpTimeoutOptions,
  type HttpTimeoutTarget,
} from './http-timeouts.js';
import { yieldToIo } from './yield-to-io.js';

/** What {@link listenHttpServer} uses of a Node `http.Server` (which has all of it). */
export interface NodeHttpServerLike extends HttpTimeoutTarget {
  listen(port: number, hostname: string, backlog: number, listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  address(): { readonly port: number } | string | null;
  close(callback: () => void): unknown;
  closeAllConnections(): void;
}

/**
 * Where to listen, and how long a client may take to send a request (see
 * {@link HttpTimeoutOptions}: headers 10 s, whole request 30 s, idle keep-alive 5 s, checked every
 * second — a slowloris client is cut).
 */
export interface ListenOptions extends HttpTimeoutOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  hostname?: string;
  /**
   * Most connections the kernel completes and holds until the server accepts them (the operating
   * system lowers it to its own cap, `net.core.somaxconn` on Linux). Node's own default, 511, is
   * too few for a thousand long-polling clients whose polls reconnect at once on a busy event
   * loop: the kernel drops the SYNs beyond it, and their clients retry after 1, 3, 7, 15 s… —
   * long enough for their connections' grace periods to run out.
   * @default 4096
   */
  backlog?: number;
}

/** Defaults of {@link ListenOptions}, in one place. */
export const LISTEN_DEFAULTS = { port: 0, hostname: '127.0.0.1', backlog: 4_096 } as const;

/** A listening server. */
export interface HttpListener<S> {
  /** `<scheme>://<hostname>:<port>`, without a trailing slash (an IPv6 hostname in brackets). */
  readonly url: string;
  readonly port: number;
  /** The server, as the caller created it. */
  readonly server: S;
  /**
   * Stops listening, runs the `beforeCloseSockets` step (the app closes its connections), then
   * ends every socket left. Called again, it returns the same promise.
   */
  close(): Promise<void>;
}

/** Options of {@link listenHttpServer}. */
export interface ListenHttpServerOptions extends ListenOptions {
  /** The scheme of the listener's `url`. @default 'http' */
  scheme?: string;
  /**
   * Runs on `close()` once the server stopped accepting connections and before the sockets left
   * are ended: the app closes its own (its streams write their `close` event).
   */
  beforeCloseSockets?: () => Promise<void> | void;
}

/**
 * Sets the request timeouts of `server` ({@link applyHttpTimeouts}), listens with it and resolves
 * once it listens.
 *
 * @param server - a Node `http.Server` (or one with the same API) that is not listening yet
 * @param options - `port`, `hostname`, `backlog` (defaults {@link LISTEN_DEFAULTS}), the request
 *   timeouts (defaults `HTTP_TIMEOUT_DEFAULTS`), `scheme`, `beforeCloseSockets`
 * @throws TypeError for a timeout out of range (see {@link applyHttpTimeouts})
 * @returns the URL, the port, the server and `close()`
 * @throws the server's `error` (e.g. `EADDRINUSE`) when it cannot listen
 *
 * @example
 * ```ts
 * const listener = await listenHttpServer(createServer(handler), { port: 8787, scheme: 'ws',
 *   beforeCloseSockets: () => a2ui.close() });
 * console.log(listener.url); // ws://127.0.0.1:8787
 * ```
 */
export async function listenHttpServer<S extends NodeHttpServerLike>(
  server: S,
  options: ListenHttpServerOptions = {},
): Promise<HttpListener<S>> {
  const hostname = options.hostname ?? LISTEN_DEFAULTS.hostname;
  applyHttpTimeouts(server, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const backlog = options.backlog ?? LISTEN_DEFAULTS.backlog;
    server.listen(options.port ?? LISTEN_DEFAULTS.port, hostname, backlog, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : Number.NaN;
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  let closing: Promise<void> | undefined;
  return {
    url: `${options.scheme ?? 'http'}://${host}:${port}`,
    port,
    server,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await options.beforeCloseSockets?.();
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

/** Anything with a Web-standard `fetch` handler, such as a Hono app; `close()` ends its connections. */
export interface FetchApp {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
  close?(): Promise<void> | void;
}

/**
 * Creates a Node server for a fetch handler: `@hono/node-server`'s `createAdaptorServer`, which
 * the caller passes in (core depends on no adapter).
 */
export type CreateAdaptorServer<S> = (options: {
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  hostname: string;
}) => S;

/**
 * Serves a fetch app on Node: the adapter's server for `app`, listening as
 * {@link listenHttpServer} does. Closing closes the app (`app.close()`), gives its streams one
 * turn of the event loop to write their last events, and then ends every socket.
 *
 * @param app - a Hono app, or anything with `fetch` (and optionally `close`)
 * @param createAdaptorServer - `(options) => createAdaptorServer(options) as Server` with
 *   `createAdaptorServer` from `@hono/node-server`
 * @param options - `port`, `hostname`, `backlog` (defaults {@link LISTEN_DEFAULTS}) and the request
 *   timeouts (see {@link ListenOptions})
 * @returns the listener, once listening
 *
 * @example
 * ```ts
 * import { createAdaptorServer } from '@hono/node-server';
 * const listener = await serveFetchApp(app, (o) => createAdaptorServer(o) as Server, { port: 8787 });
 * ```
 */
export function serveFetchApp<S extends NodeHttpServerLike>(
  app: FetchApp,
  createAdaptorServer: CreateAdaptorServer<S>,
  options: ListenOptions = {},
): Promise<HttpListener<S>> {
  const hostname = options.hostname ?? LISTEN_DEFAULTS.hostname;
  const server = createAdaptorServer({
    fetch: (request, env) => app.fetch(request, env),
    hostname,
  });
  return listenHttpServer(server, {
    ...options,
    hostname,
    async beforeCloseSockets() {
      await app.close?.();
      // Let the streams write their last events before the sockets go.
      await yieldToIo();
    },
  });
}
