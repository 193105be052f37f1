/**
 * One live `GET {base}/sse` response: the `SessionSink` the session host writes to. Events are
 * coalesced per microtask into one chunk, and the bytes the client has not read yet are bounded
 * (the slow-reader policy in the README): past `maxBufferedBytes` the link is dropped and the
 * client must resume from the replay log.
 */
import type { DisconnectReason } from '@a2ui-ts/core';
import type { HostLink, LinkOpenInfo, ReplayEntry, SessionSink } from '@a2ui-ts/core/host';
import { type ConnectedEventData, type ReasonEventData, SSE_EVENTS } from '../protocol/wire.js';

const encoder = new TextEncoder();

/** Pending text above this many characters is flushed at once instead of at the end of the microtask. */
const FLUSH_THRESHOLD_CHARS = 64 * 1024;

/** How a link ended: the client went away, it read too slowly, or the session closed it. */
export type SseLinkEnd = 'cancelled' | 'overflow' | 'closed';

/** Options of {@link SseLink}. */
export interface SseLinkOptions {
  /** Unsent bytes above which the link is dropped. */
  maxBufferedBytes: number;
  /**
   * The `retry:` hint written with the `connected` event, in milliseconds; also the one of the
   * `close` event of a server that shuts down.
   */
  retryMs: number;
  /** True while the server shuts down: the `close` event then asks the client to come back. */
  shuttingDown?: () => boolean;
  /**
   * Destroys the underlying connection at once (on Node, the socket). Without it an overflowing
   * link errors its stream, which every runtime turns into an aborted response.
   */
  destroyConnection?: () => void;
  /** Called once when the link ends. */
  onEnd(link: SseLink, end: SseLinkEnd): void;
  /**
   * The A2UI version negotiated for the stream's request, written as `a2uiVersion` in the
   * `connected` event. @default none (the client offered no versions: the event is as before)
   */
  a2uiVersion?: string;
}

/** Formats one SSE event. `data` must not contain line breaks (JSON text never does). */
export function formatSseEvent(event: string | undefined, data: string, id?: number): string {
  return `${event === undefined ? '' : `event: ${event}\n`}${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
}

/** The SSE comment sent when a link was idle for a keep-alive interval. */
export const KEEP_ALIVE_COMMENT = ': ping\n\n';

/** The SSE stream of one client link. */
export class SseLink implements SessionSink {
  /** The response body. */
  readonly stream: ReadableStream<Uint8Array>;
  /** The connection this link is bound to, once the host bound it. */
  hostLink: HostLink | undefined;
  /** Most unsent bytes seen on this link. */
  peakBufferedBytes = 0;
  readonly #options: SseLinkOptions;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #pending: string[] = [];
  #pendingChars = 0;
  #flushQueued = false;
  #corked = false;
  /** Bytes of the replay written at resume, on top of `maxBufferedBytes`: they must go out in one piece. */
  #replayAllowanceBytes = 0;
  #measureReplay = false;
  #ended = false;
  #wroteSinceTick = false;

  constructor(options: SseLinkOptions) {
    this.#options = options;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#end('cancelled'),
      },
      // A zero high-water mark makes `desiredSize` the negated count of bytes nobody has read.
      new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
    );
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Bytes written to this link that the client has not read yet (as far as the runtime tells). */
  get bufferedBytes(): number {
    if (this.#ended) return 0;
    return Math.max(0, -(this.#controller.desiredSize ?? 0)) + this.#pendingChars;
  }

  /**
   * Bound to a connection: `event: reset` first when the one asked for could not be resumed, then
   * the `retry:` hint and `event: connected`. Held with everything after it until {@link uncork}, so
   * that a resume's replay is measured as one piece.
   */
  open(info: LinkOpenInfo): void {
    this.cork();
    if (info.reset !== undefined)
      this.write(formatSseEvent(SSE_EVENTS.reset, JSON.stringify({ reason: info.reset })));
    const data: ConnectedEventData = {
      connectionId: info.connectionId,
      resumed: info.resumed,
      replayed: info.replayed,
      ...(this.#options.a2uiVersion ? { a2uiVersion: this.#options.a2uiVersion } : {}),
    };
    this.write(
      `retry: ${this.#options.retryMs}\n${formatSseEvent(SSE_EVENTS.connected, JSON.stringify(data))}`,
    );
  }

  deliver(entry: ReplayEntry): void {
    this.write(formatSseEvent(undefined, entry.data, entry.seq));
  }

  close(reason: DisconnectReason): void {
    if (this.#ended) return;
    // A link replaced by a newer one (`reset`) ends silently: its client has already moved on.
    if (reason !== 'reset') this.write(this.#closeEvent(reason));
    this.#corked = false;
    this.#flush();
    if (this.#ended) return;
    this.#end('closed');
    this.#controller.close();
  }

  /**
   * `event: close`; a server that shuts down adds `retry:` and `retryAfterMs`: its client comes
   * back then, and starts over on the restarted server.
   */
  #closeEvent(reason: DisconnectReason): string {
    if (!this.#options.shuttingDown?.())
      return formatSseEvent(SSE_EVENTS.close, JSON.stringify({ reason }));
    const { retryMs } = this.#options;
    const data: ReasonEventData = { reason, retryAfterMs: retryMs };
    return `retry: ${retryMs}\n${formatSseEvent(SSE_EVENTS.close, JSON.stringify(data))}`;
  }

  /** Queues raw event-stream text. */
  write(text: string): void {
    if (this.#ended) return;
    this.#pending.push(text);
    this.#pendingChars += text.length;
    this.#wroteSinceTick = true;
    if (this.#corked) return;
    if (this.#pendingChars >= FLUSH_THRESHOLD_CHARS) this.#flush();
    else if (!this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(() => this.#flush());
    }
  }

  /** Holds writes until {@link uncork}, so a header event can still be put first. */
  cork(): void {
    this.#corked = true;
  }

  /** Sends what was held. Its size is allowed on top of `maxBufferedBytes`, as a replay cannot be split. */
  uncork(): void {
    this.#corked = false;
    this.#measureReplay = true;
    this.#flush();
    this.#measureReplay = false;
  }

  /** Keep-alive: sends `: ping` unless something was written since the last tick. */
  tick(): void {
    if (!this.#wroteSinceTick) this.write(KEEP_ALIVE_COMMENT);
    this.#wroteSinceTick = false;
  }

  /** The client went away (request aborted): same as a cancelled stream. */
  abort(): void {
    this.#end('cancelled');
  }

  #flush(): void {
    this.#flushQueued = false;
    if (this.#ended || this.#corked || this.#pending.length === 0) return;
    const text = this.#pending.length === 1 ? this.#pending[0]! : this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    const bytes = encoder.encode(text);
    // Otherwise a replay larger than the limit would drop every resumed link, forever.
    if (this.#measureReplay) this.#replayAllowanceBytes = bytes.byteLength;
    this.#controller.enqueue(bytes);
    const buffered = Math.max(0, -(this.#controller.desiredSize ?? 0));
    if (buffered > this.peakBufferedBytes) this.peakBufferedBytes = buffered;
    if (buffered > this.#options.maxBufferedBytes + this.#replayAllowanceBytes) this.#overflow();
  }

  #overflow(): void {
    const destroy = this.#options.destroyConnection;
    this.#end('overflow');
    if (destroy) {
      // The runtime then cancels the stream, which drops the queued chunks.
      destroy();
      return;
    }
    this.#controller.error(new Error('The client read too slowly; the link was dropped.'));
  }

  #end(end: SseLinkEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#pending = [];
    this.#pendingChars = 0;
    this.#options.onEnd(this, end);
  }
}
