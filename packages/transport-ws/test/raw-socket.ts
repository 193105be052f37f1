/**
 * A raw `ws` client for wire tests: every frame it receives, the close code, and the HTTP status
 * of a refused handshake — each awaited by event, never by time.
 */
import type { IncomingMessage } from 'node:http';
import { connect as connectTcp } from 'node:net';
import { createChangeNotifier, createDeferred } from '@a2ui-ts/core/testing';
import { WebSocket } from 'ws';
import { WS_SUBPROTOCOL } from '../src/protocol/wire.js';

export interface RawSocket {
  readonly ws: WebSocket;
  /** Text frames received, in order. */
  readonly frames: string[];
  /** Resolves once `count` frames have arrived, with all frames so far. */
  frame(count?: number): Promise<string[]>;
  /** Resolves with the next frame that satisfies `match`. */
  until(match: (frame: string) => boolean): Promise<string>;
  send(data: string | Buffer, options?: { binary?: boolean }): void;
  /** Settles when the socket opened (`true`) or the handshake was refused (`false`). */
  readonly opened: Promise<boolean>;
  /** The refused handshake: status, headers, body. */
  readonly refusal: Promise<Refusal>;
  /** Code and reason of the close. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(code?: number, reason?: string): void;
}

/** What a refused handshake answered. */
export interface Refusal {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface RawSocketOptions {
  protocols?: string[];
  headers?: Record<string, string>;
  origin?: string;
  /** Answer pings (as every WebSocket does). @default true */
  autoPong?: boolean;
}

export function openRawSocket(url: string, options: RawSocketOptions = {}): RawSocket {
  const ws = new WebSocket(url, options.protocols ?? [WS_SUBPROTOCOL], {
    headers: options.headers,
    origin: options.origin,
    autoPong: options.autoPong ?? true,
  });
  const frames: string[] = [];
  const changes = createChangeNotifier();
  let ended = false;
  const refusal = createDeferred<Refusal>();
  const opened = new Promise<boolean>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => {
        refusal.resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        resolve(false);
        ws.terminate();
      });
    });
    ws.once('close', () => resolve(false));
  });
  ws.on('error', () => {});
  ws.on('message', (data, isBinary) => {
    frames.push(isBinary ? `<binary ${(data as Buffer).length}>` : data.toString());
    changes.notify();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.once('close', (code, reason) => {
      ended = true;
      changes.notify();
      resolve({ code, reason: reason.toString() });
    });
  });
  const waitFor = async <T>(check: () => T | undefined): Promise<T> => {
    let value: T | undefined;
    await changes.until(() => {
      value = check();
      return value !== undefined || ended;
    });
    if (value === undefined)
      throw new Error(`The socket closed first; frames: ${JSON.stringify(frames)}`);
    return value;
  };
  let searchedFrom = 0;
  return {
    ws,
    frames,
    frame: (count = frames.length + 1) =>
      waitFor(() => (frames.length >= count ? [...frames] : undefined)),
    until: (match) =>
      waitFor(() => {
        for (let index = searchedFrom; index < frames.length; index++) {
          if (match(frames[index]!)) {
            searchedFrom = index + 1;
            return frames[index]!;
          }
        }
        return undefined;
      }),
    send: (data, sendOptions) => ws.send(data, { binary: sendOptions?.binary ?? false }),
    opened,
    refusal: refusal.promise,
    closed,
    close: (code, reason) => ws.close(code, reason),
  };
}

/**
 * Writes a handshake of `lines` (CRLF-joined) on a raw TCP socket and resolves with the response
 * head (`until: 'head'`, up to the blank line) or the whole response once the server ends it.
 */
export function rawHandshake(
  port: number,
  lines: readonly string[],
  until: 'head' | 'end',
): Promise<string> {
  const socket = connectTcp(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('latin1');
  socket.on('error', () => {});
  return new Promise<string>((resolve) => {
    const done = (value: string) => {
      socket.destroy();
      resolve(value);
    };
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      if (until === 'head' && end >= 0) done(text.slice(0, end + 4));
    });
    socket.on('end', () => done(text));
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
