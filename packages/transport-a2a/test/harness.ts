/**
 * Starts a real A2A server on 127.0.0.1 port 0 for tests, with one fault-injection proxy per
 * client transport.
 */
import type { A2uiAgent } from '@a2ui-ts/core';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import { type A2aClientOptions, type A2aTransport, connectA2a } from '../src/client/connect-a2a.js';
import { type A2aNodeServer, serveA2a } from '../src/node.js';
import {
  type A2aServer,
  type A2aServerOptions,
  createA2aServer,
} from '../src/server/create-a2a-server.js';

export interface TestServer {
  readonly app: A2aServer;
  readonly node: A2aNodeServer;
  /** A transport straight to the server. */
  connect(options?: Partial<A2aClientOptions>): A2aTransport;
  /** A transport through its own proxy, so its link can be broken. */
  connectThroughProxy(
    options?: Partial<A2aClientOptions>,
  ): Promise<{ transport: A2aTransport; proxy: TcpProxy }>;
  close(): Promise<void>;
}

/** Fast reconnects: tests must not wait a second per drop. */
export const FAST_RECONNECT = { initialDelayMs: 5, maxDelayMs: 50, minRetryMs: 5 } as const;

export async function startTestServer(
  options: A2aServerOptions & {
    agent: A2uiAgent;
    /** Installs middleware in front of the binding's routes (fault injection). */
    configure?: (parent: Hono) => void;
  },
): Promise<TestServer> {
  const { configure, ...serverOptions } = options;
  const app = createA2aServer(serverOptions);
  const parent = new Hono();
  configure?.(parent);
  parent.route('/', app);
  const node = await serveA2a({ fetch: parent.fetch, close: () => app.close() });
  const proxies = new Set<TcpProxy>();
  return {
    app,
    node,
    connect: (extra = {}) => connectA2a({ url: node.url, reconnect: FAST_RECONNECT, ...extra }),
    async connectThroughProxy(extra = {}) {
      const proxy = await createTcpProxy(node.port);
      proxies.add(proxy);
      return {
        transport: connectA2a({ url: proxy.url, reconnect: FAST_RECONNECT, ...extra }),
        proxy,
      };
    },
    async close() {
      for (const proxy of proxies) await proxy.close();
      await node.close();
    },
  };
}
