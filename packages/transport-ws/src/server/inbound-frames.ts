/**
 * The codec of client → server frames: each text frame of one socket is handled after the one
 * before it (so client messages reach the agent in order), classified (control frame, envelope,
 * bare v0.9 message), handed to the session host, and answered with an `ack` or an `error` frame.
 * A bad frame gets its `error` frame and changes nothing else, on this socket or any other.
 *
 * A client message is acknowledged once the agent's turn for it is over (or `turnWaitMs` passed),
 * never when it is merely queued: a server that dies right after an `ack` has applied the message.
 * Control frames (`ping`, `ack {seq}`) do not wait behind a turn: a liveness probe is answered at
 * once however long the agent works.
 *
 * After a busy refusal (`LIMIT_EXCEEDED`), later client messages of the socket are refused too
 * until the client sends one of the refused ones again: otherwise a message sent after the refused
 * one could reach the agent before it.
 */
import { A2uiError, describeEchoedValue, isRecord } from '@a2ui-ts/core';
import type { SessionHost } from '@a2ui-ts/core/host';
import { withDeadline } from '@a2ui-ts/core/link';
import { type FrameShape, toErrorFrameBody } from '../protocol/frame-errors.js';
import { formatAckFrame, formatErrorFrame, PONG_FRAME } from '../protocol/frames.js';
import { CLIENT_FRAME_TYPES } from '../protocol/wire.js';

/** What the codec needs from the socket. */
export interface InboundContext {
  readonly host: SessionHost;
  /** The connection the socket is bound to. */
  readonly connectionId: string;
  /** What `authenticate` returned for the handshake. */
  readonly principal: unknown;
  /** Where answers go. */
  reply(frame: string): void;
  /** Whether the socket still takes frames. */
  readonly open: () => boolean;
  /** Receives failures that are not the client's fault. */
  readonly onError: (error: unknown) => void;
  /** Stops reading the socket: too many frames wait (backpressure on a flooding client). */
  readonly pause: () => void;
  /** Reads the socket again. */
  readonly resume: () => void;
  /**
   * Most characters of an id an `error` frame echoes (the host's `maxRequestIdLength`).
   * @default MAX_ECHOED_ID_LENGTH (256)
   */
  readonly maxEchoedIdLength?: number;
  /** Longest wait for the agent's turn before a message is acknowledged anyway; 0 acks once queued. */
  readonly turnWaitMs: number;
  /**
   * False while the server shuts down: client messages are no longer handed to the agent nor
   * answered, so the client sends them again (same id) on its next socket.
   */
  readonly accepting: () => boolean;
}

/** A frame's answer: now, none, or once the agent's turn for it is over. */
type Answer = string | undefined | { readonly later: Promise<string> };

/** A frame parsed as the socket received it. */
type Parsed = { ok: true; frame: unknown } | { ok: false; error: A2uiError };

/**
 * Frames (and their bytes) that may wait to be handled before the socket stops being read. Local
 * sessions take a frame in a microtask; these bound a client that floods a socket whose frames
 * wait on something slower (another node, a store).
 */
const MAX_WAITING_FRAMES = 256;
const MAX_WAITING_BYTES = 4 * 1_048_576;

/**
 * Busy-refused ids remembered per socket. A client retries from the first refused message, so
 * the set only needs the first ones; the bound keeps a client from growing it.
 */
const MAX_REMEMBERED_BUSY_IDS = 1_024;

const refusal = (
  code: 'VALIDATION_FAILED' | 'INVALID_JSON' | 'FORBIDDEN',
  message: string,
  path?: string,
) => new A2uiError(code, message, path === undefined ? {} : { path });

/** The frames of one socket, in order. */
export class InboundFrames {
  readonly #context: InboundContext;
  #chain: Promise<void> = Promise.resolve();
  /** Ids refused as busy since the last accepted message; `undefined` when not busy. */
  #busy: Set<string> | undefined;
  #busyRetryAfterMs = 1_000;
  #waitingFrames = 0;
  #waitingBytes = 0;
  #paused = false;
  /** Answers that wait for a turn. */
  readonly #later = new Set<Promise<string>>();

