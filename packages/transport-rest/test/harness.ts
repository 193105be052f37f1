/**
 * Starts a real REST server on 127.0.0.1 port 0 for tests, with one fault-injection proxy per
 * client transport when asked.
 */
import type { A2uiAgent } from '@a2ui-ts/core';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import {
  connectRest,
  type RestClientOptions,
  type RestTransport,
} from '../src/client/connect-rest.js';
import {
  createRestServer,
  type RestServer,
  type RestServerOptions,
} from '../src/server/create-rest-server.js';
import { type Listening, listen } from './listen.js';

/** A parsed answer, loosely typed for assertions (its text when it is not JSON). */
// biome-ignore lint/suspicious/noExplicitAny: tests read any field of any answer.
export type Answer = any;

export interface TestServer {
  readonly app: RestServer;
  readonly node: Listening;
  /** The server's base URL. */
  readonly url: string;
  /** A transport straight to the server. */
  connect(options?: Partial<RestClientOptions>): RestTransport;
  /** A transport through its own proxy, so its link can be broken. */
  connectThroughProxy(
    options?: Partial<RestClientOptions>,
  ): Promise<{ transport: RestTransport; proxy: TcpProxy }>;
  /** A JSON POST straight to the server: its status and parsed body. */
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Answer; headers: Headers }>;
  /** A GET straight to the server. */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: Answer }>;
  close(): Promise<void>;
}

/** Fast reconnects: tests must not wait a second per drop. */
export const FAST_RECONNECT = { initialDelayMs: 5, maxDelayMs: 50, minRetryMs: 5 } as const;

export async function startTestServer(
  options: RestServerOptions & {
    agent: A2uiAgent;
    /** Installs middleware in front of the binding's routes (fault injection). */
    configure?: (parent: Hono) => void;
  },
): Promise<TestServer> {
  const { configure, ...serverOptions } = options;
  const app = createRestServer(serverOptions);
  const parent = new Hono();
  configure?.(parent);
  parent.route('/', app);
  const node = await listen({ fetch: parent.fetch, close: () => app.close() });
  const proxies = new Set<TcpProxy>();
  const transports = new Set<RestTransport>();
  const track = (transport: RestTransport) => {
    transports.add(transport);
    return transport;
  };
  return {
    app,
    node,
    url: node.url,
    connect: (extra = {}) =>
      track(connectRest({ url: node.url, reconnect: FAST_RECONNECT, ...extra })),
    async connectThroughProxy(extra = {}) {
      const proxy = await createTcpProxy(node.port);
      proxies.add(proxy);
      return {
        transport: track(connectRest({ url: proxy.url, reconnect: FAST_RECONNECT, ...extra })),
        proxy,
      };
    },
    async post(path, body, headers = {}) {
      const response = await fetch(`${node.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: parseOrText(text), headers: response.headers };
    },
    async get(path, headers = {}) {
      const response = await fetch(`${node.url}${path}`, { headers });
      return { status: response.status, body: parseOrText(await response.text()) };
    },
    async close() {
      await Promise.all([...transports].map((transport) => transport.close().catch(() => {})));
      for (const proxy of proxies) await proxy.close();
      await node.close();
    },
  };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
