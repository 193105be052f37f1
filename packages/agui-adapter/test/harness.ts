/**
 * Starts a real AG-UI server on 127.0.0.1 port 0 for tests, optionally behind a parent app with
 * fault-injection middleware, and collects what the server reports.
 */
import type { Server } from 'node:http';
import type { A2uiAgent } from '@a2ui-ts/core';
import { type FetchApp, type HttpListener, serveFetchApp } from '@a2ui-ts/core/host';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach } from 'vitest';
import {
  type AgUiServer,
  type AgUiServerOptions,
  createAgUiServer,
} from '../src/server/create-agui-server.js';

export interface TestServer {
  readonly app: AgUiServer;
  readonly node: HttpListener<Server>;
  /** The endpoint: an `HttpAgent`'s `url`. */
  readonly url: string;
  /** Errors agent hooks threw. */
  readonly agentErrors: unknown[];
  close(): Promise<void>;
}

/** Fast redelivery: tests must not wait a second per refusal. */
export const FAST_RECONNECT = { initialDelayMs: 10, maxDelayMs: 40, minRetryMs: 5 } as const;

/** Serves `app` on 127.0.0.1, port 0; closing closes the app first, then every socket. */
export function listen(app: FetchApp): Promise<HttpListener<Server>> {
  return serveFetchApp(app, (adaptor) => createAdaptorServer(adaptor) as Server);
}

export async function startTestServer(
  options: Omit<AgUiServerOptions, 'agent'> & {
    agent: A2uiAgent;
    /** Installs middleware in front of the endpoint (fault injection). */
    configure?: (parent: Hono) => void;
  },
): Promise<TestServer> {
  const { configure, ...serverOptions } = options;
  const agentErrors: unknown[] = [];
  const app = createAgUiServer({
    onAgentError: (error) => agentErrors.push(error),
    ...serverOptions,
  });
  const parent = new Hono();
  configure?.(parent);
  parent.route('/agent', app);
  const node = await listen({ fetch: parent.fetch, close: () => app.close() });
  return {
    app,
    node,
    url: `${node.url}/agent`,
    agentErrors,
    close: () => node.close(),
  };
}

/**
 * A `serve(options)` for a test file: each server it starts is closed after the test. Call it at
 * the top of the file (it registers an `afterEach`).
 */
export function useTestServers(): (
  options: Parameters<typeof startTestServer>[0],
) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return async (options) => {
    const server = await startTestServer(options);
    servers.push(server);
    return server;
  };
}
