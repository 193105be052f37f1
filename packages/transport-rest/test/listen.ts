/**
 * Serves an app on 127.0.0.1, port 0, with `@hono/node-server`, for tests and the benchmark;
 * closing closes the app first (waiting polls answer `closed`), then every socket.
 */
import { serve } from '@hono/node-server';

export interface Listening {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export function listen(app: {
  fetch: (request: Request) => Response | Promise<Response>;
  close?: () => Promise<void>;
}): Promise<Listening> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, ({ port }) =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        async close() {
          const stopped = new Promise((done) => server.close(done));
          await app.close?.();
          // Let the last answers be written before the sockets go.
          await new Promise((done) => setImmediate(done));
          if ('closeAllConnections' in server) server.closeAllConnections();
          await stopped;
        },
      }),
    );
  });
}
