/**
 * A client that stops reading (Node only): a raw TCP connection that sends one request, reads the
 * answer until a marker shows up (the response head, the first event), and then reads nothing
 * more — as a client whose page froze, or whose network stalled, would. What a server holds for it
 * is what its slow-reader policy must bound.
 */
import { connect } from 'node:net';

/** A connection that stopped reading. */
export interface StalledReader {
  /** What it read before it stopped (Latin-1). */
  readonly head: string;
  /** Reads (and discards) again, so that the server's end of the connection is seen. */
  resume(): void;
  /** Resolves when the connection is closed (by either side). */
  readonly closed: Promise<void>;
}

/**
 * Connects to 127.0.0.1:`port`, writes `request` (the raw HTTP request), and resolves once what it
 * read contains `until`; from then on it reads nothing.
 *
 * @example
 * ```ts
 * const reader = await openStalledReader(port, 'GET /sse HTTP/1.1\r\nHost: x\r\n\r\n', 'event: connected');
 * // … the agent floods the link; the server must drop it …
 * reader.resume();
 * await reader.closed;
 * ```
 */
export function openStalledReader(
  port: number,
  request: string,
  until: string,
): Promise<StalledReader> {
  const socket = connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  let head = '';
  return new Promise((resolve) => {
    const onData = (data: Buffer) => {
      head += data.toString('latin1');
      if (!head.includes(until)) return;
      socket.off('data', onData);
      socket.pause();
      resolve({
        head,
        resume: () => {
          socket.on('data', () => {}).resume();
        },
        closed,
      });
    };
    socket.on('data', onData);
    socket.write(request);
  });
}

/**
 * Timers this process holds now (`Timeout` resources): compare before and after a test to find
 * one that leaks timers.
 */
export function countActiveTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}
