/**
 * A loopback TCP proxy for fault injection: `drop()` resets every connection through it (RST, no
 * polite close), as a broken network would; `setTarget()` points it at a restarted server.
 */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Connections currently open through the proxy. */
  readonly connections: number;
  /** Resets every open connection (both sides). */
  drop(): void;
  /** Refuses (resets) new connections while true. */
  setRefusing(refusing: boolean): void;
  /** Forwards new connections to another port. */
  setTarget(port: number): void;
  close(): Promise<void>;
}

export async function createTcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort;
  let refusing = false;
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
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
    get connections() {
      return pairs.size;
    },
    drop,
    setRefusing(value) {
      refusing = value;
    },
    setTarget(port) {
      target = port;
    },
    async close() {
      drop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
