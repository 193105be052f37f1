/**
 * The client connector (ARCHITECTURE §4 "REST"): a `ClientTransport` over plain HTTP. It opens a
 * connection with `POST /connect`, sends each client message as a `POST` whose answer (the agent's
 * turn) is queued as events before `send` settles, and long-polls `GET /messages` for what the
 * agent pushes between turns. Every message carries its `seq`, so turn answers and polls are
 * applied in order and once. Reconnects, sequence checks, the outbox and the status are core's
 * link kit; this file holds only the link (the poll loop) and the codec.
 */
import {
  A2uiError,
  type ClientMessage,
  type ClientMessageMetadata,
  type ClientTransport,
  type ConnectionStatus,
  isOvertakingMessage,
  resolveOfferedVersions,
  type SendOptions,
} from '@a2ui-ts/core';
import { A2UI_VERSIONS_HEADER } from '@a2ui-ts/core/host';
import {
  createLinkTransport,
  describeTroubleCause,
  type HttpLinkOptions,
  isRetryableStatus,
  LINK_DEFAULTS,
  type LinkAttempt,
  type LinkOutcome,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  type ReconnectOptions,
  readSessionSnapshot,
  resolveLinkOptions,
  resolveResumeStore,
  SequenceTracker,
  troubleCauseOf,
} from '@a2ui-ts/core/link';
import { REST_PATHS, type RestMessagesAnswer } from '../protocol/wire.js';
import {
  baseUrlOf,
  clientMessageRequest,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Exchange,
  errorOfAnswer,
  exchange,
  firstSeqOf,
  httpOptionsOf,
  parseConnectAnswer,
  parseMessagesAnswer,
  pollQuery,
} from './http.js';

/**
 * Options of {@link connectRest}. Durations in milliseconds, sizes in bytes. `headers`, `fetch`,
 * `credentials`, `signal`, `random`, `maxQueuedMessages` and `wake` are core's
 * {@link HttpLinkOptions}; each message is sent alone (no `maxBatchLength`).
 */
