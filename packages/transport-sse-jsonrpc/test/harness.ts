/**
 * Starts a real SSE + JSON-RPC server on 127.0.0.1 port 0 for tests, with one fault-injection
 * proxy per client transport.
 */
import type { A2uiAgent } from '@a2ui-ts/core';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { Hono } from 'hono';
import {
  connectSseJsonRpc,
  type SseJsonRpcClientOptions,
  type SseJsonRpcTransport,
} from '../src/client/connect-sse-json-rpc.js';
import { type SseJsonRpcNodeServer, serveSseJsonRpc } from '../src/node.js';
import {
  createSseJsonRpcServer,
  type SseJsonRpcServer,
  type SseJsonRpcServerOptions,
} from '../src/server/create-sse-json-rpc-server.js';

export interface TestServer {
  readonly app: SseJsonRpcServer;
  readonly node: SseJsonRpcNodeServer;
  /** A transport straight to the server. */
  connect(options?: Partial<SseJsonRpcClientOptions>): SseJsonRpcTransport;
  /** A transport through its own proxy, so its link can be broken. */
  connectThroughProxy(
    options?: Partial<SseJsonRpcClientOptions>,
  ): Promise<{ transport: SseJsonRpcTransport; proxy: TcpProxy }>;
  close(): Promise<void>;
}

/** Fast reconnects: tests must not wait a second per drop. */
export const FAST_RECONNECT = { initialDelayMs: 5, maxDelayMs: 50, minRetryMs: 5 } as const;

export async function startTestServer(
  options: SseJsonRpcServerOptions & {
    agent: A2uiAgent;
    /** Installs middleware in front of the binding's routes (fault injection). */
    configure?: (parent: Hono) => void;
  },
): Promise<TestServer> {
  const { configure, ...serverOptions } = options;
  const app = createSseJsonRpcServer({ retryMs: 5, ...serverOptions });
  const parent = new Hono();
  configure?.(parent);
  parent.route('/', app);
  const node = await serveSseJsonRpc({ fetch: parent.fetch, close: () => app.close() });
  const proxies = new Set<TcpProxy>();
  return {
    app,
    node,
    connect: (extra = {}) =>
      connectSseJsonRpc({ url: node.url, reconnect: FAST_RECONNECT, ...extra }),
    async connectThroughProxy(extra = {}) {
      const proxy = await createTcpProxy(node.port);
      proxies.add(proxy);
      return {
        transport: connectSseJsonRpc({ url: proxy.url, reconnect: FAST_RECONNECT, ...extra }),
        proxy,
      };
    },
    async close() {
      for (const proxy of proxies) await proxy.close();
      await node.close();
    },
  };
}
