/**
 * The client connector (ARCHITECTURE §4 "WebSocket"): a `ClientTransport` over one WebSocket —
 * the browser's own, or any implementation with the same API (`ws` in Node 20). It resumes with
 * `?connectionId=&lastSeq=` after any drop, sends client messages in envelopes with an id that
 * the server de-duplicates, and finds a silent link (a laptop that slept, a dead NAT entry) with
 * an application-level heartbeat and a probe when the page wakes up. Reconnects, the outbox and
 * the status are core's link kit; this file holds only the link and the codec.
 */
import {
  A2uiError,
  type ClientMessage,
  type ClientMessageMetadata,
  type ClientTransport,
  type ConnectionStatus,
  describeError,
  isOvertakingMessage,
  resolveOfferedVersions,
  type SendOptions,
  type TroubleCause,
  utf8ByteLength,
} from '@a2ui-ts/core';
import {
  createLinkTransport,
  describeTroubleCause,
  errorOfHttpStatus,
  isRetryableStatus,
  LINK_DEFAULTS,
  type LinkAttempt,
  type LinkOptions,
  type LinkOutcome,
  listenForBrowserWake,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  resolveLinkOptions,
  resolveResumeStore,
  SequenceTracker,
  troubleCauseOf,
  tryParseJson,
} from '@a2ui-ts/core/link';
import { bearerProtocol } from '../protocol/bearer-token.js';
import { fromErrorFrameBody } from '../protocol/frame-errors.js';
import {
  formatClientMessageFrame,
  formatSeqAckFrame,
  isControlFrame,
  PING_FRAME,
} from '../protocol/frames.js';
import {
  type ConnectedFrame,
  type RestartReason,
  SERVER_FRAME_TYPES,
  versionSubprotocol,
  WS_CLOSE_CODES,
  WS_PATH,
  WS_QUERY,
  WS_VERSION_SUBPROTOCOL_PREFIX,
} from '../protocol/wire.js';

/**
 * A `WebSocket` constructor: the browser's `WebSocket`, or one with the same API such as
 * `WebSocket` from `ws`. Called as `new WebSocket(url, protocols)`.
 */
export type WebSocketConstructor = new (url: string, protocols?: string[]) => object;

/** What this transport uses of a socket (the WHATWG API, which `ws` implements too). */
interface SocketLike {
  readonly readyState: number;
  /** The subprotocol the server selected (`''` for none). */
  readonly protocol?: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** `ws` only: destroys the TCP connection at once, without a closing handshake. */
  terminate?(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: { message?: string; error?: unknown }) => void) | null;
}

/** `readyState` of an open socket (WHATWG). */
const OPEN = 1;

/**
 * Options of {@link connectWs}. Durations in milliseconds, sizes in bytes. `signal`, `reconnect`,
 * `random`, `maxQueuedMessages` and `wake` are core's {@link LinkOptions}.
 */
