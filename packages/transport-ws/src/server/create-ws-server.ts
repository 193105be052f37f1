/**
 * The server binding (ARCHITECTURE §4 "WebSocket"): serves `{base}/ws` by taking the upgrades of
 * an existing Node HTTP server (`ws` with `noServer`), so it sits beside Hono routes on one port.
 * It holds only the handshake checks, the socket link and the frame codec; every session rule —
 * principals, caps, grace, validation, idempotency, bounds — is core's `SessionHost`.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { A2uiError } from '@a2ui-ts/core';
import {
  type BindingSessionHostOptions,
  createBindingSessionHost,
  HttpRefusal,
  INBOUND_DEFAULTS,
  LinkSet,
  SESSION_HOST_DEFAULTS,
  type SessionHost,
  type SessionHostStats,
  shutdownRefusal,
} from '@a2ui-ts/core/host';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  offeredVersionsOf,
  versionSubprotocol,
  WS_CLOSE_CODES,
  WS_PATH,
  WS_SUBPROTOCOL,
} from '../protocol/wire.js';
import { InboundFrames } from './inbound-frames.js';
import {
  type AllowedOrigins,
  checkHandshake,
  checkOrigin,
  handshakeUrl,
  parseResumeQuery,
  type TokenLocation,
  toAuthenticationRequest,
  writeRefusal,
} from './upgrade-request.js';
import { WsLink, type WsLinkEnd } from './ws-link.js';

export type { AllowedOrigins, TokenLocation } from './upgrade-request.js';

/**
 * Options of {@link createWsServer}: the session host's (agent, `authenticate`, caps, grace,
 * stores, bounds — see `SessionHostOptions` in `@a2ui-ts/core`) and the binding's own.
 * Durations in milliseconds, sizes in bytes.
 */
export interface WsServerOptions extends BindingSessionHostOptions {
  /** Prefix of the endpoint: sockets are served at `{basePath}/ws`. @default '' */
  basePath?: string;
  /**
   * Heartbeat interval: each socket is pinged (protocol ping) this often and terminated when the
   * previous ping got no pong; an idle socket also gets a `heartbeat` frame, which a browser (no
   * ping API) times out on. A terminated socket's connection waits out its grace period. `0`
   * disables both. @default 15000
   */
  pingIntervalMs?: number;
  /**
   * Origins allowed to open a socket (403 for others): `'same-origin'` (the `Origin` names the
   * handshake's `Host`), `'*'`, a list, or a function. Handshakes without `Origin` (not from a
   * browser) pass every form but a function. @default 'same-origin'
   */
  allowedOrigins?: AllowedOrigins;
  /**
   * Where a bearer token may travel besides the `Authorization` header, for browsers:
   * `'subprotocol'` (`a2ui.bearer.<base64url>`) and/or `'query'` (`?access_token=`, which proxies
   * and access logs record: opt in knowingly). The token reaches `authenticate` as
   * `Authorization: Bearer <token>`. @default ['subprotocol']
   */
  acceptTokenIn?: readonly TokenLocation[];
  /**
   * Largest frame a client may send; a larger one closes the socket with 1009 (the client
   * resumes). Frames within it but above `maxClientMessageBytes` get a `MESSAGE_TOO_LARGE` error
   * frame instead, with the socket kept. @default maxClientMessageBytes + 65536
   */
  maxPayloadBytes?: number;
  /**
   * Bytes written to one socket that its client has not read yet. Above it the socket is dropped;
   * its connection lives on for `reconnectGraceMs` and the client resumes from the replay log.
   * Bounds what a client that stops reading costs the server. @default 4194304
   */
  maxBufferedBytes?: number;
  /**
   * How long `close()` waits for the turns of client messages already taken (so that their `ack`
   * still goes out), and then for sockets to finish their closing handshake. @default 2000
   */
  closeTimeoutMs?: number;
  /**
   * A client message is acknowledged once the agent's turn for it is over, or after this long
   * while it still runs or waits (the `ack` then means "queued"); 0 acknowledges once queued.
   * Keep it below the client's `ackTimeoutMs`. @default 5000
   */
  turnWaitMs?: number;
  /**
   * The retry hint of a shutdown: `close()` closes sockets with 1012 (service restart) and
   * `{"reason":"server-closed","retryAfterMs":…}`, and clients reconnect no sooner than this.
   * @default 1000
   */
  restartRetryAfterMs?: number;
}

