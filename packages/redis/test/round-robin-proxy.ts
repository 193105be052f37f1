/**
 * A load balancer without sticky sessions, for tests: an HTTP proxy on 127.0.0.1 port 0 that
 * sends each request to the next of its targets in turn (event streams included, piped as they
 * come).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running proxy. */
export interface RoundRobinProxy {
  readonly url: string;
  readonly port: number;
  /** Requests sent to each target so far. */
  readonly counts: readonly number[];
  /** Takes target `index` out of the rotation (a health check found it dead) or back in. */
  setEnabled(index: number, enabled: boolean): void;
  close(): Promise<void>;
}

/** Starts a proxy in front of `targets` (`http://127.0.0.1:<port>` URLs). */
export async function startRoundRobinProxy(targets: readonly string[]): Promise<RoundRobinProxy> {
  const enabled = targets.map(() => true);
  const counts = targets.map(() => 0);
  let next = 0;
  const pick = (): number => {
    for (let tries = 0; tries < targets.length; tries++) {
      const index = next;
      next = (next + 1) % targets.length;
      if (enabled[index]) return index;
    }
    return -1;
  };
  const server: Server = createServer((incoming, outgoing) => {
    const index = pick();
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    setEnabled(index, on) {
      enabled[index] = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
