/**
 * Slowloris clients for tests: raw TCP sockets that each send a request header one byte at a
 * time and never finish it, holding a server socket for as long as the server lets them. A
 * server that bounds how long a request's headers may take closes them; one that does not keeps
 * them open until the test's bound.
 */
import { connect, type Socket } from 'node:net';

/** Options of {@link openSlowHeaderClients}. */
export interface SlowHeaderClientsOptions {
  /** How many sockets. @default 3 */
  sockets?: number;
  /** Pause between two bytes of a socket's header, in milliseconds. @default 100 */
  byteIntervalMs?: number;
  /** Where to connect. @default '127.0.0.1' */
  hostname?: string;
}

/** What the slow clients saw. */
export interface SlowHeaderClients {
  /** Settles once every socket was closed by the server, with what each received. */
  readonly closedByServer: Promise<string[]>;
  /**
   * What each socket received, once the server closed them all; `undefined` when some are still
   * open after `boundMs` (a generous bound: the test's patience, not a measurement).
   */
  closedWithin(boundMs: number): Promise<string[] | undefined>;
  /** Sockets the server has not closed yet. */
  readonly open: number;
  /** Destroys the sockets left (call it in the test's cleanup). */
  destroy(): void;
}

/**
 * Opens `sockets` connections to `port`, each trickling an endless request header (a `GET` with
 * one ever-growing header line, one byte per `byteIntervalMs`).
 *
 * @example
 * ```ts
 * const slow = openSlowHeaderClients(listener.port);
 * expect(await slow.closedWithin(30_000)).toEqual([expect.stringMatching(/^HTTP\/1\.1 408/), …]);
 * ```
 */
export function openSlowHeaderClients(
  port: number,
  options: SlowHeaderClientsOptions = {},
): SlowHeaderClients {
  const count = options.sockets ?? 3;
  const intervalMs = options.byteIntervalMs ?? 100;
  const header = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `;
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  const closed = Array.from({ length: count }, () => {
    const socket = connect(port, options.hostname ?? '127.0.0.1');
    sockets.add(socket);
    let received = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || !socket.writable) return;
      socket.write(sent < header.length ? header[sent]! : 'a');
      sent++;
    }, intervalMs);
    timers.add(timer);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    return new Promise<string>((resolve) => {
      socket.once('close', () => {
        clearInterval(timer);
        timers.delete(timer);
        sockets.delete(socket);
        resolve(received);
      });
    });
  });
  const closedByServer = Promise.all(closed);
  return {
    closedByServer,
    closedWithin: (boundMs) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), boundMs);
        void closedByServer.then((received) => {
          clearTimeout(timer);
          resolve(received);
        });
      }),
    get open() {
      return sockets.size;
    },
    destroy() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** What {@link runSlowHeaderTrial} saw. */
export interface SlowHeaderTrial<T> {
  /** What each slow socket received before the server closed it; `undefined`: some stayed open. */
  readonly answers: string[] | undefined;
  /** What `request` resolved with, run while the slow sockets were open. */
  readonly served: T;
}

/**
 * A slowloris trial against a listening server: opens slow header clients, runs one normal
 * `request` while they are open, then waits (at most `boundMs`) for the server to close them.
 *
 * @param port - the server's port on 127.0.0.1
 * @param request - a normal client's request (e.g. a `fetch` returning the status)
 * @param options - the slow clients' options, and `boundMs` (default 20000): the test's patience
 *
 * @example
 * ```ts
 * const trial = await runSlowHeaderTrial(node.port, async () => (await fetch(node.url)).status);
 * expect(trial.answers).toEqual(Array(3).fill(expect.stringMatching(/^HTTP\/1\.1 408 /)));
 * ```
 */
export async function runSlowHeaderTrial<T>(
  port: number,
  request: () => Promise<T>,
  options: SlowHeaderClientsOptions & { boundMs?: number } = {},
): Promise<SlowHeaderTrial<T>> {
  const slow = openSlowHeaderClients(port, options);
  try {
    const served = await request();
    return { served, answers: await slow.closedWithin(options.boundMs ?? 20_000) };
  } finally {
    slow.destroy();
  }
}
