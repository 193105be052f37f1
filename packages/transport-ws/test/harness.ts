/**
 * Starts a real WebSocket server on 127.0.0.1 port 0 for tests, with one fault-injection proxy per
 * client transport when asked.
 */
import type { A2uiAgent } from '@a2ui-ts/core';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { WebSocket } from 'ws';
import { connectWs, type WsClientOptions, type WsTransport } from '../src/client/connect-ws.js';
import { serveWs, type WsNodeServer } from '../src/server/attach-ws-server.js';
import {
  createWsServer,
  type WsServer,
  type WsServerOptions,
} from '../src/server/create-ws-server.js';

export interface TestServer {
  readonly a2ui: WsServer;
  readonly node: WsNodeServer;
  /** The client's base URL (`ws://127.0.0.1:<port>`): sockets open at `{url}/ws`. */
  readonly url: string;
  /** A transport straight to the server. */
  connect(options?: Partial<WsClientOptions>): WsTransport;
  /** A transport through its own proxy, so its link can be broken. */
  connectThroughProxy(
    options?: Partial<WsClientOptions>,
  ): Promise<{ transport: WsTransport; proxy: TcpProxy }>;
  close(): Promise<void>;
}

/** Fast reconnects: tests must not wait a second per drop. */
export const FAST_RECONNECT = { initialDelayMs: 5, maxDelayMs: 50, minRetryMs: 5 } as const;

export async function startTestServer(
  options: WsServerOptions & { agent: A2uiAgent },
): Promise<TestServer> {
  const a2ui = createWsServer(options);
  const node = await serveWs(a2ui);
  const proxies = new Set<TcpProxy>();
  const client = (url: string, extra: Partial<WsClientOptions>) =>
    connectWs({ url, WebSocket, reconnect: FAST_RECONNECT, ...extra });
  return {
    a2ui,
    node,
    url: node.url,
    connect: (extra = {}) => client(node.url, extra),
    async connectThroughProxy(extra = {}) {
      const proxy = await createTcpProxy(node.port);
      proxies.add(proxy);
      return { transport: client(proxy.url, extra), proxy };
    },
    async close() {
      await node.close();
      for (const proxy of proxies) await proxy.close();
    },
  };
}
