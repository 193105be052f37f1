/**
 * The response of one run: AG-UI events in the exact bytes of `@ag-ui/encoder` (SSE, or the
 * length-prefixed protobuf when the client's `Accept` names it), and the lifecycle the client's
 * verifier checks (digest `ag-ui.md` §3.7): `RUN_STARTED` first, then exactly one `RUN_FINISHED`
 * or one `RUN_ERROR`, nothing after. Keep-alive comments go out while the run is silent (SSE only:
 * protobuf has no comments). The bytes the client has not read are bounded.
 *
 * SSE frames are `data: <JSON>\n\n` exactly as `EventEncoder.encodeSSE` writes them (the events
 * built here never hold the optional `null`s it strips, so `JSON.stringify` is the same text), and
 * the frames of one tick go out as one chunk.
 */
import { type BaseEvent, EventType } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { PROTOBUF_MEDIA_TYPE } from '../protocol/constants.js';

const textEncoder = new TextEncoder();

/** Pending SSE text above this many characters is flushed at once, not at the end of the tick. */
const FLUSH_THRESHOLD_CHARS = 64 * 1024;

/** The SSE comment sent while a run is silent. */
const KEEP_ALIVE_COMMENT = ': keepalive\n\n';

/** How a run's stream ended. */
export type RunStreamEnd = 'finished' | 'errored' | 'cancelled' | 'overflow';

/** Options of {@link RunStream}. */
export interface RunStreamOptions {
  /** The request's `Accept` header. */
  accept: string | undefined;
  /** Unread bytes above which the stream is dropped. */
  maxBufferedBytes: number;
  /** Called once when the stream ends, however it ends. */
  onEnd(end: RunStreamEnd): void;
}

/**
 * Chooses protobuf only when `accept` literally lists its media type: `@ag-ui/encoder` also
 * accepts `*&#47;*`, which would answer curl and proxies in binary.
 */
function wantsProtobuf(accept: string | undefined): boolean {
  return accept?.toLowerCase().includes(PROTOBUF_MEDIA_TYPE) ?? false;
}

/** One run's event stream. */
export class RunStream {
  /** The response body. */
  readonly body: ReadableStream<Uint8Array>;
  readonly contentType: string;
  readonly #encoder: EventEncoder;
  readonly #protobuf: boolean;
  readonly #options: RunStreamOptions;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #started = false;
  #ended = false;
  #wroteSinceTick = false;
  #pending: string[] = [];
  #pendingChars = 0;
  #flushQueued = false;

  constructor(options: RunStreamOptions) {
    this.#options = options;
    this.#protobuf = wantsProtobuf(options.accept);
    this.#encoder = new EventEncoder(this.#protobuf ? { accept: PROTOBUF_MEDIA_TYPE } : {});
    this.contentType = this.#protobuf ? PROTOBUF_MEDIA_TYPE : 'text/event-stream';
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#end('cancelled'),
      },
      // With a zero high-water mark, `desiredSize` is minus the bytes nobody has read.
      new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
    );
  }

  /** True once the terminal event was written, or the client went away. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Writes `RUN_STARTED` (once). */
  start(threadId: string, runId: string): void {
    if (this.#started) return;
    this.#started = true;
    this.#write({ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent);
  }

  /** Writes one event of the run's body. */
  emit(event: BaseEvent): void {
    if (!this.#started || this.#ended) return;
    this.#write(event);
  }

  /** Writes one event of the run's body given as its JSON text (composed without re-serialising). */
  emitJson(json: string): void {
    if (!this.#started || this.#ended) return;
    if (this.#protobuf) this.#write(JSON.parse(json) as BaseEvent);
    else this.#writeText(`data: ${json}\n\n`);
  }

  /** Writes `RUN_FINISHED` and ends the stream. */
  finish(threadId: string, runId: string): void {
    if (!this.#started || this.#ended) return;
    this.#write({ type: EventType.RUN_FINISHED, threadId, runId } as BaseEvent);
    this.#close('finished');
  }

  /** Writes `RUN_ERROR` and ends the stream (`RUN_ERROR` may come first, before `RUN_STARTED`). */
  fail(code: string, message: string): void {
    if (this.#ended) return;
    this.#write({ type: EventType.RUN_ERROR, message, code } as BaseEvent);
    this.#close('errored');
  }

  /** Keep-alive: a comment unless something was written since the last tick. */
  tick(): void {
    if (!this.#wroteSinceTick && !this.#protobuf && this.#started && !this.#ended)
      this.#queueText(KEEP_ALIVE_COMMENT);
    this.#wroteSinceTick = false;
  }

  /** The client went away (the request aborted). */
  abort(): void {
    this.#end('cancelled');
  }

  #write(event: BaseEvent): void {
    if (!this.#protobuf) {
      this.#writeText(`data: ${JSON.stringify(event)}\n\n`);
      return;
    }
    this.#wroteSinceTick = true;
    this.#enqueue(this.#encoder.encodeBinary(event));
  }

  #writeText(frame: string): void {
    this.#wroteSinceTick = true;
    this.#queueText(frame);
  }

  #queueText(text: string): void {
    if (this.#ended) return;
    this.#pending.push(text);
    this.#pendingChars += text.length;
    if (this.#pendingChars >= FLUSH_THRESHOLD_CHARS) this.#flush();
    else if (!this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(() => this.#flush());
    }
  }

  #flush(): void {
    this.#flushQueued = false;
    if (this.#ended || this.#pending.length === 0) return;
    const text = this.#pending.length === 1 ? this.#pending[0]! : this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    this.#enqueue(textEncoder.encode(text));
  }

  #enqueue(bytes: Uint8Array): void {
    if (this.#ended) return;
    this.#controller.enqueue(bytes);
    const unread = -(this.#controller.desiredSize ?? 0);
    if (unread > this.#options.maxBufferedBytes) {
      this.#end('overflow');
      this.#controller.error(new Error('The client read too slowly; the run was dropped.'));
    }
  }

  #close(end: RunStreamEnd): void {
    if (this.#ended) return;
    this.#flush();
    if (this.#ended) return;
    this.#end(end);
    this.#controller.close();
  }

  #end(end: RunStreamEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#pending = [];
    this.#pendingChars = 0;
    this.#options.onEnd(end);
  }
}
