/**
 * What every binding's conformance harness (`describeTransportConformance`) needs besides its own
 * server and client, written once: the host options the suite asks for, a reconnect policy that
 * tells a backoff from a storm, a return channel the test can make refuse, and what a hijack
 * attempt's HTTP status means. Runtime-neutral; the Node-only half (one TCP fault proxy per
 * client) is `createProxiedLinks` in `@a2ui-ts/core/testing/node`.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import type { SessionHostOptions } from '../host/session-host.js';
import type { ClientTransport } from '../transport/client-transport.js';
import type { ConformanceServer, ConformanceServerOptions } from './transport-conformance.js';

/**
 * The reconnect and redelivery policy of a harness's transports: redelivery waits at least half
 * of `initialDelayMs` (10 ms), long enough to tell a backoff from a storm of immediate retries;
 * pass `CONFORMANCE_RECONNECT.initialDelayMs / 2` as the harness's `minRetryDelayMs`.
 */
export const CONFORMANCE_RECONNECT = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 5 } as const;

/** The host options {@link conformanceHostOptions} sets. */
export type ConformanceHostOptions = Pick<
  SessionHostOptions,
  'reconnectGraceMs' | 'replayBuffer' | 'maxClientMessageBytes' | 'snapshots' | 'authenticate'
>;

/**
 * The session-host options of a server as the suite asks for it: grace period, replay buffer,
 * client message bound, snapshots, and — when it asks for `auth` — an `authenticate` whose principal is what
 * `principalOf` reads from the request.
 *
 * @param options - what the suite passed to the harness's `start`
 * @param principalOf - the principal of a request @default its `Authorization` header
 * @returns options to spread into the binding's server options
 *
 * @example
 * ```ts
 * const server = createSseJsonRpcServer({ agent, ...conformanceHostOptions(options) });
 * ```
 */
export function conformanceHostOptions(
  options: ConformanceServerOptions,
  principalOf: (request: Request) => string | undefined = (request) =>
    request.headers.get('authorization') ?? undefined,
): ConformanceHostOptions {
  return {
    reconnectGraceMs: options.reconnectGraceMs,
    replayBuffer:
      options.replayBufferEvents === undefined
        ? undefined
        : { maxEvents: options.replayBufferEvents },
    maxClientMessageBytes: options.maxClientMessageBytes,
    snapshots: options.snapshots,
    authenticate: options.auth ? principalOf : undefined,
  };
}

/** The message of every refusal {@link ReturnChannelFaults} makes. */
const REFUSED = 'Refused by the test.';

/**
 * A return channel the test can make refuse, as an overloaded server does: the harness asks
 * {@link refuses} on each delivery of a client message and answers {@link refusal} (or throws
 * {@link refusalError}) when it says so; {@link failReturnChannel} and
 * {@link returnChannelAttempts} are the harness's hooks of the same names.
 */
export interface ReturnChannelFaults
  extends Pick<ConformanceServer, 'failReturnChannel' | 'returnChannelAttempts'> {
  /** A new client name, `client-1`, `client-2`, …, for a header its transport sends. */
  nextName(): string;
  /**
   * Ties `transport` to the key its deliveries arrive under: its name, or a function read when
   * the test fails the channel (the connection id, known once the transport is connected).
   * @returns `transport`
   */
  track<T extends ClientTransport>(transport: T, key: string | (() => string | undefined)): T;
  /**
   * Records one delivery attempt of the client `key` (its time, `Date.now()`), and says whether
   * the test wants it refused. `undefined` (not a client's delivery) is neither recorded nor refused.
   */
  refuses(key: string | undefined): boolean;
  /** The refusal over HTTP: 503 with `{"error": {"code": "LIMIT_EXCEEDED", "message": …}}`. */
  refusal(): Response;
  /**
   * The refusal as the session host's busy agent (`LIMIT_EXCEEDED` with `data.retryAfterMs` 0: no
   * hint beyond the client's own backoff), where there is no HTTP answer.
   */
  refusalError(): A2uiError;
}

/**
 * Creates {@link ReturnChannelFaults}.
 *
 * @example
 * ```ts
 * const faults = createReturnChannelFaults();
 * parent.use('/rpc', (c, next) => (faults.refuses(c.req.header('x-test-client')) ? faults.refusal() : next()));
 * const name = faults.nextName();
 * return faults.track(connect({ headers: { 'x-test-client': name } }), name);
 * ```
 */
export function createReturnChannelFaults(): ReturnChannelFaults {
  const refusals = new Map<string, number>();
  const attempts = new Map<string, number[]>();
  const keys = new Map<ClientTransport, string | (() => string | undefined)>();
  let names = 0;
  const keyOf = (transport: ClientTransport): string | undefined => {
    const key = keys.get(transport);
    return typeof key === 'function' ? key() : key;
  };
  return {
    nextName: () => `client-${++names}`,
    track(transport, key) {
      keys.set(transport, key);
      return transport;
    },
    refuses(key) {
      if (key === undefined) return false;
      const times = attempts.get(key) ?? [];
      times.push(Date.now());
      attempts.set(key, times);
      const left = refusals.get(key) ?? 0;
      if (left <= 0) return false;
      refusals.set(key, left - 1);
      return true;
    },
    refusal: () =>
      Response.json({ error: { code: 'LIMIT_EXCEEDED', message: REFUSED } }, { status: 503 }),
    refusalError: () => new A2uiError('LIMIT_EXCEEDED', REFUSED, { data: { retryAfterMs: 0 } }),
    failReturnChannel(transport, count) {
      const key = keyOf(transport);
      if (key === undefined) throw new Error('failReturnChannel: the transport has no key yet.');
      refusals.set(key, count);
      attempts.set(key, []);
    },
    returnChannelAttempts(transport) {
      const key = keyOf(transport);
      return (key === undefined ? undefined : attempts.get(key)) ?? [];
    },
  };
}

/**
 * One step of a hijack attempt (`HijackOutcome.resume` or `.send`) from its HTTP status:
 * `'FORBIDDEN'` for 403, `'accepted'` for a success (2xx, or 101 for a WebSocket upgrade),
 * `'HTTP <status>'` otherwise.
 *
 * @example
 * ```ts
 * return { resume: hijackStepOutcome(stream.status), send: hijackStepOutcome(post.status) };
 * ```
 */
export function hijackStepOutcome(status: number): string {
  if (status === 403) return 'FORBIDDEN';
  if (status === 101 || (status >= 200 && status < 300)) return 'accepted';
  return `HTTP ${status}`;
}