/** Defaults of {@link WsServerOptions}, in one place. */
export const WS_SERVER_DEFAULTS = {
  ...SESSION_HOST_DEFAULTS,
  basePath: '',
  pingIntervalMs: 15_000,
  allowedOrigins: 'same-origin',
  acceptTokenIn: ['subprotocol'],
  /** Added to `maxClientMessageBytes` for the envelope around a message. */
  payloadAllowanceBytes: 65_536,
  maxBufferedBytes: 4_194_304,
  closeTimeoutMs: 2_000,
  turnWaitMs: 5_000,
  restartRetryAfterMs: 1_000,
} as const;

/** Counters for monitoring and leak tests: the session host's, and the sockets'. */
export interface WsServerStats extends SessionHostStats {
  /** Open sockets (closing ones included). */
  sockets: number;
  /** Handshakes being checked (authentication, opening the connection). */
  pendingUpgrades: number;
  /** Unsent bytes over all sockets. */
  bufferedBytes: number;
  /** Whether the shared heartbeat timer runs (only while sockets are open). */
  heartbeatTimer: boolean;
  /** Sockets dropped because their client read too slowly. */
  droppedSlowLinks: number;
  /** Sockets terminated because they missed a pong. */
  unresponsiveLinks: number;
  /** Most unsent bytes one socket held since the server started. */
  peakLinkBufferedBytes: number;
}

/** The server returned by {@link createWsServer}. */
export interface WsServer {
  /** The session host behind the sockets. */
  readonly host: SessionHost;
  /** Records of live connections (the host's registry). */
  readonly registry: SessionHost['registry'];
  /** The path sockets are served at: `{basePath}/ws`. */
  readonly path: string;
  /**
   * Offers an HTTP upgrade (the `upgrade` event of a Node HTTP server): returns `false` at once
   * when the request's path is not {@link path} (the socket is untouched, for another handler),
   * `true` when it takes the socket — to upgrade it, or to refuse it with an HTTP status.
   */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Handles an upgrade whatever its path; settles once the socket is upgraded or refused. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  stats(): WsServerStats;
  /**
   * Shuts down: refuses the handshakes still being checked and later ones with 503
   * `CONNECTION_CLOSED` (`Retry-After`, and `reason: "server-closed"` with `retryAfterMs` in the
   * body), stops handing client messages to agents (their
   * clients send them again after reconnecting), waits up to `closeTimeoutMs` for the turns of
   * those already taken so their `ack` goes out, then closes every connection (agents see
   * `server-closed`; sockets get close code 1012 with the retry hint, and their clients reconnect
   * and start over), stops the heartbeat, and resolves once every socket is gone.
   */
  close(): Promise<void>;
}

/**
 * Creates the WebSocket server. Attach it to a Node HTTP server with `attachWsServer`, or offer
 * it upgrades yourself (`server.on('upgrade', …)` → {@link WsServer.upgrade}).
 *
 * @param options - the agent, limits and hooks; see {@link WsServerOptions}
 * @returns the server, with `host`, `registry`, `upgrade`, `stats()` and `close()`
 *
 * @example
 * ```ts
 * const a2ui = createWsServer({ agent, basePath: '/a2ui' });
 * const server = serve({ fetch: app.fetch, port: 8787 }); // @hono/node-server, or node:http
 * attachWsServer(server, a2ui); // ws://localhost:8787/a2ui/ws
 * ```
 */
