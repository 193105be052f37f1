/**
 * The client a view or an agent uses (LAVS spec §7.2 `LAVSClient`): `call` over HTTP
 * (`lavs/call`), `subscribe` over one WebSocket shared by every subscription (`lavs/subscribe`,
 * `lavs/data`, `lavs/unsubscribe`), `getManifest`. Errors come back as {@link LavsError}s with
 * the code the server answered.
 */
import { LAVS_ERRORS, LavsError, type LavsErrorCode } from '../errors/lavs-error.js';
import type { LavsManifest } from '../manifest/manifest-types.js';

/** What the client needs of a WebSocket: the browser's, or `ws`'s (Node 20 has none of its own). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** Options of {@link createLavsClient}. */
export interface LavsClientOptions {
  /** The service's base URL (`serveLavs`'s `url`); `ws:` / `wss:` for sockets is derived from it. */
  url: string;
  /** Headers of every HTTP request (authentication). @default {} */
  headers?: Record<string, string>;
  /** Opens a WebSocket. @default `(url) => new WebSocket(url)` (browsers, Node 22+) */
  openWebSocket?: (url: string) => WebSocketLike;
}

/** Options of {@link LavsClient.subscribe}. */
export interface SubscribeOptions {
  /** The subscription endpoint's input. */
  input?: unknown;
  /** Told once when the subscription fails or its socket closes; no data follows. */
  onError?: (error: LavsError) => void;
}

/** A LAVS client (spec §7.2). */
export interface LavsClient {
  /**
   * Calls a query or mutation.
   * @throws {@link LavsError} with the code of the server's answer
   */
  call<T = unknown>(
    endpoint: string,
    input?: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<T>;
  /** Subscribes; `callback` gets each `lavs/data`. @returns the function that unsubscribes */
  subscribe(
    endpoint: string,
    callback: (data: unknown) => void,
    options?: SubscribeOptions,
  ): () => void;
  /** The service's `lavs.json`. */
  getManifest(): Promise<LavsManifest>;
  /** Closes the WebSocket (every subscription ends). */
  close(): void;
}

const BY_WIRE_CODE = new Map<number, LavsErrorCode>(
  (Object.entries(LAVS_ERRORS) as Array<[LavsErrorCode, { code: number }]>)
    .filter(([code]) => code !== 'INVALID_MANIFEST')
    .map(([code, row]) => [row.code, code]),
);

/** A JSON-RPC error answer as the {@link LavsError} it stands for. */
function fromWire(error: { code?: unknown; message?: unknown; data?: unknown }): LavsError {
  const code =
    typeof error.code === 'number'
      ? (BY_WIRE_CODE.get(error.code) ?? 'INTERNAL_ERROR')
      : 'INTERNAL_ERROR';
  const data =
    typeof error.data === 'object' && error.data !== null
      ? (error.data as Record<string, unknown>)
      : undefined;
  return new LavsError(
    code,
    typeof error.message === 'string' ? error.message : LAVS_ERRORS[code].message,
    { data },
  );
}

/** A frame from the server: a response, or a `lavs/data` push. */
interface ServerMessage {
  id?: unknown;
  method?: unknown;
  params?: { subscriptionId?: unknown; data?: unknown };
  result?: { subscriptionId?: unknown };
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

interface Subscription {
  callback: (data: unknown) => void;
  onError?: (error: LavsError) => void;
  id?: string;
  cancelled: boolean;
}

/**
 * A client of the LAVS service at `options.url`.
 *
 * @example
 * ```ts
 * const client = createLavsClient({ url: 'http://127.0.0.1:5555', openWebSocket: (url) => new WebSocket(url) });
 * const stop = client.subscribe('todoUpdates', (todos) => render(todos));
 * await client.call('addTodo', { text: 'Buy milk' });
 * ```
 */
export function createLavsClient(options: LavsClientOptions): LavsClient {
  const base = options.url.replace(/\/+$/, '');
  const headers = options.headers ?? {};
  const open =
    options.openWebSocket ?? ((url: string) => new WebSocket(url) as unknown as WebSocketLike);
  let nextId = 0;
  let socket: WebSocketLike | undefined;
  const pending = new Map<number, Subscription>();
  const active = new Map<string, Subscription>();
  const queued: string[] = [];

  const fail = (subscription: Subscription, error: LavsError) => {
    if (subscription.cancelled) return;
    subscription.cancelled = true;
    subscription.onError?.(error);
  };
  /** Sends on the socket, opening it first; what is sent before it opens waits for it. */
  const send = (message: unknown) => {
    const data = JSON.stringify(message);
    if (socket === undefined) socket = connect();
    if (socket.readyState === 1) socket.send(data);
    else queued.push(data);
  };
  const connect = (): WebSocketLike => {
    const opened = open(`${base.replace(/^http/, 'ws')}/`);
    opened.addEventListener('open', () => {
      for (const data of queued.splice(0)) opened.send(data);
    });
    opened.addEventListener('message', ({ data }) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      if (message.method === 'lavs/data') {
        const subscriptionId = message.params?.subscriptionId;
        if (typeof subscriptionId === 'string')
          active.get(subscriptionId)?.callback(message.params?.data);
        return;
      }
      const subscription = typeof message.id === 'number' ? pending.get(message.id) : undefined;
      if (subscription === undefined) return;
      pending.delete(message.id as number);
      if (message.error !== undefined) return fail(subscription, fromWire(message.error));
      subscription.id = String(message.result?.subscriptionId);
      if (subscription.cancelled) return unsubscribe(subscription);
      active.set(subscription.id, subscription);
    });
    opened.addEventListener('close', () => {
      if (socket === opened) socket = undefined;
      queued.length = 0;
      const closed = new LavsError('INTERNAL_ERROR', 'The subscription socket closed');
      for (const subscription of [...pending.values(), ...active.values()])
        fail(subscription, closed);
      pending.clear();
      active.clear();
    });
    return opened;
  };
  const unsubscribe = (subscription: Subscription) => {
    if (subscription.id === undefined || socket === undefined) return;
    active.delete(subscription.id);
    send({
      jsonrpc: '2.0',
      id: ++nextId,
      method: 'lavs/unsubscribe',
      params: { subscriptionId: subscription.id },
    });
  };