export interface RestClientOptions extends Omit<HttpLinkOptions, 'maxBatchLength'> {
  /** Base URL the server is mounted at; the client uses `{url}/connect`, `{url}/messages`, … */
  url: string | URL;
  /** Reconnect (poll) and redelivery policy: exponential backoff with jitter. */
  reconnect?: ReconnectOptions;
  /**
   * How long each long poll asks the server to wait for a message (`waitMs`; the server caps it
   * with its `maxPollWaitMs`). Keep it below the idle timeout of proxies on the way.
   * @default 25000
   */
  pollWaitMs?: number;
  /**
   * Deadline of one `POST` (keep it above the server's `turnTimeoutMs`), and of a poll beyond its
   * `pollWaitMs`. A timed-out `POST` is retried with the same idempotency key.
   * @default 30000
   */
  requestTimeoutMs?: number;
  /**
   * Largest answer accepted; a larger one counts as a failed request. A turn or poll answer holds
   * at most what the connection's replay log keeps: keep this above the server's
   * `replayBuffer.maxBytes` (4 MiB by default). @default 8388608
   */
  maxResponseBytes?: number;
  /** Creates idempotency keys (`Idempotency-Key`). @default a random prefix + a counter */
  createRequestId?: () => string;
  /**
   * The A2UI versions this client reads, offered with every `POST {url}/connect` in the header
   * `A2UI-Versions: v1.0, v0.9.1, v0.9, v0.8`; the server answers with the one it speaks (`a2uiVersion`,
   * {@link RestTransport.protocolVersion}), or refuses with 406 (`NOT_SUPPORTED`, final) when it
   * speaks none of them.
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[];
}

/** The transport returned by {@link connectRest}. */
export interface RestTransport extends ClientTransport {
  /** The current connection id (after `POST /connect` answered). */
  readonly connectionId: string | undefined;
  /** `seq` of the last message applied (what the next poll asks to continue after). */
  readonly lastSeq: number;
  readonly status: ConnectionStatus;
  /** Client messages whose turn has not been answered yet. */
  readonly pendingMessages: number;
  /**
   * The A2UI version the server speaks on this connection (`a2uiVersion` of the connect answer);
   * `undefined` before it, or from a server older than negotiation.
   */
  readonly protocolVersion: string | undefined;
}

/** Defaults of {@link RestClientOptions}, in one place. */
export const REST_CLIENT_DEFAULTS = {
  pollWaitMs: 25_000,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  /** How long `close()` waits for the server to acknowledge `POST /disconnect`. */
  closeTimeoutMs: LINK_DEFAULTS.closeTimeoutMs,
} as const;

/** A client message waiting in the outbox. */
interface Outgoing {
  readonly message: ClientMessage;
  readonly metadata: ClientMessageMetadata | undefined;
}

/** How one poll (or connect) went, for the loop. */
type Step =
  | { readonly kind: 'applied'; readonly delivered: boolean }
  | { readonly kind: 'reset' }
  | { readonly kind: 'end'; readonly outcome: LinkOutcome };

/**
 * Connects to a REST server. The connection opens when `A2uiClient` calls `events()`; `send` may
 * be called before, and waits for it.
 *
 * @param options - see {@link RestClientOptions}
 * @returns a `ClientTransport` with `connectionId`, `lastSeq`, `status` and `pendingMessages`
 *
 * @example
 * ```ts
 * const client = new A2uiClient({
 *   transport: connectRest({ url: 'https://example.com/a2ui', headers: { Authorization: `Bearer ${token}` } }),
 * });
 * client.connect();
 * await client.dispatchAction('main', 'submit'); // settles once the agent's answer is applied
 * ```
 */
export function connectRest(options: RestClientOptions): RestTransport {
  const defaults = REST_CLIENT_DEFAULTS;
  const base = baseUrlOf(options.url);
  const pollWaitMs = options.pollWaitMs ?? defaults.pollWaitMs;
  const requestTimeoutMs = options.requestTimeoutMs ?? defaults.requestTimeoutMs;
  const offeredVersions = resolveOfferedVersions(options.offeredVersions);
  const http = httpOptionsOf(options);
  // Keys must not repeat within a connection's de-duplication window: a random prefix per transport.
  const kit = resolveLinkOptions(options, defaults);
  const { createRequestId } = kit;

  const sequence = new SequenceTracker();
  const resume = resolveResumeStore(options.resume, { name: 'rest', url: String(base) });
  /** A page reloaded: its session is resumed from the start (the page holds nothing yet). */
  let resumeLoaded = resume === undefined;
  let connectionId: string | undefined;
  let protocolVersion: string | undefined;
  /** Messages of turn answers that arrived ahead of a push the poll has not brought yet. */
  const held = new Map<number, unknown>();
  /** `send`s waiting for their answer to be applied through a `seq`. */
  const seqWaiters = new Set<{ seq: number; resolve(): void }>();
  /** The connection a reset left behind: the next connect replaces it. */
  let replaces: string | undefined;
  /** The idempotency key of the connect being made (the same on every retry of it). */
  let connectKey: string | undefined;
  /** Set when the server ended the connection: the loop stops. */
  let serverClosed: string | undefined;
  /** Set when the server shut down and asked to come back after this long. */
  let restartAfterMs: number | undefined;
  let stopPoll: (() => void) | undefined;

  const url = (path: string) => `${base}${path}`;

  // ---- Applying answers ---------------------------------------------------------------------

  /** Applies the messages of an answer in `seq` order, once each; holds those ahead of a gap. */
  const apply = (answer: RestMessagesAnswer): boolean => {
    const first = firstSeqOf(answer);
    const before = sequence.last;
    const ready: unknown[] = [];
    answer.messages.forEach((message, index) => {
      const seq = first + index;
      const verdict = sequence.acceptEntry(seq, message);
      if (verdict === 'gap') held.set(seq, message);
      if (verdict !== 'apply') return;
      if (!readSessionSnapshot(message)) {
        ready.push(message);
        return;
      }
      // A snapshot (the log no longer held what this client missed) is an event of its own.
      if (ready.length > 0) shell.push({ type: 'messages', messages: ready.splice(0) });
      shell.push({ type: 'messages', messages: message });
    });
    // A poll may have brought what held messages were waiting for.
    for (let next = held.get(sequence.last + 1); next !== undefined; ) {
      held.delete(sequence.last + 1);
      sequence.accept(sequence.last + 1);
      ready.push(next);
      next = held.get(sequence.last + 1);
    }
    for (const seq of held.keys()) if (seq <= sequence.last) held.delete(seq);
    const progressed = sequence.last > before;
    if (ready.length > 0) shell.push({ type: 'messages', messages: ready });
    for (const waiter of [...seqWaiters]) if (sequence.last >= waiter.seq) waiter.resolve();
    return progressed;
  };

  /** Resolves once the messages through `seq` are queued as events (or the connection is gone). */
  const applied = (seq: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      if (sequence.last >= seq || signal.aborted) {
        resolve();
        return;
      }
      const waiter = {
        seq,
        resolve: () => {
          seqWaiters.delete(waiter);
          signal.removeEventListener('abort', waiter.resolve);
          resolve();
        },
      };
      seqWaiters.add(waiter);
      signal.addEventListener('abort', waiter.resolve, { once: true });
    });

