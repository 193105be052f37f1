/**
 * A load balancer without sticky sessions, for tests and local clusters: an HTTP proxy that sends
 * each request to the next of its targets in turn (event streams included, piped as they come),
 * and each upgrade (a WebSocket handshake) too, as a TCP tunnel. Routes that cannot run on any
 * node yet can be pinned (`affinity`), as a real balancer's path rule would.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/** A running proxy. */
export interface RoundRobinProxy {
  readonly url: string;
  readonly port: number;
  /** Requests sent to each target so far. */
  readonly counts: readonly number[];
  /** Takes target `index` out of the rotation (a health check found it dead) or back in. */
  setEnabled(index: number, enabled: boolean): void;
  /** Cuts every tunnelled (upgraded) connection, as a balancer that restarted would. */
  dropUpgrades(): void;
  close(): Promise<void>;
}

/** Options of {@link startRoundRobinProxy}. */
export interface RoundRobinProxyOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  hostname?: string;
  /**
   * The affinity key of a request from its path (with the query): requests with the same key go
   * to the same target — the first takes the next in turn, the others follow it while it is
   * enabled. `undefined` sends the request round robin.
   * @default every request round robin
   * @example (path) => path.match(/^\/a2ui\/[^/]+\/a2a\b/)?.[0] // one node per A2A mount
   */
  affinity?: (path: string) => string | undefined;
}

/**
 * Starts a proxy in front of `targets` (`http://host:port` URLs); a target that cannot be reached
 * answers 502.
 *
 * @example
 * ```ts
 * const balancer = await startRoundRobinProxy([nodeA.url, nodeB.url]);
 * connectSseJsonRpc({ url: balancer.url }); // its stream on one node, its first action on the other
 * ```
 */
export async function startRoundRobinProxy(
  targets: readonly string[],
  options: RoundRobinProxyOptions = {},
): Promise<RoundRobinProxy> {
  const enabled = targets.map(() => true);
  const counts = targets.map(() => 0);
  let next = 0;
  const pinned = new Map<string, number>();
  const nextInTurn = (): number => {
    for (let tries = 0; tries < targets.length; tries++) {
      const index = next;
      next = (next + 1) % targets.length;
      if (enabled[index]) return index;
    }
    return -1;
  };
  const pick = (path: string | undefined): number => {
    const key = path === undefined ? undefined : options.affinity?.(path);
    if (key === undefined) return nextInTurn();
    const held = pinned.get(key);
    if (held !== undefined && enabled[held]) return held;
    const index = nextInTurn();
    if (index >= 0) pinned.set(key, index);
    return index;
  };
  const server: Server = createServer((incoming, outgoing) => {
    const index = pick(incoming.url);
    if (index < 0) {
      outgoing.writeHead(502).end();
      return;
    }
    counts[index]!++;
    const target = new URL(targets[index]!);
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        outgoing.flushHeaders();
        response.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.destroy();
    });
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
  const hostname = options.hostname ?? '127.0.0.1';
  const tunnels = new Set<Socket>();
  server.on('upgrade', (incoming, client: Socket, head: Buffer) => {
    const index = pick(incoming.url);
    if (index < 0) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    counts[index]!++;
    const target = new URL(targets[index]!);
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2)
        lines.push(`${incoming.rawHeaders[i]}: ${incoming.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      tunnels.add(socket);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => {
        tunnels.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`,
    port,
    counts,
    setEnabled(index, on) {
      enabled[index] = on;
    },
    dropUpgrades() {
      for (const socket of tunnels) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of tunnels) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