  constructor(context: InboundContext) {
    this.#context = context;
  }

  /** Queues one text frame of `bytes` bytes (UTF-8, as received). */
  push(text: string, bytes: number): void {
    const parsed = parse(text);
    if (parsed.ok && isRecord(parsed.frame) && 'type' in parsed.frame) {
      this.#control(parsed.frame).then(
        (answer) => this.#answer(answer),
        (error: unknown) => this.#answer(this.#refuse(undefined, error)),
      );
      return;
    }
    this.#waitingFrames++;
    this.#waitingBytes += bytes;
    if (
      !this.#paused &&
      (this.#waitingFrames > MAX_WAITING_FRAMES || this.#waitingBytes > MAX_WAITING_BYTES)
    ) {
      this.#paused = true;
      this.#context.pause();
    }
    this.#chain = this.#chain.then(async () => {
      try {
        if (!this.#context.open()) return;
        let answer: Answer;
        try {
          answer = await this.#handle(parsed, bytes);
        } catch (error) {
          this.#context.onError(error);
          answer = formatErrorFrame(undefined, toErrorFrameBody(error, 'frame'));
        }
        if (typeof answer === 'object') this.#answerLater(answer.later);
        else this.#answer(answer);
      } finally {
        this.#waitingFrames--;
        this.#waitingBytes -= bytes;
        if (this.#paused && this.#waitingFrames === 0) {
          this.#paused = false;
          this.#context.resume();
        }
      }
    });
  }

  /** Frames received and not handled yet. */
  get waiting(): number {
    return this.#waitingFrames;
  }

  /** Settles once every frame received so far was handled, and answered when it gets an answer. */
  async idle(): Promise<void> {
    await this.#chain;
    await Promise.allSettled([...this.#later]);
  }

  #answer(answer: string | undefined): void {
    if (answer !== undefined && this.#context.open()) this.#context.reply(answer);
  }

  /** The next frame is handled meanwhile: turns follow one another in the session anyway. */
  #answerLater(later: Promise<string>): void {
    this.#later.add(later);
    void later.then((answer) => {
      this.#later.delete(later);
      this.#answer(answer);
    });
  }

  async #handle(parsed: Parsed, bytes: number): Promise<Answer> {
    if (!parsed.ok) return this.#refuse(undefined, parsed.error);
    const frame = parsed.frame;
    if (!isRecord(frame))
      return this.#refuse(undefined, refusal('VALIDATION_FAILED', 'A frame is a JSON object.', ''));
    const id = frame.id;
    if (id !== undefined && typeof id !== 'string')
      return this.#refuse(undefined, refusal('VALIDATION_FAILED', 'id must be a string.', '/id'));
    // An empty id would be one idempotency key for all: every later frame with it a "duplicate".
    if (id === '')
      return this.#refuse(id, refusal('VALIDATION_FAILED', 'id must not be empty.', '/id'));

    const { host, connectionId, principal } = this.#context;
    let shape: FrameShape;
    let message: unknown;
    let metadata: unknown;
    if ('message' in frame) {
      shape = 'envelope';
      message = frame.message;
      metadata = frame.metadata;
      if (frame.connectionId !== undefined && frame.connectionId !== connectionId)
        return this.#refuse(
          id,
          refusal(
            'FORBIDDEN',
            'A socket carries the messages of its own connection only.',
            '/connectionId',
          ),
        );
    } else if ('version' in frame) {
      shape = 'bare';
      message = frame;
    } else {
      return this.#refuse(
        id,
        refusal(
          'VALIDATION_FAILED',
          'A client frame is a control frame ("type"), an envelope ("message"), or a v0.9 client message.',
          '',
        ),
      );
    }

    // Messages without an id cannot be sent "again": only the host's own check applies to them.
    if (id !== undefined && this.#busy) {
      if (!this.#busy.has(id)) {
        if (this.#busy.size < MAX_REMEMBERED_BUSY_IDS) this.#busy.add(id);
        return formatErrorFrame(
          id,
          {
            code: 'LIMIT_EXCEEDED',
            message: 'An earlier message of this socket waits for the agent; send it again first.',
            retryAfterMs: this.#busyRetryAfterMs,
          },
          this.#context.maxEchoedIdLength,
        );
      }
      this.#busy = undefined;
    }
    // Not handed over, not answered: the client sends it again on its next socket, to this
    // connection wherever it lives then, or it is rejected by the client's reset.
    if (!this.#context.accepting()) return undefined;
    const { turnWaitMs } = this.#context;
    const wait = turnWaitMs > 0 ? withDeadline(undefined, turnWaitMs) : undefined;
    let accepted!: () => void;
    const queued = new Promise<void>((resolve) => {
      accepted = resolve;
    });
    const later = host
      .receive(connectionId, {
        principal,
        message,
        metadata,
        requestId: id,
        bytes,
        awaitTurn: wait !== undefined,
        signal: wait?.signal,
        onAccepted: accepted,
      })
      .then(
        ({ duplicate }) => formatAckFrame(id, duplicate),
        (error: unknown) => {
          if (A2uiError.isInstance(error) && error.code === 'LIMIT_EXCEEDED') {
            if (id !== undefined) this.#busy = new Set([id]);
            const hint = error.data?.retryAfterMs;
            if (typeof hint === 'number') this.#busyRetryAfterMs = hint;
          }
          return this.#refuse(id, error, shape);
        },
      )
      .finally(() => wait?.clear());
    // Handed over in order: the next frame waits until this one is queued (or refused).
    await Promise.race([queued, later]);
    return { later };
  }

  async #control(frame: Record<string, unknown>): Promise<string | undefined> {
    const id = frame.id;
    if (id !== undefined && typeof id !== 'string')
      return this.#refuse(undefined, refusal('VALIDATION_FAILED', 'id must be a string.', '/id'));
    const { host, connectionId, principal } = this.#context;
    switch (frame.type) {
      case CLIENT_FRAME_TYPES.ping:
        return PONG_FRAME;
      case CLIENT_FRAME_TYPES.ack: {
        const seq = frame.seq;
        if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)
          return this.#refuse(
            id,
            refusal('VALIDATION_FAILED', 'seq must be a non-negative integer.', '/seq'),
          );
        try {
          await host.acknowledge(connectionId, { principal, seq });
        } catch (error) {
          return this.#refuse(id, error);
        }
        return undefined;
      }
      default:
        return this.#refuse(
          id,
          refusal('VALIDATION_FAILED', `Unknown frame type ${describeType(frame.type)}.`, '/type'),
        );
    }
  }

  #refuse(id: string | undefined, error: unknown, shape: FrameShape = 'frame'): string {
    if (!A2uiError.isInstance(error)) this.#context.onError(error);
    return formatErrorFrame(id, toErrorFrameBody(error, shape), this.#context.maxEchoedIdLength);
  }
}

function parse(text: string): Parsed {
  try {
    return { ok: true, frame: JSON.parse(text) };
  } catch {
    // One fixed message, as the HTTP bindings answer: the parser's own text is an engine detail
    // and quotes part of the frame back.
    return { ok: false, error: refusal('INVALID_JSON', 'The frame is not valid JSON.') };
  }
}

/**
 * A frame's `type` for an error message: a string (at most 64 characters of it), else its JSON
 * type — never the value itself, which may be nested 100,000 levels deep.
 */
function describeType(type: unknown): string {
  if (typeof type === 'string') return describeEchoedValue(type, { quote: 'json' });
  return `(a JSON ${Array.isArray(type) ? 'array' : type === null ? 'null' : typeof type})`;
}
