/**
 * Serves an app on 127.0.0.1, port 0 (or `port`), with `@hono/node-server`, for tests and the
 * benchmark;
 * closing closes the app first (waiting polls answer `closed`), then every socket.
 */
import type { Server } from 'node:http';
import { type FetchApp, type HttpListener, serveFetchApp } from '@a2ui-ts/core/host';
import { createAdaptorServer } from '@hono/node-server';

/** A listening server: `url` is `http://127.0.0.1:<port>`. */
export type Listening = HttpListener<Server>;

export function listen(app: FetchApp, port = 0): Promise<Listening> {
  return serveFetchApp(app, (adaptor) => createAdaptorServer(adaptor) as Server, { port });
}