  const releaseWaiters = () => {
    for (const waiter of [...seqWaiters]) waiter.resolve();
  };

  /** The connection is gone: surfaces are dropped, its queued messages rejected. */
  const resetSession = (reason: string, leftBehind?: string): void => {
    connectionId = undefined;
    replaces = leftBehind;
    sequence.reset();
    held.clear();
    outbox.reset();
    releaseWaiters();
    shell.push({ type: 'reset', reason });
  };

  const endByServer = (reason: string, retryAfterMs: number | undefined): void => {
    if (retryAfterMs !== undefined) {
      // The server shuts down and asks to come back: the next poll reaches its successor, which
      // no longer knows the connection and so resets us onto a new one.
      restartAfterMs = retryAfterMs;
      stopPoll?.();
      return;
    }
    serverClosed = `The server closed the connection (${reason}).`;
    releaseWaiters();
    stopPoll?.();
  };

  // ---- Client → server: one POST per message, answered with the turn ---------------------------

  const outbox = new Outbox<Outgoing>({
    overtakes: (item) => isOvertakingMessage(item.message),
    ...kit.outbox,
    // One message per request: each answer is that message's turn.
    maxBatchLength: 1,
    onTrouble: (trouble) => shell.status.trouble(trouble),
    deliver: (batch, context) => deliver(batch[0]!, context.connectionId, context.signal),
  });

  const deliver = async (
    entry: OutboxEntry<Outgoing>,
    target: string,
    signal: AbortSignal,
  ): Promise<OutboxDelivery> => {
    const { path, body } = clientMessageRequest(target, entry.item.message, entry.item.metadata);
    const result = await exchange(url(path), http, {
      body,
      idempotencyKey: entry.id,
      signal,
      timeoutMs: requestTimeoutMs,
    });
    const what = `POST ${path}`;
    if (result.kind === 'failed')
      return { kind: 'retry', reason: `${what} failed: ${result.reason}` };
    if (result.status === 200) {
      const answer = parseMessagesAnswer(result.body);
      // Not known to be the server's answer (a proxy's page?): the same key again, later.
      if (!answer) return { kind: 'retry', reason: `${what} answered something else than a turn` };
      if (target !== connectionId) {
        const error = new A2uiError(
          'CONNECTION_CLOSED',
          'The session was reset before the answer to this message arrived; its surfaces are gone.',
        );
        return { kind: 'answered', errors: new Map([[entry.id, error]]) };
      }
      apply(answer);
      if (answer.closed) endByServer(answer.closed, answer.retryAfterMs);
      // Pushes sent before the turn may still be on their way by poll: the answer is applied after them.
      else await applied(answer.seq, signal);
      return { kind: 'answered' };
    }
    if (isRetryableStatus(result.status)) {
      // A refusal that says why (a session store that is down) is worded for the status bar.
      const refusal = (result.body as { error?: { code?: unknown } } | undefined)?.error;
      const cause = refusal?.code === 'LIMIT_EXCEEDED' ? troubleCauseOf(refusal) : undefined;
      return {
        kind: 'retry',
        reason: cause
          ? `${describeTroubleCause(cause)} (${what} answered HTTP ${result.status})`
          : `${what} answered HTTP ${result.status}`,
        retryAfterMs: result.retryAfterMs,
        ...(cause ? { cause } : {}),
      };
    }
    const error = errorOfAnswer(result.status, result.body, what);
    return { kind: 'answered', errors: new Map([[entry.id, error]]) };
  };

