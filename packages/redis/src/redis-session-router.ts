/**
 * Cross-node routing over Redis streams: each node reads its own inbox (`<prefix>inbox:<node>`,
 * one `XREAD BLOCK` on a dedicated connection) where other nodes add the requests they forward to
 * it and the answers to its own requests, matched by a correlation id. A stream, unlike pub/sub,
 * keeps what arrives while the reader's connection is down, so nothing is lost across a
 * reconnect. Only live nodes (current lease) are written to. One inbox serves every session host
 * of the process; each host's {@link RedisSessionRouter} names itself in what it sends.
 */
import { A2uiError } from '@a2ui-ts/core';
import type {
  RoutedRequest,
  RoutedRequestHandler,
  RoutedResponse,
  SessionRouter,
} from '@a2ui-ts/core/host';
import { SEND_TO_NODE } from './lua-scripts.js';
import type { NodeLeases } from './node-leases.js';
import type { RedisContext } from './redis-context.js';
import { type RedisCommander, runScript } from './run-script.js';
import { storeUnavailable } from './store-errors.js';

/**
 * An inbox message: a request (`q`) for session host `h`, the answer (`a`) to one, or the asking
 * node's notice (`x`) that it stopped waiting for the turn of request `id`: the owner answers now.
 */
type InboxMessage =
  | {
      readonly k: 'q';
      readonly id: string;
      readonly from: string;
      readonly h: string;
      readonly r: RoutedRequest;
    }
  | { readonly k: 'a'; readonly id: string; readonly r: RoutedResponse }
  | { readonly k: 'x'; readonly id: string };

interface Pending {
  readonly owner: string;
  settle(outcome: { response: RoutedResponse } | { error: A2uiError }): void;
}

/** Timing and bounds of {@link NodeInbox}. */
export interface NodeInboxOptions {
  /** Longest `XREAD BLOCK`: how often the reader wakes when nothing arrives. */
  readonly blockMs: number;
  /** Approximate cap on an inbox stream (`XADD MAXLEN ~`), for a reader that stopped reading. */
  readonly maxInboxLength: number;
  /** Waits for the connection to come back after a failed read. */
  waitForReconnect(): Promise<void>;
}

/** Entries read per `XREAD`. */
const READ_COUNT = 256;

/** The inbox of one node (process): forwarding, answering, correlation (see the module comment). */
export class NodeInbox {
  readonly #context: RedisContext;
  readonly #reader: RedisCommander;
  readonly #options: NodeInboxOptions;
  readonly #pending = new Map<string, Pending>();
  readonly #handlers = new Map<string, RoutedRequestHandler>();
  /** Requests from other nodes being answered here, by id: their `x` notices abort these. */
  readonly #answering = new Map<string, AbortController>();
  #counter = 0;
  #closed = false;
  #loop: Promise<void> | undefined;

