/**
 * How long a Node HTTP server lets a client take to send its request — the defence against
 * slowloris (many sockets that each send a header byte now and then, holding the server's
 * sockets and memory forever). Node's own defaults are 60 s for the headers and 300 s for the
 * whole request, checked only every 30 s: 1,500 such sockets were all still open after 12 s.
 * Every `serve…` entry of the bindings (through {@link listenHttpServer}) sets these instead.
 *
 * Only receiving the request is bounded: a long response (an SSE stream, a long poll) and an
 * upgraded socket (WebSocket) are not, and neither are the bindings' own body reads, which time
 * out on their own (`readRequestBody`, 10 s).
 */

/** Bounds on receiving a request (Node `http.Server` timeouts), in milliseconds; 0 turns one off. */
export interface HttpTimeoutOptions {
  /**
   * Most time from a connection's (or a keep-alive request's) start until its request headers are
   * complete; a slower client is answered 408 and its socket closed (Node `headersTimeout`).
   * @default 10000
   */
  headersTimeoutMs?: number;
  /**
   * Most time to receive a whole request, headers and body (Node `requestTimeout`); at least
   * `headersTimeoutMs`. @default 30000
   */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive socket stays open (Node `keepAliveTimeout`). @default 5000 */
  keepAliveTimeoutMs?: number;
  /**
   * How often the two timeouts above are checked (Node `connectionsCheckingInterval`): a slow
   * client is cut at most this much after its timeout passes. Cannot be 0. @default 1000
   */
  timeoutCheckIntervalMs?: number;
}

/** Defaults of {@link HttpTimeoutOptions}, in one place. */
export const HTTP_TIMEOUT_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckIntervalMs: 1_000,
} as const;

/** The timeouts of a Node `http.Server` that {@link applyHttpTimeouts} sets. */
export interface HttpTimeoutTarget {
  headersTimeout?: number;
  requestTimeout?: number;
  keepAliveTimeout?: number;
}

/**
 * Sets the timeouts of `server`, a Node `http.Server` that does not listen yet (the check
 * interval is read when it starts listening).
 *
 * @param server - a Node `http.Server` (`http.createServer`, `@hono/node-server`'s
 *   `createAdaptorServer`), not listening yet
 * @param options - see {@link HttpTimeoutOptions}; defaults {@link HTTP_TIMEOUT_DEFAULTS}
 * @throws TypeError when a value is not a non-negative integer (`timeoutCheckIntervalMs`: positive),
 *   or `headersTimeoutMs` exceeds a non-zero `requestTimeoutMs`
 *
 * @example
 * ```ts
 * const server = createServer(handler);
 * applyHttpTimeouts(server, { headersTimeoutMs: 5_000 });
 * server.listen(8787);
 * ```
 */
export function applyHttpTimeouts(
  server: HttpTimeoutTarget,
  options: HttpTimeoutOptions = {},
): void {
  const value = (name: keyof HttpTimeoutOptions, min = 0): number => {
    const chosen = options[name] ?? HTTP_TIMEOUT_DEFAULTS[name];
    if (!Number.isSafeInteger(chosen) || chosen < min)
      throw new TypeError(`${name} must be an integer of at least ${min} (milliseconds).`);
    return chosen;
  };
  const headersTimeout = value('headersTimeoutMs');
  const requestTimeout = value('requestTimeoutMs');
  if (requestTimeout > 0 && headersTimeout > requestTimeout)
    throw new TypeError('headersTimeoutMs must be at most requestTimeoutMs.');
  server.headersTimeout = headersTimeout;
  server.requestTimeout = requestTimeout;
  server.keepAliveTimeout = value('keepAliveTimeoutMs');
  // Not in Node's typings as a property, but read from the server when it starts listening
  // (`setupConnectionsTracking`, Node ≥ 18): the only way to set it on a server made elsewhere.
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = value(
    'timeoutCheckIntervalMs',
    1,
  );
}