  return {
    async call<T>(
      endpoint: string,
      input?: unknown,
      callOptions: { signal?: AbortSignal } = {},
    ): Promise<T> {
      const response = await fetch(`${base}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++nextId,
          method: 'lavs/call',
          params: { endpoint, input },
        }),
        signal: callOptions.signal,
      });
      const body = (await response.json().catch(() => ({}))) as {
        result?: T;
        error?: Record<string, unknown>;
      };
      if (body.error !== undefined) throw fromWire(body.error);
      if (!('result' in body))
        throw new LavsError(
          'INTERNAL_ERROR',
          `The service answered HTTP ${response.status} without a result`,
        );
      return body.result as T;
    },
    subscribe(endpoint, callback, subscribeOptions = {}) {
      const subscription: Subscription = {
        callback,
        onError: subscribeOptions.onError,
        cancelled: false,
      };
      const id = ++nextId;
      pending.set(id, subscription);
      send({
        jsonrpc: '2.0',
        id,
        method: 'lavs/subscribe',
        params: { endpoint, input: subscribeOptions.input },
      });
      return () => {
        if (subscription.cancelled) return;
        subscription.cancelled = true;
        unsubscribe(subscription);
      };
    },
    async getManifest() {
      const response = await fetch(`${base}/manifest`, { headers });
      if (!response.ok)
        throw new LavsError('INTERNAL_ERROR', `The manifest answered HTTP ${response.status}`);
      return (await response.json()) as LavsManifest;
    },
    close() {
      socket?.close();
    },
  };
}