export interface WsClientOptions extends LinkOptions {
  /**
   * Base URL the server is mounted at (`ws:`, `wss:`, `http:` or `https:`, or relative to the
   * page in a browser); the client opens `{url}/ws`.
   */
  url: string | URL;
  /**
   * The WebSocket implementation. Node 20 has none built in: pass `WebSocket` from `ws`.
   * @default globalThis.WebSocket
   */
  WebSocket?: WebSocketConstructor;
  /**
   * A bearer token for the server's `authenticate` hook, asked before every (re)connect so a
   * refreshed token is picked up. Browsers cannot set headers on a WebSocket, so it travels as
   * the subprotocol `a2ui.bearer.<base64url>` (or the `access_token` query parameter, see
   * {@link tokenIn}); the server hands it to `authenticate` as `Authorization: Bearer <token>`.
   * Cookies need nothing: the browser sends them with the handshake.
   * @default none
   */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /**
   * Where the token travels: `'subprotocol'` stays out of URLs and logs; `'query'` (the server
   * must accept it) suits proxies that drop unknown subprotocols, but lands in access logs.
   * @default 'subprotocol'
   */
  tokenIn?: 'subprotocol' | 'query';
  /**
   * A socket that receives no frame (no message, no `heartbeat`) for this long is dead: it is
   * dropped and the connection resumed on a new one. Also the deadline of the handshake. Once
   * connected, it is raised to twice the server's announced heartbeat interval (+ 1 s) if that is
   * longer, and switched off if the server sends no heartbeats; 0 disables it. @default 45000
   */
  heartbeatTimeoutMs?: number;
  /**
   * When the page wakes up (`online`, or visible again) on a socket that does not look silent,
   * a `ping` frame must be answered within this long, or the socket is replaced at once.
   * @default 5000
   */
  probeTimeoutMs?: number;
  /**
   * A client message the server has not acknowledged within this long means a broken socket:
   * it is dropped, and the message sent again (same id) on the next one. @default 30000
   */
  ackTimeoutMs?: number;
  /**
   * Tells the server which messages were applied, this long after the first unacknowledged one,
   * so it can drop them from its replay log; negative disables it. @default 1000
   */
  seqAckDelayMs?: number;
  /** Most client messages sent before their acknowledgements come back. @default 100 */
  maxBatchLength?: number;
  /**
   * Largest frame sent (a message in its envelope, UTF-8); `send` rejects a larger one with
   * `MESSAGE_TOO_LARGE`. Keep it ≤ the server's `maxPayloadBytes`. @default 1048576
   */
  maxMessageBytes?: number;
  /** Creates the envelope ids (idempotency keys). @default a random prefix + a counter */
  createRequestId?: () => string;
  /**
   * The A2UI versions this client reads, offered as one subprotocol each (`a2ui.v1.0`, …); the
   * server selects the one it will speak ({@link WsTransport.protocolVersion}) or refuses the
   * handshake with 406 (`NOT_SUPPORTED`, final) when it speaks none of them.
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[];
  /**
   * Subscribes to "reconnect now" signals.
   * @default the browser's `online` and `visibilitychange` to visible, where they exist
   */
  wake?: (listener: () => void) => () => void;
}

/** The transport returned by {@link connectWs}. */
export interface WsTransport extends ClientTransport {
  /** The current connection id (after the `connected` frame). */
  readonly connectionId: string | undefined;
  /** A2UI messages of the connection applied so far (sent as `lastSeq` on resume). */
  readonly lastSeq: number;
  readonly status: ConnectionStatus;
  /** Client messages not yet acknowledged by the server. */
  readonly pendingMessages: number;
  /**
   * The A2UI version the server selected on the current socket (its `Sec-WebSocket-Protocol`
   * answer, `a2ui.v1.0` → `"v1.0"`); `undefined` before the first socket opens.
   */
  readonly protocolVersion: string | undefined;
}

/** Defaults of {@link WsClientOptions}, in one place. */
export const WS_CLIENT_DEFAULTS = {
  tokenIn: 'subprotocol',
  heartbeatTimeoutMs: 45_000,
  probeTimeoutMs: 5_000,
  ackTimeoutMs: 30_000,
  seqAckDelayMs: 1_000,
  maxBatchLength: LINK_DEFAULTS.maxBatchLength,
  maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
  maxMessageBytes: 1_048_576,
  /** How long `close()` waits for the server to answer the closing handshake. */
  closeTimeoutMs: LINK_DEFAULTS.closeTimeoutMs,
} as const;

type Outgoing = { message: ClientMessage; metadata: ClientMessageMetadata | undefined };

/** How the server answered one client message, or that it could not. */
type Answer =
  | { kind: 'ack' }
  | { kind: 'error'; error: A2uiError }
  /** The socket ended first; `tooLarge` when the server closed it with 1009. */
  | { kind: 'lost'; reason: string; tooLarge: boolean };

/** The socket that is currently open on a connection: where client messages go. */
interface OpenLink {
  /** Sends `frame` and resolves with the server's answer to `id`. */
  request(id: string, frame: string): Promise<Answer>;
  /** Gives up on the socket (the connection stays; the transport reconnects). */
  abandon(reason: string): void;
  /** Says goodbye (close code 1000) and resolves once the socket is closed, or after `timeoutMs`. */
  leave(timeoutMs: number): Promise<void>;
}

