/**
 * The options every client transport takes (ARCHITECTURE §2 "Link kit"), declared once: a
 * binding's options extend {@link LinkOptions} (over HTTP, {@link HttpLinkOptions}), redeclaring an
 * option only where its meaning or default differs, and {@link resolveLinkOptions} turns them into
 * the link kit's pieces with their defaults.
 */
import { createConnectionId } from '../agent/connection-id.js';
import {
  type Backoff,
  type BackoffOptions,
  createBackoff,
  RECONNECT_DEFAULTS,
  type ReconnectOptions,
} from './backoff.js';
import type { ResumeStore } from './resume-store.js';

/** Options of every client transport. Durations in milliseconds. */
export interface LinkOptions {
  /** Closes the transport when it aborts. */
  signal?: AbortSignal;
  /** Reconnect and redelivery policy (exponential backoff with jitter). @default RECONNECT_DEFAULTS */
  reconnect?: ReconnectOptions;
  /** Uniform random numbers in [0, 1) for the jitter; seed it in tests. @default Math.random */
  random?: () => number;
  /** Most client messages waiting for delivery; `send` throws `LIMIT_EXCEEDED` beyond. @default 1000 */
  maxQueuedMessages?: number;
  /** Most queued client messages sent in one delivery. @default 100 */
  maxBatchLength?: number;
  /**
   * Creates the ids client messages are delivered with, which are their idempotency keys.
   * @default a random prefix per transport + a counter
   */
  createRequestId?: () => string;
  /**
   * Subscribes to "reconnect now" signals while waiting to reconnect or to send a queued message
   * again; returns the unsubscribe function.
   * @default the browser's `online` and `visibilitychange` events, where they exist
   */
  wake?: (listener: () => void) => () => void;
  /**
   * Where the transport keeps its resume token (its connection id), so that a reloaded page (or,
   * with a `localStorage`-backed store, a second tab) resumes the session and shows the same
   * surfaces instead of starting over: the server replays what it holds or sends a snapshot, and
   * the agent's `onConnect` does not run again. Cleared when the session ends (closed by either
   * side, or reset to a new one). `false` keeps nothing.
   * @default `sessionStorage` under `a2ui-resume:<binding>:<url>` where the runtime has it (a
   *   browser); none elsewhere (Node)
   */
  resume?: ResumeStore | false;
}

/** Headers of every request, or a (possibly async) function asked before each one. */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/** Options of a client transport that speaks HTTP with `fetch`. */
export interface HttpLinkOptions extends LinkOptions {
  /**
   * Headers of every request (e.g. `Authorization`). A function is called before each request,
   * so a refreshed token is picked up on reconnect.
   * @default none
   */
  headers?: HeadersOption;
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** `credentials` of every request (cookies in browsers). @default the runtime's default ('same-origin') */
  credentials?: RequestCredentials;
}

/** Defaults of {@link LinkOptions} (and the goodbye's deadline), in one place. */
export const LINK_DEFAULTS = {
  maxQueuedMessages: 1_000,
  maxBatchLength: 100,
  /** How long `close()` waits for the server to take the goodbye. */
  closeTimeoutMs: 2_000,
} as const;

/** {@link LinkOptions} with their defaults, as the link kit's pieces take them. */
export interface ResolvedLinkOptions {
  /** `reconnect` over {@link RECONNECT_DEFAULTS}. */
  readonly reconnect: Required<ReconnectOptions>;
  /** The jitter's random source. */
  readonly random: () => number;
  /** `reconnect` with `random`: the options of a backoff of the binding's own (a resume loop). */
  readonly retry: BackoffOptions;
  /** The reconnect loop's backoff (the binding may feed it the server's retry hint). */
  readonly backoff: Backoff;
  /** `createRequestId`, or a random prefix per transport + a counter. */
  readonly createRequestId: () => string;
  /** What `new Outbox({...})` takes from the options: spread it in. */
  readonly outbox: {
    readonly maxQueuedMessages: number;
    readonly maxBatchLength: number;
    readonly createId: () => string;
    readonly backoff: BackoffOptions;
    readonly wake: ((listener: () => void) => () => void) | undefined;
  };
  /** What `createLinkTransport({...})` takes from the options: spread it in. */
  readonly shell: {
    readonly backoff: Backoff;
    readonly stableAfterMs: number;
    readonly wake: ((listener: () => void) => () => void) | undefined;
    readonly signal: AbortSignal | undefined;
  };
}

/**
 * Ids that do not repeat within a connection's de-duplication window: a random prefix (128
 * bits, {@link createConnectionId}) and a counter, `<prefix>-1`, `<prefix>-2`, …
 *
 * @example
 * ```ts
 * const nextId = createRequestIdSequence();
 * nextId(); // 'k3yQ2m0JcN1xV8fR4tL6pA-1'
 * ```
 */
export function createRequestIdSequence(): () => string {
  const prefix = createConnectionId();
  let counter = 0;
  return () => `${prefix}-${++counter}`;
}

/**
 * Resolves a binding's {@link LinkOptions} against their defaults.
 *
 * @param options - the binding's options
 * @param defaults - the binding's documented defaults of `maxQueuedMessages` and `maxBatchLength`
 *   @default LINK_DEFAULTS
 * @returns the reconnect policy, the loop's backoff, request ids, and spreadable options of the
 *   outbox and the shell
 *
 * @example
 * ```ts
 * const link = resolveLinkOptions(options, MY_CLIENT_DEFAULTS);
 * const outbox = new Outbox({ ...link.outbox, deliver, onTrouble: (t) => shell.status.trouble(t) });
 * const shell = createLinkTransport({ name: 'My', connect: runLink, ...link.shell, onClose });
 * ```
 */
export function resolveLinkOptions(
  options: LinkOptions,
  defaults: {
    readonly maxQueuedMessages?: number;
    readonly maxBatchLength?: number;
  } = LINK_DEFAULTS,
): ResolvedLinkOptions {
  const reconnect = { ...RECONNECT_DEFAULTS, ...options.reconnect };
  const random = options.random ?? Math.random;
  const retry = { ...reconnect, random };
  const backoff = createBackoff(retry);
  const createRequestId = options.createRequestId ?? createRequestIdSequence();
  return {
    reconnect,
    random,
    retry,
    backoff,
    createRequestId,
    outbox: {
      maxQueuedMessages:
        options.maxQueuedMessages ?? defaults.maxQueuedMessages ?? LINK_DEFAULTS.maxQueuedMessages,
      maxBatchLength:
        options.maxBatchLength ?? defaults.maxBatchLength ?? LINK_DEFAULTS.maxBatchLength,
      createId: createRequestId,
      backoff: retry,
      wake: options.wake,
    },
    shell: {
      backoff,
      stableAfterMs: reconnect.stableAfterMs,
      wake: options.wake,
      signal: options.signal,
    },
  };
}
