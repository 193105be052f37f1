/**
 * One TCP fault proxy per client transport, for a conformance harness (Node only): the
 * transports a harness creates connect through their own {@link createTcpProxy}, so the suite's
 * `dropLink`, `severLink` and `restoreLink` break, cut and mend one client's link alone.
 */
import type { ClientTransport } from '../../transport/client-transport.js';
import { createTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** The links of a harness's transports, each through a proxy of its own. */
export interface ProxiedLinks {
  /**
   * A new proxy to the server, and the transport `connect` makes through it (`url` is the
   * proxy's, `http://127.0.0.1:<port>`).
   */
  open<T extends ClientTransport>(connect: (url: string) => T): Promise<T>;
  /** The proxy of a transport this created. */
  proxyOf(transport: ClientTransport): TcpProxy | undefined;
  /** Resets the transport's link (it reconnects by itself). */
  dropLink(transport: ClientTransport): void;
  /** Resets the link and refuses reconnects until {@link restoreLink}. */
  severLink(transport: ClientTransport): void;
  /** Lets a severed transport reconnect. */
  restoreLink(transport: ClientTransport): void;
  /** Closes every transport (errors ignored), then `closeServer()`, then every proxy. */
  close(closeServer: () => Promise<void>): Promise<void>;
}

/**
 * Creates {@link ProxiedLinks} to the server on `targetPort` (127.0.0.1).
 *
 * @example
 * ```ts
 * const links = createProxiedLinks(server.port);
 * return {
 *   createTransport: () => links.open((url) => connectSseJsonRpc({ url })),
 *   dropLink: links.dropLink, severLink: links.severLink, restoreLink: links.restoreLink,
 *   close: () => links.close(() => server.close()),
 * };
 * ```
 */
export function createProxiedLinks(targetPort: number): ProxiedLinks {
  const proxies = new Map<ClientTransport, TcpProxy>();
  return {
    async open(connect) {
      const proxy = await createTcpProxy(targetPort);
      const transport = connect(proxy.url);
      proxies.set(transport, proxy);
      return transport;
    },
    proxyOf: (transport) => proxies.get(transport),
    dropLink: (transport) => proxies.get(transport)?.drop(),
    severLink(transport) {
      const proxy = proxies.get(transport)!;
      proxy.setRefusing(true);
      proxy.drop();
    },
    restoreLink: (transport) => proxies.get(transport)?.setRefusing(false),
    async close(closeServer) {
      for (const transport of proxies.keys()) await transport.close().catch(() => {});
      await closeServer();
      for (const proxy of proxies.values()) await proxy.close();
    },
  };
}