  // ---- Server → client: connect, then long polls -----------------------------------------------

  /** A refusal as the loop's outcome: retry (network, 5xx, 408, 429) or give up (the rest). */
  const failed = (result: Exchange, what: string): Step => {
    if (shell.closed)
      return { kind: 'end', outcome: { kind: 'closed', reason: 'Closed by the client.' } };
    if (result.kind === 'failed')
      return {
        kind: 'end',
        outcome: { kind: 'dropped', reason: `${what} failed: ${result.reason}` },
      };
    if (isRetryableStatus(result.status))
      return {
        kind: 'end',
        outcome: {
          kind: 'dropped',
          reason: `${what} answered HTTP ${result.status}`,
          retryAfterMs: result.retryAfterMs,
        },
      };
    return {
      kind: 'end',
      outcome: { kind: 'fatal', error: errorOfAnswer(result.status, result.body, what) },
    };
  };

  /**
   * `POST /connect`: a new connection and its first turn. `opened` is called once the connection
   * exists, before its messages are queued.
   */
  const open = async (signal: AbortSignal, opened: () => void): Promise<Step> => {
    connectKey ??= createRequestId();
    const what = `POST ${REST_PATHS.connect}`;
    const result = await exchange(url(REST_PATHS.connect), http, {
      headers: { [A2UI_VERSIONS_HEADER]: offeredVersions.join(', ') },
      body: replaces ? { replaces } : {},
      idempotencyKey: connectKey,
      signal,
      timeoutMs: requestTimeoutMs,
    });
    if (result.kind === 'answer' && result.status === 200) {
      const answer = parseConnectAnswer(result.body);
      if (!answer)
        return failed({ kind: 'failed', reason: 'the answer is not a connection' }, what);
      connectKey = undefined;
      replaces = undefined;
      connectionId = answer.connectionId;
      protocolVersion = answer.a2uiVersion;
      resume?.save({ connectionId, ...(protocolVersion ? { protocolVersion } : {}) });
      sequence.reset();
      if (!answer.closed) opened();
      const delivered = apply(answer);
      if (answer.closed) endByServer(answer.closed, answer.retryAfterMs);
      return { kind: 'applied', delivered };
    }
    return failed(result, what);
  };

  /** One `GET /messages`: what arrived after the last applied `seq`; `opened` as for {@link open}. */
  const poll = async (signal: AbortSignal, waitMs: number, opened: () => void): Promise<Step> => {
    const target = connectionId!;
    const what = `GET ${REST_PATHS.messages}`;
    const query = pollQuery(target, sequence.last, waitMs);
    const result = await exchange(`${url(REST_PATHS.messages)}${query}`, http, {
      signal,
      timeoutMs: waitMs + requestTimeoutMs,
    });
    if (
      shell.closed ||
      serverClosed !== undefined ||
      restartAfterMs !== undefined ||
      target !== connectionId
    )
      return { kind: 'applied', delivered: false };
    if (result.kind === 'answer' && result.status === 200) {
      const answer = parseMessagesAnswer(result.body);
      if (!answer)
        return failed({ kind: 'failed', reason: 'the answer is not a poll answer' }, what);
      if (answer.reset) {
        resetSession('The messages missed while away are no longer kept.', target);
        return { kind: 'reset' };
      }
      if (answer.superseded)
        return {
          kind: 'end',
          outcome: {
            kind: 'dropped',
            reason: 'Another poll of this connection superseded this one.',
          },
        };
      if (!answer.closed) opened();
      const delivered = apply(answer);
      if (answer.closed) endByServer(answer.closed, answer.retryAfterMs);
      return { kind: 'applied', delivered };
    }
    if (result.kind === 'answer' && result.status === 404) {
      resetSession('The server no longer knows this connection (expired or restarted).');
      return { kind: 'reset' };
    }
    return failed(result, what);
  };