/**
 * Connects to a WebSocket server of `@a2ui-ts/transport-ws`. The socket opens when `A2uiClient`
 * calls `events()`; `send` may be called before, and waits for the connection.
 *
 * @param options - see {@link WsClientOptions}
 * @returns a `ClientTransport` with `connectionId`, `lastSeq`, `status` and `pendingMessages`
 * @throws A2uiError `NOT_SUPPORTED` when there is no WebSocket implementation (Node 20 without
 *   `options.WebSocket`)
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: connectWs({ url: 'wss://example.com/a2ui', token: getToken }) });
 * // Node 20: connectWs({ url, WebSocket }) with `import { WebSocket } from 'ws'`
 * void client.connect();
 * ```
 */
export function connectWs(options: WsClientOptions): WsTransport {
  const defaults = WS_CLIENT_DEFAULTS;
  const Socket =
    options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Socket) {
    throw new A2uiError(
      'NOT_SUPPORTED',
      'This runtime has no WebSocket: pass options.WebSocket (in Node 20: WebSocket from "ws").',
    );
  }
  const endpoint = endpointUrl(options.url);
  const tokenIn = options.tokenIn ?? defaults.tokenIn;
  const offeredVersions = resolveOfferedVersions(options.offeredVersions);
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? defaults.heartbeatTimeoutMs;
  const probeTimeoutMs = options.probeTimeoutMs ?? defaults.probeTimeoutMs;
  const ackTimeoutMs = options.ackTimeoutMs ?? defaults.ackTimeoutMs;
  const seqAckDelayMs = options.seqAckDelayMs ?? defaults.seqAckDelayMs;
  const maxMessageBytes = options.maxMessageBytes ?? defaults.maxMessageBytes;
  const wake = options.wake ?? listenForBrowserWake;
  const kit = resolveLinkOptions(options, defaults);

  const sequence = new SequenceTracker();
  const resume = resolveResumeStore(options.resume, { name: 'ws', url: String(endpoint) });
  /** A page reloaded: its session is resumed from the start (the page holds nothing yet). */
  let resumeLoaded = resume === undefined;
  let connectionId: string | undefined;
  let protocolVersion: string | undefined;
  let current: OpenLink | undefined;
  /** Set when a wake-up replaced the socket: the next reconnect does not wait for the backoff. */
  let reconnectNow = false;

  // ---- Client → server: envelopes from the outbox ------------------------------------------

  const outbox = new Outbox<Outgoing>({
    overtakes: (item) => isOvertakingMessage(item.message),
    ...kit.outbox,
    onTrouble: (trouble) => shell.status.trouble(trouble),
    deliver: (batch, context) => deliver(batch, context.connectionId),
  });

  const deliver = async (
    batch: readonly OutboxEntry<Outgoing>[],
    target: string,
  ): Promise<OutboxDelivery> => {
    const link = current;
    if (!link || connectionId !== target) return { kind: 'retry', reason: 'The socket is down.' };
    const errors = new Map<string, A2uiError>();
    const pending: Array<[string, Promise<Answer>]> = [];
    for (const entry of batch) {
      const frame = formatClientMessageFrame(entry.id, entry.item.message, entry.item.metadata);
      const bytes = utf8ByteLength(frame, maxMessageBytes);
      if (bytes > maxMessageBytes) {
        errors.set(
          entry.id,
          new A2uiError(
            'MESSAGE_TOO_LARGE',
            `The client message is more than ${maxMessageBytes} bytes in its frame.`,
            { data: { maxMessageBytes } },
          ),
        );
      } else pending.push([entry.id, link.request(entry.id, frame)]);
    }
    const timer = setTimeout(
      () => link.abandon(`No acknowledgement within ${ackTimeoutMs} ms.`),
      ackTimeoutMs,
    );
    const answers = await Promise.all(pending.map(([, answer]) => answer));
    clearTimeout(timer);
    const retryIds = new Set<string>();
    let retryReason = 'the agent is busy';
    let retryAfterMs: number | undefined;
    let busyCause: TroubleCause | undefined;
    let lost = 0;
    let tooLarge = false;
    answers.forEach((answer, index) => {
      const id = pending[index]![0];
      if (answer.kind === 'error') {
        if (answer.error.code === 'LIMIT_EXCEEDED') {
          // The agent is busy: the same message, with the same id, after a backoff.
          retryIds.add(id);
          const hint = answer.error.data?.retryAfterMs;
          if (typeof hint === 'number') retryAfterMs = Math.max(retryAfterMs ?? 0, hint);
          // Why it is refused (a session store that is down, not a busy agent) for the status bar.
          if (busyCause !== 'store-unavailable') {
            busyCause = troubleCauseOf(answer.error.data);
            retryReason = describeTroubleCause(busyCause);
          }
        } else errors.set(id, answer.error);
      } else if (answer.kind === 'lost') {
        lost++;
        tooLarge ||= answer.tooLarge;
        retryIds.add(id);
        retryReason = answer.reason;
      }
    });
    if (tooLarge) {
      // The server's frame limit is below ours: find the culprit one message at a time.
      if (pending.length > 1) return { kind: 'split' };
      errors.set(
        pending[0]![0],
        new A2uiError('MESSAGE_TOO_LARGE', 'The server closed the socket: the frame is too large.'),
      );
      retryIds.clear();
    } else if (lost === batch.length) return { kind: 'retry', reason: retryReason };
    return {
      kind: 'answered',
      errors,
      ...(retryIds.size > 0
        ? {
            retry: {
              ids: retryIds,
              reason: retryReason,
              retryAfterMs,
              ...(busyCause ? { cause: busyCause } : {}),
            },
          }
        : {}),
    };
  };

  // ---- The socket -----------------------------------------------------------------------------

  const resolveToken = async (): Promise<string | undefined> =>
    typeof options.token === 'function' ? options.token() : options.token;

  const runLink = async (attempt: LinkAttempt): Promise<LinkOutcome> => {
    if (!resumeLoaded) {
      resumeLoaded = true;
      connectionId ??= (await resume?.load())?.connectionId;
    }
    const url = new URL(endpoint);
    if (connectionId !== undefined) {
      url.searchParams.set(WS_QUERY.connectionId, connectionId);
      url.searchParams.set(WS_QUERY.lastSeq, String(sequence.last));
    }
    const protocols = offeredVersions.map(versionSubprotocol);
    let token: string | undefined;
    try {
      token = await resolveToken();
    } catch (error) {
      return { kind: 'dropped', reason: `Could not get a token: ${describeError(error)}` };
    }
    if (token !== undefined && tokenIn === 'query')
      url.searchParams.set(WS_QUERY.accessToken, token);
    else if (token !== undefined) protocols.push(bearerProtocol(token));
    if (attempt.signal.aborted) return { kind: 'closed', reason: 'Closed by the client.' };

    let socket: SocketLike;
    try {
      socket = new Socket(url.href, protocols) as SocketLike;
    } catch (error) {
      return {
        kind: 'fatal',
        error: new A2uiError(
          'TRANSPORT_ERROR',
          `Cannot open ${url.origin}${url.pathname}: ${describeError(error)}`,
        ),
      };
    }
    return runSocket(socket, attempt);
  };

  const runSocket = (socket: SocketLike, attempt: LinkAttempt): Promise<LinkOutcome> =>
    new Promise<LinkOutcome>((resolve) => {
      let settled = false;
      let connected = false;
      let leaving: (() => void) | undefined;
      let lastActivity = Date.now();
      let heartbeatIntervalMs = 0;
      let errorMessage: string | undefined;
      let heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
      let probeTimer: ReturnType<typeof setTimeout> | undefined;
      let seqAckTimer: ReturnType<typeof setTimeout> | undefined;
      let ackedSeq = 0;
      let lastCloseCode: number | undefined;
      const waiters = new Map<string, (answer: Answer) => void>();
      let unsubscribeWake = (): void => {};

      const finish = (outcome: LinkOutcome, abandonCode?: number): void => {
        if (settled) return;
        settled = true;
        clearTimeout(heartbeatTimer);
        clearTimeout(probeTimer);
        clearTimeout(seqAckTimer);
        unsubscribeWake();
        attempt.signal.removeEventListener('abort', onAbort);
        socket.onmessage = null;
        socket.onclose = null;
        // `ws` emits an error when a socket is dropped mid-handshake; unheard, it would throw.
        socket.onerror = () => {};
        if (current === link) current = undefined;
        // While the link is down, client messages wait (the server is probably unreachable too).
        outbox.pause();
        const reason = outcome.kind === 'fatal' ? outcome.error.message : outcome.reason;
        const tooLarge = lastCloseCode === WS_CLOSE_CODES.messageTooBig;
        for (const answer of waiters.values()) answer({ kind: 'lost', reason, tooLarge });
        waiters.clear();
        if (abandonCode !== undefined) abandon(socket, abandonCode);
        leaving?.();
        resolve(outcome);
      };

      const dropped = (reason: string): LinkOutcome =>
        shell.closed
          ? { kind: 'closed', reason: 'Closed by the client.' }
          : { kind: 'dropped', reason };

      const link: OpenLink = {
        request(id, frame) {
          return new Promise<Answer>((answer) => {
            if (settled) {
              answer({ kind: 'lost', reason: 'The socket closed.', tooLarge: false });
              return;
            }
            waiters.set(id, answer);
            try {
              socket.send(frame);
            } catch (error) {
              link.abandon(`Could not send: ${describeError(error)}`);
            }
          });
        },
        abandon(reason) {
          finish(dropped(reason), WS_CLOSE_CODES.abandoned);
        },
        leave(timeoutMs) {
          return new Promise<void>((done) => {
            if (settled) return done();
            const timer = setTimeout(() => {
              finish({ kind: 'closed', reason: 'Closed by the client.' }, WS_CLOSE_CODES.normal);
            }, timeoutMs);
            leaving = () => {
              clearTimeout(timer);
              done();
            };
            try {
              socket.close(WS_CLOSE_CODES.normal, 'client-closed');
            } catch {
              finish({ kind: 'closed', reason: 'Closed by the client.' });
            }
          });
        },
      };

      const onAbort = () => {
        finish({ kind: 'closed', reason: 'Closed by the client.' }, WS_CLOSE_CODES.normal);
      };
      attempt.signal.addEventListener('abort', onAbort, { once: true });

      // The heartbeat also covers a server that accepts the TCP connection but never answers.
      // Once connected it follows the server's announced interval: never shorter than two of
      // them (it writes at least that often), and off when the server sends no heartbeats.
      let timeoutMs = heartbeatTimeoutMs;
      if (timeoutMs > 0) {
        const check = () => {
          if (timeoutMs <= 0) return;
          const idle = Date.now() - lastActivity;
          if (idle >= timeoutMs) link.abandon(`No frame for ${timeoutMs} ms (heartbeat timeout).`);
          else heartbeatTimer = setTimeout(check, timeoutMs - idle);
        };
        heartbeatTimer = setTimeout(check, timeoutMs);
      }
      const followServerHeartbeat = (intervalMs: number) => {
        if (timeoutMs <= 0) return;
        timeoutMs = intervalMs > 0 ? Math.max(heartbeatTimeoutMs, 2 * intervalMs + 1_000) : 0;
        if (timeoutMs === 0) clearTimeout(heartbeatTimer);
      };

      unsubscribeWake = wake(() => {
        if (settled || shell.closed) return;
        const silentMs = Date.now() - lastActivity;
        // The server writes at least every two intervals; longer means the socket is gone.
        const silentLimitMs = heartbeatIntervalMs > 0 ? 2 * heartbeatIntervalMs + 1_000 : 0;
        if (!connected || (silentLimitMs > 0 && silentMs > silentLimitMs)) {
          reconnectNow = true;
          link.abandon(`The page woke up after ${silentMs} ms without a frame; reconnecting.`);
        } else if (probeTimer === undefined) {
          socket.send(PING_FRAME);
          probeTimer = setTimeout(() => {
            reconnectNow = true;
            link.abandon(`No answer to a ping within ${probeTimeoutMs} ms after the page woke up.`);
          }, probeTimeoutMs);
        }
      });

      const scheduleSeqAck = () => {
        if (seqAckDelayMs < 0 || seqAckTimer !== undefined) return;
        seqAckTimer = setTimeout(() => {
          seqAckTimer = undefined;
          if (settled || sequence.last <= ackedSeq || socket.readyState !== OPEN) return;
          ackedSeq = sequence.last;
          socket.send(formatSeqAckFrame(ackedSeq));
        }, seqAckDelayMs);
      };

      const protocolError = (reason: string) => link.abandon(`Protocol error: ${reason}`);

      const onControl = (text: string): void => {
        const frame = tryParseJson<Record<string, unknown>>(text);
        if (!frame) {
          protocolError('a control frame is not JSON.');
          return;
        }
        switch (frame.type) {
          case SERVER_FRAME_TYPES.connected: {
            // The server's subprotocol is the version it speaks (`ws` checked it was offered).
            if (socket.protocol?.startsWith(WS_VERSION_SUBPROTOCOL_PREFIX))
              protocolVersion = socket.protocol.slice('a2ui.'.length);
            const data = frame as unknown as ConnectedFrame;
            if (typeof data.connectionId !== 'string' || typeof data.resumed !== 'boolean') {
              protocolError('the connected frame lacks connectionId or resumed.');
              return;
            }
            if (!data.resumed && connectionId !== undefined && data.connectionId !== connectionId)
              resetSession('The server started a new session.');
            if (!data.resumed) sequence.reset();
            connectionId = data.connectionId;
            resume?.save({ connectionId, ...(protocolVersion ? { protocolVersion } : {}) });
            heartbeatIntervalMs =
              typeof data.heartbeatIntervalMs === 'number' ? data.heartbeatIntervalMs : 0;
            followServerHeartbeat(heartbeatIntervalMs);
            connected = true;
            current = link;
            outbox.setConnection(connectionId);
            attempt.opened(
              data.resumed ? `Resumed; ${data.replayed} missed messages replayed.` : undefined,
            );
            return;
          }
          case SERVER_FRAME_TYPES.reset:
            resetSession(describeReset(frame.reason));
            return;
          case SERVER_FRAME_TYPES.ack:
          case SERVER_FRAME_TYPES.error: {
            if (typeof frame.id !== 'string') return;
            const answer = waiters.get(frame.id);
            waiters.delete(frame.id);
            answer?.(
              frame.type === SERVER_FRAME_TYPES.ack
                ? { kind: 'ack' }
                : { kind: 'error', error: fromErrorFrameBody(frame.error) },
            );
            return;
          }
          default:
            // `heartbeat`, `pong`, and frame types of later versions: proof of life only.
            return;
        }
      };

      socket.onmessage = (event) => {
        if (settled) return;
        lastActivity = Date.now();
        clearTimeout(probeTimer);
        probeTimer = undefined;
        const data = event.data;
        if (typeof data !== 'string') {
          protocolError('the server sent a binary frame.');
          return;
        }
        if (isControlFrame(data)) {
          onControl(data);
          return;
        }
        if (!connected) {
          protocolError('a message arrived before the connected frame.');
          return;
        }
        // One socket is ordered and lossless: its n-th message is the connection's next one (a
        // snapshot, `a2uiSnapshot`, stands for every message through its `throughSeq`).
        sequence.acceptEntry(sequence.last + 1, data);
        attempt.delivered();
        shell.push({ type: 'messages', messages: data });
        scheduleSeqAck();
      };
      socket.onerror = (event) => {
        const message =
          event?.message ?? (event?.error instanceof Error ? event.error.message : undefined);
        if (message) errorMessage = message;
      };
      socket.onclose = (event) => {
        lastCloseCode = event.code;
        finish(outcomeOfClose(event.code, event.reason, connected, errorMessage));
      };

      const outcomeOfClose = (
        code: number,
        reason: string,
        wasConnected: boolean,
        error: string | undefined,
      ): LinkOutcome => {
        if (shell.closed) return { kind: 'closed', reason: 'Closed by the client.' };
        if (code === WS_CLOSE_CODES.serviceRestart) {
          // The server shuts down and asks to come back: its successor resumes or resets us.
          const hint = tryParseJson<Partial<RestartReason>>(reason)?.retryAfterMs;
          return {
            kind: 'dropped',
            reason: 'The server is restarting.',
            ...(typeof hint === 'number' && hint >= 0 ? { retryAfterMs: hint } : {}),
          };
        }
        if (code === WS_CLOSE_CODES.normal)
          return {
            kind: 'closed',
            reason: `The server closed the connection (${reason || `code ${code}`}).`,
          };
        if (code === WS_CLOSE_CODES.replaced)
          return { kind: 'closed', reason: 'Another socket took over this connection.' };
        if (!wasConnected) {
          // `ws` reports a refused handshake as "Unexpected server response: 401"; a browser
          // tells nothing, so there every refusal is retried with backoff.
          const httpStatus = Number(/Unexpected server response: (\d{3})/.exec(error ?? '')?.[1]);
          if (httpStatus && !isRetryableStatus(httpStatus))
            return {
              kind: 'fatal',
              error: errorOfHttpStatus(
                httpStatus,
                httpStatus === 406
                  ? `The server speaks none of the offered A2UI versions (${offeredVersions.join(', ')}): HTTP 406.`
                  : `The handshake was refused with HTTP ${httpStatus}.`,
              ),
            };
          return dropped(
            `Could not connect${httpStatus ? `: HTTP ${httpStatus}` : error ? `: ${error}` : ''} (code ${code}).`,
          );
        }
        return dropped(`The socket closed (code ${code}${reason ? `: ${reason}` : ''}).`);
      };
    });

  const resetSession = (reason: string): void => {
    connectionId = undefined;
    sequence.reset();
    outbox.reset();
    shell.push({ type: 'reset', reason });
  };

  /** The loop's wake-up signals, plus "at once" after a wake-up replaced the socket. */
  const loopWake = (listener: () => void): (() => void) => {
    if (reconnectNow) {
      reconnectNow = false;
      queueMicrotask(listener);
    }
    return wake(listener);
  };

  const shell = createLinkTransport({
    name: 'WebSocket',
    connect: runLink,
    ...kit.shell,
    wake: loopWake,
    // The goodbye (close code 1000) tells the server, so the agent sees `client-closed` at once.
    goodbye: async () => {
      await current?.leave(defaults.closeTimeoutMs);
    },
    onClose: (error) => {
      // The session is over (closed by either side): a reloaded page starts a new one.
      resume?.clear();
      outbox.close(error);
    },
  });

  return {
    get connectionId() {
      return connectionId;
    },
    get protocolVersion() {
      return protocolVersion;
    },
    get a2uiVersion() {
      return protocolVersion;
    },
    get lastSeq() {
      return sequence.last;
    },
    get status() {
      return shell.status.status;
    },
    get pendingMessages() {
      return outbox.pending;
    },
    events: shell.events,
    send: (
      message: ClientMessage,
      metadata: ClientMessageMetadata,
      sendOptions: SendOptions = {},
    ) => shell.sendWhileOpen(() => outbox.enqueue({ message, metadata }, sendOptions)),
    close: shell.close,
  };
}

/** `{url}/ws` as a `ws:` / `wss:` URL; a relative `url` is resolved against the page. */
function endpointUrl(base: string | URL): URL {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  let url: URL;
  try {
    url = new URL(String(base), page);
  } catch (error) {
    throw new A2uiError('TRANSPORT_ERROR', `Not a URL: ${String(base)} (${describeError(error)}).`);
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new A2uiError(
      'TRANSPORT_ERROR',
      `A WebSocket URL is ws:, wss:, http: or https:, not ${url.protocol}`,
    );
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${WS_PATH}`;
  url.hash = '';
  return url;
}

/** Leaves a socket without waiting for it: `ws` can drop the TCP connection at once. */
function abandon(socket: SocketLike, code: number): void {
  try {
    if (socket.terminate && code !== WS_CLOSE_CODES.normal) socket.terminate();
    else socket.close(code, code === WS_CLOSE_CODES.normal ? 'client-closed' : 'abandoned');
  } catch {
    // Already closed.
  }
}

function describeReset(reason: unknown): string {
  if (reason === 'replay-gap')
    return 'The messages missed while the link was down are no longer buffered.';
  if (reason === 'owner-lost') return 'The server node that held this session is gone.';
  return 'The server no longer knows this connection (expired or restarted).';
}
