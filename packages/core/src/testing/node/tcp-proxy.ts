/**
 * A loopback TCP proxy for fault injection (Node only): `drop()` resets every connection through
 * it (RST, no polite close), as a broken network would; `setBlackhole(true)` silently discards
 * every byte in both directions while the sockets stay open (no FIN, no RST), as a laptop that
 * slept or a dead NAT entry does; `setStalled(true)` stops forwarding without losing a byte (a
 * congested or stalled path: everything arrives once it is lifted); `setRefusing(true)` resets new
 * connections; `setTarget()` points it at a restarted server.
 */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface TcpProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Connections currently open through the proxy. */
  readonly connections: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Resets every open connection (both sides). */
  drop(): void;
  /** Refuses (resets) new connections while true. */
  setRefusing(refusing: boolean): void;
  /** While true, bytes in both directions are discarded and nothing is closed. */
  setBlackhole(blackhole: boolean): void;
  /**
   * While true, nothing is forwarded in either direction and nothing is lost or closed: bytes wait
   * (in the sockets' buffers, and TCP flow control holds back the senders) until it is lifted.
   */
  setStalled(stalled: boolean): void;
  /** Forwards new connections to another port. */
  setTarget(port: number): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1, port 0, forwarding to `targetPort` on 127.0.0.1.
 *
 * @example
 * ```ts
 * const proxy = await createTcpProxy(server.port);
 * const transport = connectSseJsonRpc({ url: proxy.url });
 * proxy.drop(); // the client must resume
 * ```
 */
export async function createTcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort;
  let refusing = false;
  let blackhole = false;
  let stalled = false;
  let accepted = 0;
  const pairs = new Set<[Socket, Socket]>();
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (blackhole) return;
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => {
          if (!stalled) from.resume();
        });
      }
    });
    from.on('end', () => {
      if (!blackhole) to.end();
    });
  };
  const server = createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    accepted++;
    const upstream = connect(target, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    if (stalled) {
      client.pause();
      upstream.pause();
    }
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const drop = () => {
    for (const [client, upstream] of [...pairs]) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    pairs.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return pairs.size;
    },
    get accepted() {
      return accepted;
    },
    drop,
    setRefusing(value) {
      refusing = value;
    },
    setBlackhole(value) {
      blackhole = value;
    },
    setStalled(value) {
      stalled = value;
      for (const pair of pairs)
        for (const socket of pair) {
          if (value) socket.pause();
          else socket.resume();
        }
    },
    setTarget(next) {
      target = next;
    },
    async close() {
      drop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