  const runLink = async (attempt: LinkAttempt): Promise<LinkOutcome> => {
    if (!resumeLoaded) {
      resumeLoaded = true;
      const token = await resume?.load();
      if (token && connectionId === undefined) {
        connectionId = token.connectionId;
        protocolVersion = token.protocolVersion;
      }
    }
    const link = new AbortController();
    const stop = () => link.abort();
    attempt.signal.addEventListener('abort', stop, { once: true });
    stopPoll = stop;
    let isOpen = false;
    let resetsWithoutProgress = 0;
    /** The connection answered: client messages may go, and the status says so (once per link). */
    const markOpen = (reason?: string) => {
      outbox.setConnection(connectionId!);
      if (isOpen) return;
      isOpen = true;
      attempt.opened(reason);
    };
    try {
      while (true) {
        if (serverClosed !== undefined) return { kind: 'closed', reason: serverClosed };
        if (restartAfterMs !== undefined) {
          const retryAfterMs = restartAfterMs;
          restartAfterMs = undefined;
          return { kind: 'dropped', reason: 'The server is restarting.', retryAfterMs };
        }
        if (shell.closed || link.signal.aborted)
          return { kind: 'closed', reason: 'Closed by the client.' };
        const resumed = connectionId !== undefined;
        // A resumed link first polls without waiting, so that it knows at once it is back.
        const step = resumed
          ? await poll(link.signal, isOpen ? pollWaitMs : 0, () => {
              if (!isOpen) markOpen('Polling again.');
            })
          : await open(link.signal, () => markOpen());
        if (step.kind === 'end') return step.outcome;
        if (step.kind === 'reset') {
          // A server that resets every new connection at once must not be asked again at once.
          if (++resetsWithoutProgress > 1)
            return { kind: 'dropped', reason: 'The connection was reset again.' };
          continue;
        }
        if (step.delivered) {
          resetsWithoutProgress = 0;
          attempt.delivered();
        }
      }
    } finally {
      attempt.signal.removeEventListener('abort', stop);
      if (stopPoll === stop) stopPoll = undefined;
      link.abort();
      // While the link is down, client messages wait (the server is probably unreachable too).
      outbox.pause();
    }
  };

  // ---- The transport ------------------------------------------------------------------------

  const shell = createLinkTransport({
    name: 'REST',
    connect: runLink,
    ...kit.shell,
    goodbye: async () => {
      // The waiting poll's answer is no news now, and once the server forgets the connection it
      // would be a 404 (that a browser logs as an error): end it first.
      stopPoll?.();
      if (connectionId !== undefined && serverClosed === undefined)
        await sendDisconnect(connectionId);
    },
    onClose: (error) => {
      // The session is over (closed by either side): a reloaded page starts a new one.
      resume?.clear();
      outbox.close(error);
      releaseWaiters();
    },
  });

  /** Tells the server, so the agent sees `client-closed` at once; a few tries within the deadline. */
  const sendDisconnect = async (id: string): Promise<void> => {
    const started = Date.now();
    // A pooled connection may have died with a dropped poll, hence more than one attempt.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const timeoutMs = defaults.closeTimeoutMs - (Date.now() - started);
      if (timeoutMs <= 0) return;
      const result = await exchange(url(REST_PATHS.disconnect), http, {
        body: { connectionId: id },
        timeoutMs,
      });
      // Any answer will do: an unknown connection is gone already.
      if (result.kind === 'answer') return;
    }
  };

  return {
    get protocolVersion() {
      return protocolVersion;
    },
    get a2uiVersion() {
      return protocolVersion;
    },
    get connectionId() {
      return connectionId;
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
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      return shell.sendWhileOpen(() => outbox.enqueue({ message, metadata }, sendOptions));
    },
    close: shell.close,
  };
}
