/**
 * One WebSocket bound to a connection: the `SessionSink` the session host writes to. Frames wait
 * until the socket exists (the connection is opened before the upgrade, so that a refusal can
 * still be an HTTP status), the frames of one tick go out in one TCP write, the bytes the client
 * has not read are bounded (the slow-reader policy in the README), and the heartbeat — a protocol
 * ping, plus a `heartbeat` frame on an idle socket — finds peers that stopped answering.
 */
import type { Duplex } from 'node:stream';
import type { DisconnectReason } from '@a2ui-ts/core';
import type { HostLink, LinkOpenInfo, ReplayEntry, SessionSink } from '@a2ui-ts/core/host';
import type { WebSocket } from 'ws';
import {
  formatConnectedFrame,
  formatResetFrame,
  formatRestartReason,
  HEARTBEAT_FRAME,
} from '../protocol/frames.js';
import { WS_CLOSE_CODES } from '../protocol/wire.js';

/**
 * How a link ended: the session closed it (`closed`), the socket went away (`dropped`), its client
 * read too slowly (`overflow`), missed a pong (`unresponsive`), or sent what this wire format
 * refuses (`refused`).
 */
export type WsLinkEnd = 'closed' | 'dropped' | 'overflow' | 'unresponsive' | 'refused';

/** Options of {@link WsLink}. */
export interface WsLinkOptions {
  /** Unsent bytes above which the socket is dropped. */
  readonly maxBufferedBytes: number;
  /** Announced in the `connected` frame. */
  readonly heartbeatIntervalMs: number;
  /** True while the server shuts down: a closing session then closes its socket with 1012. */
  readonly shuttingDown: () => boolean;
  /** The retry hint of that 1012 close. */
  readonly restartRetryAfterMs: number;
  /** Called once, when the link stops being the connection's sink. */
  readonly onEnd: (link: WsLink, end: WsLinkEnd) => void;
}

/** The sink of one socket. */
export class WsLink implements SessionSink {
  /** The connection this socket is bound to, once the host bound it. */
  hostLink: HostLink | undefined;
  /** Most unsent bytes seen on this socket. */
  peakBufferedBytes = 0;
  readonly #options: WsLinkOptions;
  #ws: WebSocket | undefined;
  #socket: Duplex | undefined;
  /** Frames written before the socket existed. */
  #held: string[] | undefined = [];
  /** The close the session asked for before the socket existed. */
  #pendingClose: { code: number; reason: string } | undefined;
  #end: WsLinkEnd | undefined;
  #gone = false;
  #corked = false;
  #wroteSinceTick = false;
  #alive = true;
  /** Bytes of what was held at the upgrade (a resume's replay), allowed on top of the bound. */
  #replayAllowanceBytes = 0;

  constructor(options: WsLinkOptions) {
    this.#options = options;
  }

  /** How the link ended, or `undefined` while it is the connection's sink. */
  get end(): WsLinkEnd | undefined {
    return this.#end;
  }

  /** Bytes written to the socket that the client has not read yet (as far as Node tells). */
  get bufferedBytes(): number {
    return this.#end === undefined ? (this.#ws?.bufferedAmount ?? 0) : 0;
  }

  open(info: LinkOpenInfo): void {
    if (info.reset !== undefined) this.send(formatResetFrame(info.reset));
    this.send(
      formatConnectedFrame({
        connectionId: info.connectionId,
        resumed: info.resumed,
        replayed: info.replayed,
        heartbeatIntervalMs: this.#options.heartbeatIntervalMs,
      }),
    );
  }

  deliver(entry: ReplayEntry): void {
    this.send(entry.data);
  }

  close(reason: DisconnectReason): void {
    if (this.#end !== undefined) return;
    const close =
      reason === 'reset'
        ? { code: WS_CLOSE_CODES.replaced, reason: 'replaced' }
        : this.#options.shuttingDown()
          ? {
              code: WS_CLOSE_CODES.serviceRestart,
              reason: formatRestartReason(reason, this.#options.restartRetryAfterMs),
            }
          : { code: WS_CLOSE_CODES.normal, reason };
    this.#finish('closed');
    if (this.#ws) this.#ws.close(close.code, close.reason);
    else this.#pendingClose = close;
  }

  /**
   * The upgrade is done: sends what was held (the `connected` frame, a resume's replay) in one
   * write, then any close the session asked for meanwhile.
   */
  attach(ws: WebSocket, socket: Duplex): void {
    this.#ws = ws;
    this.#socket = socket;
    const held = this.#held ?? [];
    this.#held = undefined;
    socket.cork();
    for (const frame of held) ws.send(frame);
    // Otherwise a replay larger than the bound would drop every resumed socket, forever.
    this.#replayAllowanceBytes = ws.bufferedAmount;
    socket.uncork();
    this.#wroteSinceTick = held.length > 0;
    if (this.#pendingClose) ws.close(this.#pendingClose.code, this.#pendingClose.reason);
    this.#pendingClose = undefined;
  }

  /** Writes one text frame; frames of the same tick share one TCP write. */
  send(frame: string): void {
    if (this.#end !== undefined) return;
    const ws = this.#ws;
    if (!ws) {
      this.#held?.push(frame);
      return;
    }
    if (!this.#corked) {
      this.#corked = true;
      this.#socket!.cork();
      queueMicrotask(() => {
        this.#corked = false;
        this.#socket!.uncork();
      });
    }
    ws.send(frame);
    this.#wroteSinceTick = true;
    const buffered = ws.bufferedAmount;
    if (buffered > this.peakBufferedBytes) this.peakBufferedBytes = buffered;
    if (buffered > this.#options.maxBufferedBytes + this.#replayAllowanceBytes) {
      this.#finish('overflow');
      ws.terminate();
    }
  }

  /** The peer answered a ping, or sent a frame. */
  markAlive(): void {
    this.#alive = true;
  }

  /**
   * One heartbeat interval passed: a peer that did not answer the last ping is terminated;
   * otherwise it is pinged, and sent a `heartbeat` frame if nothing was written since the last tick.
   */
  tick(): void {
    const ws = this.#ws;
    if (!ws || this.#end !== undefined) return;
    if (!this.#alive) {
      this.#finish('unresponsive');
      ws.terminate();
      return;
    }
    this.#alive = false;
    ws.ping();
    if (!this.#wroteSinceTick) this.send(HEARTBEAT_FRAME);
    this.#wroteSinceTick = false;
  }

  /** Closes the socket with `code` because of what the client sent. */
  refuse(code: number, reason: string): void {
    if (this.#end !== undefined) return;
    this.#finish('refused');
    this.#ws?.close(code, reason);
  }

  /**
   * The socket closed (or never came): the link ends as `dropped` unless it had ended already.
   * @returns how it had ended before (`undefined`: it had not), or `undefined` after the first call
   */
  socketGone(): { endedBefore: WsLinkEnd | undefined } | undefined {
    if (this.#gone) return undefined;
    this.#gone = true;
    const endedBefore = this.#end;
    this.#finish('dropped');
    return { endedBefore };
  }

  #finish(end: WsLinkEnd): void {
    if (this.#end !== undefined) return;
    this.#end = end;
    // A session that closed before the upgrade still has its last frames sent, then the close.
    if (end !== 'closed') this.#held = undefined;
    this.#options.onEnd(this, end);
  }
}
