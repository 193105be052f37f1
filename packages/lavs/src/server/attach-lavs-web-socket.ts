/**
 * LAVS over WebSocket (spec §5.1, §5.4): the same JSON-RPC as HTTP, plus `lavs/subscribe`,
 * `lavs/unsubscribe` and `lavs/data` pushes. Attached to the caller's Node HTTP server on one
 * path; a frame larger than `maxRequestBytes` closes the socket (1009), as `ws` does.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Authenticate, runAuthenticate } from '@a2ui-ts/core/host';
import { type WebSocket, WebSocketServer } from 'ws';
import { LavsError, toLavsErrorObject } from '../errors/lavs-error.js';
import {
  dispatchJsonRpc,
  type LavsDataNotification,
  type SubscriptionHost,
} from '../protocol/json-rpc.js';
import type { LavsRuntime } from '../runtime/lavs-runtime.js';
import { LAVS_SERVER_DEFAULTS, type LavsServerOptions } from './create-lavs-server.js';

/** Options of {@link attachLavsWebSocket}. */
export interface LavsWebSocketOptions extends Omit<LavsServerOptions, 'bodyTimeoutMs'> {
  /** The HTTP server whose upgrades to take. */
  server: Server;
  /** The path WebSocket clients connect to. @default '/' */
  path?: string;
  /** Most subscriptions one connection holds. @default 32 */
  maxSubscriptions?: number;
  /**
   * Most bytes waiting to be sent to one client; past it the client is too slow and is
   * disconnected (1013) rather than buffered without end. @default 8388608
   */
  maxBufferedBytes?: number;
}

/** An attached WebSocket endpoint. */
export interface LavsWebSocket {
  /** Closes every connection (1001) and stops taking upgrades. */
  close(): Promise<void>;
}

let nextSubscription = 0;

/**
 * Serves LAVS on `options.server`'s WebSocket upgrades at `options.path`.
 *
 * @param runtime - from `createLavsRuntime`
 * @param options - `server`, `path`, `authenticate`, `maxRequestBytes`, `maxBatchSize`,
 *   `maxSubscriptions`, `maxBufferedBytes`
 *
 * @example
 * ```ts
 * const socket = attachLavsWebSocket(runtime, { server: httpServer, path: '/' });
 * ```
 */
export function attachLavsWebSocket(
  runtime: LavsRuntime,
  options: LavsWebSocketOptions,
): LavsWebSocket {
  const path = options.path ?? '/';
  const maxSubscriptions = options.maxSubscriptions ?? 32;
  const maxBufferedBytes = options.maxBufferedBytes ?? 8_388_608;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxRequestBytes ?? LAVS_SERVER_DEFAULTS.maxRequestBytes,
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) return;
    void authenticateUpgrade(options.authenticate, request).then((auth) => {
      if (!auth.ok) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => serveConnection(ws, auth.principal));
    });
  };
  options.server.on('upgrade', onUpgrade);

  const serveConnection = (ws: WebSocket, principal: unknown) => {
    const subscriptions = new Map<string, () => void>();
    const send = (message: unknown) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > maxBufferedBytes) return ws.close(1013, 'too slow');
      ws.send(JSON.stringify(message));
    };
    const host: SubscriptionHost = {
      subscribe(endpointId, input) {
        if (subscriptions.size >= maxSubscriptions)
          throw new LavsError(
            'INVALID_REQUEST',
            `a connection holds at most ${maxSubscriptions} subscriptions`,
          );
        const subscriptionId = `sub-${++nextSubscription}`;
        const push = (data: unknown) =>
          send({
            jsonrpc: '2.0',
            method: 'lavs/data',
            params: { subscriptionId, data },
          } satisfies LavsDataNotification);
        subscriptions.set(subscriptionId, runtime.watch(endpointId, input, push, { principal }));
        return subscriptionId;
      },
      unsubscribe(subscriptionId) {
        const stop = subscriptions.get(subscriptionId);
        subscriptions.delete(subscriptionId);
        stop?.();
        return stop !== undefined;
      },
    };
    ws.on('message', (raw, isBinary) => {
      let payload: unknown;
      try {
        if (isBinary) throw new Error('binary frame');
        payload = JSON.parse(raw.toString());
      } catch {
        return send({
          jsonrpc: '2.0',
          id: null,
          error: toLavsErrorObject(new LavsError('PARSE_ERROR', 'the frame is not JSON text')),
        });
      }
      void dispatchJsonRpc(payload, {
        runtime,
        principal,
        maxBatchSize: options.maxBatchSize ?? LAVS_SERVER_DEFAULTS.maxBatchSize,
        subscriptions: host,
      }).then((answer) => answer !== undefined && send(answer));
    });
    ws.on('close', () => {
      for (const stop of subscriptions.values()) stop();
      subscriptions.clear();
    });
    ws.on('error', () => ws.terminate());
  };

  return {
    async close() {
      options.server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.close(1001, 'server closing');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** The principal of an upgrade request, through the `authenticate` hook (which takes a `Request`). */
function authenticateUpgrade(authenticate: Authenticate | undefined, request: IncomingMessage) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  return runAuthenticate(authenticate, new Request(url, { headers }));
}