  constructor(
    context: RedisContext,
    leases: NodeLeases,
    reader: RedisCommander,
    options: NodeInboxOptions,
  ) {
    this.#context = context;
    this.#reader = reader;
    this.#options = options;
    leases.onNodeDown((id) => this.#fail((pending) => pending.owner === id, gone(id)));
  }

  /** Answers still awaited. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Starts reading this node's inbox. */
  start(): void {
    this.#loop ??= this.#readInbox();
  }

  /**
   * Sends `request` to session host `host` of node `owner` and resolves with its answer. When
   * `signal` aborts, the owner is told to stop waiting for the turn and answers at once; the
   * answer is still awaited, since only it says whether the request was accepted.
   */
  forward(
    host: string,
    owner: string,
    request: RoutedRequest,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<RoutedResponse> {
    if (this.#closed) return Promise.reject(gone(owner));
    const { signal, timeoutMs } = options;
    const id = `${this.#context.nodeId}.${++this.#counter}`;
    return new Promise<RoutedResponse>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle: Pending['settle'] = (outcome) => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if ('error' in outcome) reject(outcome.error);
        else resolve(outcome.response);
      };
      this.#pending.set(id, { owner, settle });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () =>
            settle({
              error: new A2uiError('TIMEOUT', `Node ${owner} did not answer in ${timeoutMs} ms.`, {
                data: { node: owner, timeoutMs },
              }),
            }),
          timeoutMs,
        );
      }
      const sent = this.#send(owner, {
        k: 'q',
        id,
        from: this.#context.nodeId,
        h: host,
        r: request,
      });
      // After the request is in the owner's inbox, so that the notice never overtakes it.
      const onAbort = () => {
        sent
          .then((delivered) => delivered && this.#send(owner, { k: 'x', id }))
          .catch((error) => this.#context.report(error));
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      sent.then(
        (delivered) => {
          if (!delivered) settle({ error: gone(owner) });
        },
        (error) => settle({ error: storeUnavailable(error, this.#context.retryAfterMs) }),
      );
    });
  }

  /** Answers the requests for session host `host` with `handler`; returns how to stop. */
  listen(host: string, handler: RoutedRequestHandler): () => void {
    this.#handlers.set(host, handler);
    this.start();
    return () => {
      if (this.#handlers.get(host) === handler) this.#handlers.delete(host);
    };
  }

  /** Hands `request` to this node's session host `host` itself (as if another node sent it). */
  async dispatchLocal(host: string, request: RoutedRequest): Promise<void> {
    await this.#handlers.get(host)?.(request);
  }

  /**
   * Fails every request still waiting for an answer with a retryable refusal: after Redis
   * restarted, their answers (or they themselves) may be lost. Clients retry with the same
   * request ids, which the owners de-duplicate.
   */
  failPending(reason: string): void {
    this.#fail(() => true, storeUnavailable(new Error(reason), this.#context.retryAfterMs));
  }

  /** Stops answering; waiting requests fail with `CONNECTION_CLOSED`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers.clear();
    this.#fail(
      () => true,
      new A2uiError('CONNECTION_CLOSED', 'The router of this node is closed.'),
    );
  }

  /** Resolves once the read loop ended (after the reader connection was closed). */
  async stopped(): Promise<void> {
    await this.#loop;
  }

  #fail(which: (pending: Pending) => boolean, error: A2uiError): void {
    for (const pending of [...this.#pending.values()])
      if (which(pending)) pending.settle({ error });
  }

  /** Adds `message` to the inbox of `node`; false when its lease is not current. */
  async #send(node: string, message: InboxMessage): Promise<boolean> {
    const { client, keys, keyTtlMs } = this.#context;
    const sent = await runScript<number>(
      client,
      SEND_TO_NODE,
      [keys.nodes, keys.inbox(node)],
      [node, JSON.stringify(message), this.#options.maxInboxLength, keyTtlMs],
    );
    return sent === 1;
  }

  async #readInbox(): Promise<void> {
    const inbox = this.#context.keys.inbox(this.#context.nodeId);
    let lastId = '0-0';
    while (!this.#closed) {
      let reply: [string, [string, string[]][]][] | null;
      try {
        reply = await this.#reader.sendCommand([
          'XREAD',
          'COUNT',
          String(READ_COUNT),
          'BLOCK',
          String(this.#options.blockMs),
          'STREAMS',
          inbox,
          lastId,
        ]);
      } catch (error) {
        if (this.#closed) return;
        this.#context.report(error);
        await this.#options.waitForReconnect();
        continue;
      }
      const entries = reply?.[0]?.[1] ?? [];
      if (entries.length === 0) continue;
      lastId = entries.at(-1)![0];
      for (const [, fields] of entries) this.#receive(fields[1]);
      // Read entries are not needed any more (the reader keeps its position in memory).
      this.#reader
        .sendCommand(['XDEL', inbox, ...entries.map(([entryId]) => entryId)])
        .catch(() => {});
    }
  }

  #receive(text: string | undefined): void {
    let message: InboxMessage;
    try {
      message = JSON.parse(text ?? '') as InboxMessage;
    } catch (error) {
      this.#context.report(error);
      return;
    }
    if (message.k === 'a') this.#pending.get(message.id)?.settle({ response: message.r });
    else if (message.k === 'q') void this.#answer(message);
    else if (message.k === 'x') this.#answering.get(message.id)?.abort();
  }

  async #answer(message: Extract<InboxMessage, { k: 'q' }>): Promise<void> {
    const handler = this.#handlers.get(message.h);
    const stop = new AbortController();
    this.#answering.set(message.id, stop);
    let response: RoutedResponse;
    try {
      response = handler
        ? await handler(message.r, { signal: stop.signal })
        : {
            ok: false,
            error: {
              code: 'CONNECTION_CLOSED',
              message: `Node ${this.#context.nodeId} does not serve "${message.h}".`,
            },
          };
    } catch (error) {
      // The text of an unexpected failure is for this node's report, not for a client.
      this.#context.report(error);
      response = {
        ok: false,
        error: { code: 'INTERNAL_ERROR', message: 'The owner failed to handle the request.' },
      };
    } finally {
      this.#answering.delete(message.id);
    }
    try {
      await this.#send(message.from, { k: 'a', id: message.id, r: response });
    } catch (error) {
      this.#context.report(error);
    }
  }
}

/**
 * The {@link SessionRouter} of one session host: its requests travel through the node's
 * {@link NodeInbox}, addressed to the same host (by name) on the owner.
 */
export class RedisSessionRouter implements SessionRouter {
  readonly nodeId: string;
  readonly #host: string;
  readonly #inbox: NodeInbox;
  readonly #leases: NodeLeases;

  constructor(nodeId: string, host: string, inbox: NodeInbox, leases: NodeLeases) {
    this.nodeId = nodeId;
    this.#host = host;
    this.#inbox = inbox;
    this.#leases = leases;
  }

  /**
   * @throws A2uiError `CONNECTION_CLOSED` (the owner is gone, or this node closed its stores),
   *   `TIMEOUT`, `LIMIT_EXCEEDED` (`data.reason: 'store-unavailable'`: retry)
   */
  forward(
    owner: string,
    request: RoutedRequest,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<RoutedResponse> {
    return this.#inbox.forward(this.#host, owner, request, options);
  }

  listen(handler: RoutedRequestHandler): () => void {
    return this.#inbox.listen(this.#host, handler);
  }

  /** See {@link NodeLeases.confirm}. */
  confirmLease(): Promise<void> | undefined {
    return this.#leases.settled ? undefined : this.#leases.confirm();
  }

  /** @throws A2uiError `LIMIT_EXCEEDED` (store unavailable) while Redis is down */
  isAlive(id: string): Promise<boolean> {
    return this.#leases.isAlive(id);
  }

  onNodeDown(listener: (id: string) => void): () => void {
    return this.#leases.onNodeDown(listener);
  }
}

function gone(node: string): A2uiError {
  return new A2uiError('CONNECTION_CLOSED', `Node ${node} is not reachable (its lease expired).`, {
    data: { node },
  });
}
