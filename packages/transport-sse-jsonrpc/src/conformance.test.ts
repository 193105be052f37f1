/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real server on 127.0.0.1,
 * port 0. Each client talks through its own TCP proxy, so `dropLink` resets its connections.
 */
import type { ClientTransport } from '@a2ui-ts/core';
import { describeTransportConformance } from '@a2ui-ts/core/testing';
import { FAST_RECONNECT, startTestServer } from '../test/harness.js';
import { createTcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import { connectSseJsonRpc } from './client/connect-sse-json-rpc.js';

describeTransportConformance('sse-jsonrpc', {
  async start(agent, { reconnectGraceMs }) {
    const server = await startTestServer({ agent, reconnectGraceMs });
    const proxies = new Map<ClientTransport, Promise<TcpProxy>>();
    return {
      createTransport() {
        // The suite wants a transport synchronously; its proxy starts listening in the meantime.
        const proxy = createTcpProxy(server.node.port);
        const transport = connectSseJsonRpc({
          url: 'http://proxy.invalid',
          reconnect: FAST_RECONNECT,
          fetch: async (input, init) => {
            const url = new URL(String(input));
            return fetch(`${(await proxy).url}${url.pathname}${url.search}`, init);
          },
        });
        proxies.set(transport, proxy);
        return transport;
      },
      async dropLink(transport) {
        (await proxies.get(transport))?.drop();
      },
      sessionCount: () => server.app.registry.size,
      async close() {
        for (const proxy of proxies.values()) await (await proxy).close();
        await server.close();
      },
    };
  },
});