export function createWsServer(options: WsServerOptions): WsServer {
  const defaults = WS_SERVER_DEFAULTS;
  const path = `${(options.basePath ?? defaults.basePath).replace(/\/+$/, '')}${WS_PATH}`;
  const pingIntervalMs = options.pingIntervalMs ?? defaults.pingIntervalMs;
  const allowedOrigins = options.allowedOrigins ?? defaults.allowedOrigins;
  const acceptTokenIn = options.acceptTokenIn ?? defaults.acceptTokenIn;
  const maxBufferedBytes = options.maxBufferedBytes ?? defaults.maxBufferedBytes;
  const closeTimeoutMs = options.closeTimeoutMs ?? defaults.closeTimeoutMs;
  const turnWaitMs = options.turnWaitMs ?? defaults.turnWaitMs;
  const restartRetryAfterMs = options.restartRetryAfterMs ?? defaults.restartRetryAfterMs;
  const maxPayloadBytes =
    options.maxPayloadBytes ??
    (options.maxClientMessageBytes ?? INBOUND_DEFAULTS.maxClientMessageBytes) +
      defaults.payloadAllowanceBytes;
  const { onAgentError } = options;
  const host = createBindingSessionHost(options);
  const reportError = (error: unknown): void => {
    if (onAgentError) onAgentError(error, undefined);
    else console.error('[a2ui] WebSocket server error:', error);
  };

  /** The subprotocol of each handshake's negotiated version, for `handleProtocols`. */
  const selectedProtocols = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: maxPayloadBytes,
    perMessageDeflate: false,
    handleProtocols: (protocols, request) =>
      selectedProtocols.get(request) ?? (protocols.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
  });
  // One heartbeat timer for all sockets, so an idle server holds no timer at all.
  const links = new LinkSet<WsLink>(pingIntervalMs > 0 ? pingIntervalMs : undefined);
  const sockets = new Set<WebSocket>();
  const inbounds = new Set<InboundFrames>();
  /** Sockets of handshakes still being checked (authenticate, opening the connection). */
  const handshakes = new Set<Duplex>();
  /** Handshakes `close()` refused while they were being checked: they stop where they are. */
  const refusedByClose = new WeakSet<Duplex>();
  let closing = false;
  let pendingUpgrades = 0;
  let droppedSlowLinks = 0;
  let unresponsiveLinks = 0;

  const onLinkEnd = (link: WsLink, end: WsLinkEnd): void => {
    links.delete(link);
    if (end === 'overflow') droppedSlowLinks++;
    if (end === 'unresponsive') unresponsiveLinks++;
  };

  /** The socket is gone: the connection waits out its grace period, or ends if the client left. */
  const onSocketGone = (link: WsLink, principal: unknown, code: number | undefined): void => {
    const gone = link.socketGone();
    if (!gone) return;
    const endedBefore = gone.endedBefore;
    const hostLink = link.hostLink;
    // The session closed the socket itself: nothing is left to do.
    if (!hostLink || endedBefore === 'closed') return;
    hostLink.detach();
    if (code === WS_CLOSE_CODES.normal && endedBefore === undefined) {
      host.disconnect(hostLink.connectionId, { principal }).catch(() => {
        // Already gone (expired, closed by the agent meanwhile): nothing to tell.
      });
    }
  };

  const bindSocket = (link: WsLink, ws: WebSocket, socket: Duplex, principal: unknown): void => {
    const connectionId = link.hostLink!.connectionId;
    sockets.add(ws);
    const inbound = new InboundFrames({
      host,
      connectionId,
      principal,
      reply: (frame) => link.send(frame),
      open: () => link.end === undefined,
      onError: reportError,
      pause: () => ws.pause(),
      resume: () => ws.resume(),
      maxEchoedIdLength: options.maxRequestIdLength ?? INBOUND_DEFAULTS.maxRequestIdLength,
      turnWaitMs,
      accepting: () => !closing,
    });
    inbounds.add(inbound);
    ws.on('message', (data, isBinary) => {
      link.markAlive();
      if (isBinary) {
        link.refuse(WS_CLOSE_CODES.unsupportedData, 'binary frames are not supported');
        return;
      }
      const buffer = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data);
      inbound.push(buffer.toString('utf8'), buffer.byteLength);
    });
    ws.on('pong', () => link.markAlive());
    // `ws` closes the socket itself after a protocol error (1002, 1007, 1009); the close event follows.
    ws.on('error', () => {});
    ws.on('close', (code) => {
      sockets.delete(ws);
      inbounds.delete(inbound);
      onSocketGone(link, principal, code);
    });
    link.attach(ws, socket);
    if (link.end === undefined) {
      links.add(link);
    }
  };

  const handleUpgrade = async (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): Promise<void> => {
    // Until `ws` takes the socket, its errors (a reset client) are ours to swallow.
    socket.on('error', () => {});
    pendingUpgrades++;
    let link: WsLink | undefined;
    let upgraded = false;
    let principal: unknown;
    socket.once('close', () => {
      if (!upgraded && link?.hostLink) onSocketGone(link, principal, undefined);
    });
    handshakes.add(socket);
    try {
      if (closing) throw shutdownRefusal(restartRetryAfterMs);
      checkHandshake(request);
      const url = handshakeUrl(request);
      checkOrigin(request, allowedOrigins);
      const auth = await host.authenticate(toAuthenticationRequest(request, url, acceptTokenIn));
      // `close()` refused it meanwhile: nothing more is opened for it.
      if (refusedByClose.has(socket)) return;
      if (!auth.ok) throw HttpRefusal.of(auth.error);
      principal = auth.principal;
      const resume = parseResumeQuery(url);
      // Versions travel as subprotocols (`a2ui.v1.0`, …); sharing none is a 406 before any
      // connection is opened. A handshake that offers none is served as before negotiation.
      const negotiated = host.negotiate(
        offeredVersionsOf(request.headers['sec-websocket-protocol']),
      );
      if (negotiated) selectedProtocols.set(request, versionSubprotocol(negotiated.version));
      link = new WsLink({
        maxBufferedBytes,
        heartbeatIntervalMs: pingIntervalMs,
        shuttingDown: () => closing,
        restartRetryAfterMs,
        onEnd: onLinkEnd,
      });
      link.hostLink = await host.connect({
        principal,
        connectionId: resume.connectionId,
        lastSeq: resume.lastSeq,
        sink: link,
        protocolVersions: negotiated?.versions,
      });
      if (socket.destroyed || refusedByClose.has(socket)) {
        // The client left, or `close()` refused it, while the connection was being opened.
        onSocketGone(link, principal, undefined);
        return;
      }
      const bound = link;
      wss.handleUpgrade(request, socket, head, (ws) => {
        upgraded = true;
        bindSocket(bound, ws, socket, principal);
      });
    } catch (error) {
      if (refusedByClose.has(socket)) return;
      // Refusals are the client's business; anything else thrown here is a bug worth a log line.
      if (!(error instanceof HttpRefusal) && !A2uiError.isInstance(error)) reportError(error);
      // The host shut down while the connection was being opened: the shutdown's refusal.
      const refusal =
        closing && A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED'
          ? shutdownRefusal(restartRetryAfterMs)
          : error;
      writeRefusal(socket, HttpRefusal.of(refusal));
    } finally {
      pendingUpgrades--;
      handshakes.delete(socket);
    }
  };

  return {
    host,
    registry: host.registry,
    path,
    upgrade(request, socket, head) {
      const url = request.url ?? '/';
      const query = url.indexOf('?');
      if ((query === -1 ? url : url.slice(0, query)) !== path) return false;
      void handleUpgrade(request, socket, head);
      return true;
    },
    handleUpgrade,
    stats(): WsServerStats {
      const { bufferedBytes, peakLinkBufferedBytes } = links.bufferStats();
      return {
        ...host.stats(),
        sockets: sockets.size,
        pendingUpgrades,
        bufferedBytes,
        heartbeatTimer: links.ticking,
        droppedSlowLinks,
        unresponsiveLinks,
        peakLinkBufferedBytes,
      };
    },
    async close(): Promise<void> {
      if (closing) return;
      closing = true;
      // Handshakes still being checked are refused now rather than waited for: an `authenticate`
      // that takes its time must neither hold the shutdown up nor open a socket after it.
      for (const socket of [...handshakes]) {
        refusedByClose.add(socket);
        writeRefusal(socket, HttpRefusal.of(shutdownRefusal(restartRetryAfterMs)));
      }
      await settledWithin(
        [...inbounds].map((inbound) => inbound.idle()),
        closeTimeoutMs,
      );
      await host.close();
      for (const link of links) link.close('server-closed');
      const open = [...sockets];
      await Promise.all(
        open.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve();
              const timer = setTimeout(() => ws.terminate(), closeTimeoutMs);
              ws.once('close', () => {
                clearTimeout(timer);
                resolve();
              });
            }),
        ),
      );
      wss.close();
    },
  };
}

/** Resolves once every promise settled, or after `timeoutMs`, whichever comes first. */
async function settledWithin(promises: Promise<unknown>[], timeoutMs: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}
