/**
 * The fault-injection scenarios every streaming binding's `faults.test.ts` runs, written once:
 *
 * - the chunked exchange: an agent streams 500 updates in chunks of 50, each next chunk only when
 *   the client asks for it with a `more` action, so a lost or repeated action, or a lost or
 *   repeated update, changes what the client ends with; {@link runLinkResetTrials} runs it with
 *   the link reset at seeded random points;
 * - connection churn: {@link createChurnAgent} counts connects and disconnect reasons while a test
 *   opens and leaves many connections, {@link runInBatches} at a time;
 * - a client that stops reading: {@link createFloodAgent} streams far more than any buffer holds;
 * - a graceful restart: {@link runGracefulRestart} closes a server and starts another on its port,
 *   and the client must come back to it and start over.
 *
 * Runtime-neutral; requires vitest ({@link runLinkResetTrials} asserts each trial).
 */
import { expect } from 'vitest';
import type { A2uiAgent, Connection, DisconnectReason } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { yieldToIo } from '../host/yield-to-io.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ServerMessage } from '../protocol/messages.js';
import { snapshotState } from '../state/snapshot.js';
import type { ClientTransport, ConnectionStatus } from '../transport/client-transport.js';
import { seededRandom } from './seeded-random.js';
import { createDeferred, waitForClient } from './wait-for.js';

/** The sizes of the chunked exchange: 500 updates in chunks of 50. */
export const CHUNKED_EXCHANGE = { messages: 500, chunk: 50 } as const;

/** The exchange's surface (`counter`, basic catalog). */
export const chunkedSurface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID },
};

/** Update `index` of the exchange: `/values/<index>` set to `index`. */
export const chunkedUpdate = (index: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'counter', path: `/values/${index}`, value: index },
});

const chunk = (from: number): ServerMessage[] =>
  Array.from(
    { length: Math.min(CHUNKED_EXCHANGE.chunk, CHUNKED_EXCHANGE.messages - from) },
    (_, offset) => chunkedUpdate(from + offset),
  );

/** The agent of the chunked exchange, and what it saw. */
export interface ChunkedAgent {
  readonly agent: A2uiAgent;
  /** Per connection, the `next` of every `more` action, in arrival order. */
  readonly requests: ReadonlyMap<string, readonly number[]>;
  /** Connections opened so far. */
  connects(): number;
}

/**
 * The agent of the chunked exchange: `onConnect` sends the surface and the first chunk; each
 * `more` action (`context.next`) the chunk from there.
 */
export function createChunkedAgent(): ChunkedAgent {
  const requests = new Map<string, number[]>();
  let connects = 0;
  const agent: A2uiAgent = {
    onConnect(connection) {
      connects++;
      requests.set(connection.id, []);
      connection.send([chunkedSurface, ...chunk(0)]);
    },
    onAction(connection, action) {
      const next = action.context.next as number;
      requests.get(connection.id)!.push(next);
      connection.send(chunk(next));
    },
  };
  return { agent, requests, connects: () => connects };
}

/**
 * Runs one client through the whole exchange: asks for each next chunk once the previous one
 * arrived, calls `onProgress` after every update with the count so far, and resolves with the
 * values seen, in order, once all 500 arrived. A `more` action is settled by the exchange itself
 * (the next chunk is its answer), so its own promise is not awaited.
 */
export async function runChunkedExchange(
  client: A2uiClient,
  onProgress: (received: number) => void,
): Promise<number[]> {
  const { messages, chunk: size } = CHUNKED_EXCHANGE;
  const seen: number[] = [];
  client.subscribe((event) => {
    if (event.type !== 'received') return;
    const message = JSON.parse(event.input as string) as ServerMessage;
    if (!('updateDataModel' in message)) return;
    seen.push(message.updateDataModel.value as number);
    if (seen.length % size === 0 && seen.length < messages) {
      client
        .send({
          version: 'v0.9',
          action: {
            name: 'more',
            surfaceId: 'counter',
            sourceComponentId: 'root',
            timestamp: new Date().toISOString(),
            context: { next: seen.length },
          },
        })
        .catch(() => {});
    }
    onProgress(seen.length);
  });
  void client.connect().catch(() => {});
  await waitForClient(client, () => seen.length >= messages, `${messages} updates`);
  return seen;
}

/** A client transport that names its connection (every binding's does). */
type NamedTransport = ClientTransport & { readonly connectionId: string | undefined };

/** What a trial needs of its fault proxy (`TcpProxy` of `@a2ui-ts/core/testing/node` has it). */
export interface TrialProxy {
  /** Resets every connection through it. */
  drop(): void;
  close(): Promise<void>;
}

/** One trial's link: a transport through a fault proxy of its own. */
export interface TrialLink<
  T extends NamedTransport = NamedTransport,
  P extends TrialProxy = TrialProxy,
> {
  readonly transport: T;
  readonly proxy: P;
}

/** Options of {@link runLinkResetTrials}. */
export interface LinkResetTrialsOptions<T extends NamedTransport, P extends TrialProxy> {
  /** The server's agent. */
  readonly chunked: ChunkedAgent;
  /** Trials to run, one client each. */
  readonly trials: number;
  /** Trial `n` is seeded with `seed + n` (its drop points, and the transport's jitter). */
  readonly seed: number;
  /** Opens a trial's transport through a proxy of its own, with `random` as its jitter source. */
  open(random: () => number): Promise<TrialLink<T, P>>;
  /** Runs once the trial's link is open, before its exchange (more faults of the binding's own). */
  onStart?(trial: TrialLink<T, P> & { readonly random: () => number }): void;
  /** Runs after a trial's checks, before its client closes. */
  beforeClose?(trial: TrialLink<T, P>): Promise<void> | void;
}

/**
 * Runs `trials` chunked exchanges, each through its own proxy, resetting the link 1 to 3 times at
 * seeded random points of the stream and, at random, right after a `more` action was sent (its
 * retry must not be applied twice). Each trial must see every value once and in order, end with
 * the reference state, report no error and no reset, and the agent must have seen each `more`
 * once.
 *
 * @returns how many times a link was reset, over all trials
 *
 * @example
 * ```ts
 * const chunked = createChunkedAgent();
 * const server = await startTestServer({ agent: chunked.agent });
 * const drops = await runLinkResetTrials({ chunked, trials: 50, seed: 1000,
 *   open: (random) => server.connectThroughProxy({ random }) });
 * ```
 */
export async function runLinkResetTrials<T extends NamedTransport, P extends TrialProxy>(
  options: LinkResetTrialsOptions<T, P>,
): Promise<number> {
  const { messages, chunk: size } = CHUNKED_EXCHANGE;
  const reference = new A2uiClient().processor;
  reference.process([
    chunkedSurface,
    ...Array.from({ length: messages }, (_, index) => chunkedUpdate(index)),
  ]);
  const expected = snapshotState(reference);
  const allValues = Array.from({ length: messages }, (_, index) => index);
  const allRequests = Array.from({ length: messages / size - 1 }, (_, index) => (index + 1) * size);

  let totalDrops = 0;
  for (let trial = 0; trial < options.trials; trial++) {
    const random = seededRandom(options.seed + trial);
    // 1 to 3 resets per trial, at message counts anywhere in the stream.
    const dropPoints = Array.from(
      { length: 1 + Math.floor(random() * 3) },
      () => 1 + Math.floor(random() * (messages - 1)),
    );
    const link = await options.open(random);
    const { transport, proxy } = link;
    options.onStart?.({ ...link, random });
    const client = new A2uiClient({ transport });
    const errors: unknown[] = [];
    client.processor.onError((error) => errors.push(error));
    const resets: unknown[] = [];
    client.subscribe((event) => {
      if (event.type === 'reset') resets.push(event);
    });
    const seen = await runChunkedExchange(client, (received) => {
      // Some resets hit the `more` action just sent, in flight: its retry must not be applied twice.
      const justAsked = received % size === 0 && received < messages;
      if (justAsked && random() < 0.3) {
        totalDrops++;
        proxy.drop();
      } else if (dropPoints.includes(received)) {
        dropPoints.splice(dropPoints.indexOf(received), 1);
        totalDrops++;
        proxy.drop();
      }
    });
    expect({ trial, seen }).toEqual({ trial, seen: allValues });
    expect(snapshotState(client.processor)).toEqual(expected);
    expect(errors).toEqual([]);
    expect(resets).toEqual([]);
    expect(options.chunked.requests.get(transport.connectionId!)).toEqual(allRequests);
    await options.beforeClose?.(link);
    await client.close();
    await proxy.close();
  }
  return totalDrops;
}

/** The agent of a churn test, and what it counted. */
export interface ChurnAgent {
  readonly agent: A2uiAgent;
  /** Connections opened so far. */
  connects(): number;
  /** How many connections ended for each reason, e.g. `{ 'client-closed': 500 }`. */
  reasons(): Partial<Record<DisconnectReason, number>>;
}

/**
 * An agent that sends two messages (a surface and one update) to every connection and counts
 * connects and disconnect reasons: for tests that open and leave connections by the thousand.
 */
export function createChurnAgent(): ChurnAgent {
  const reasons = new Map<DisconnectReason, number>();
  let connects = 0;
  return {
    agent: {
      onConnect(connection) {
        connects++;
        connection.send([chunkedSurface, chunkedUpdate(1)]);
      },
      onDisconnect(_connection, reason) {
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      },
    },
    connects: () => connects,
    reasons: () => Object.fromEntries(reasons),
  };
}

/**
 * Runs `task(0)` … `task(total − 1)`, `batch` at a time: each batch runs concurrently and ends
 * before the next starts.
 *
 * @example
 * ```ts
 * await runInBatches(1_000, 20, (index) => cycle(index)); // 50 batches of 20
 * ```
 */
export async function runInBatches(
  total: number,
  batch: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < total; start += batch) {
    const size = Math.min(batch, total - start);
    await Promise.all(Array.from({ length: size }, (_, offset) => task(start + offset)));
  }
}

/** The agent of a slow-reader test, and what it did. */
export interface FloodAgent {
  readonly agent: A2uiAgent;
  /** Resolves once every message was sent (or the connection closed while sending). */
  readonly sent: Promise<void>;
  /** The connection it streamed to, once there is one. */
  connection(): Connection | undefined;
}

/**
 * An agent that streams `count` updates of `payload` (numbered, to `/blob` of the exchange's
 * surface) to the first connection, yielding to I/O between messages as a real producer would:
 * far more than a link may buffer for a client that stopped reading.
 *
 * @param count - updates to send @default 200
 * @param payload - the text of each update @default 64 KiB of `x`
 */
export function createFloodAgent(count = 200, payload = 'x'.repeat(64 * 1024)): FloodAgent {
  const sent = createDeferred<void>();
  let current: Connection | undefined;
  return {
    agent: {
      async onConnect(connection) {
        current = connection;
        connection.send(chunkedSurface);
        for (let index = 0; index < count; index++) {
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 'counter', path: '/blob', value: `${index}:${payload}` },
          });
          await yieldToIo();
        }
        sent.resolve();
      },
    },
    sent: sent.promise,
    connection: () => current,
  };
}

/** A server of {@link runGracefulRestart}, listening on 127.0.0.1. */
export interface RestartableServer {
  readonly port: number;
  /**
   * True once the client's link rests on the server, e.g. REST's long poll waits there (so the
   * shutdown answers it rather than refusing the next one). @default always
   */
  idle?(): boolean;
  /** The graceful shutdown under test (`close()` of the binding's Node listener). */
  close(): Promise<void>;
}

/** Options of {@link runGracefulRestart}. */
export interface GracefulRestartOptions {
  /** Starts the binding's server hosting `agent` on 127.0.0.1:`port` (0 picks one). */
  start(agent: A2uiAgent, port: number): Promise<RestartableServer>;
  /** A client transport to the server on `port`, reconnecting quickly. */
  connect(port: number): ClientTransport;
}

/** An agent that tells its boot number on connect, answers actions and counts disconnects. */
function bootAgent(boot: number) {
  const disconnects: DisconnectReason[] = [];
  const actions: string[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connection.send([
        chunkedSurface,
        { version: 'v0.9', updateDataModel: { surfaceId: 'counter', path: '/boot', value: boot } },
      ]);
    },
    onAction(connection, action) {
      actions.push(action.name);
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'counter', path: '/answer', value: action.name },
      });
    },
    onDisconnect: (_connection, reason) => void disconnects.push(reason),
  };
  return { agent, disconnects, actions };
}

/**
 * A graceful restart: a client on a server that closes (as on SIGTERM) must not close for good
 * but reconnect, and once a new server listens on the same port, start over there — a `reset`,
 * the new session's surface, its messages and an answered action. The closing server's agent
 * sees `server-closed`.
 *
 * @example
 * ```ts
 * await runGracefulRestart({
 *   start: async (agent, port) => serveWs(createWsServer({ agent }), { port }),
 *   connect: (port) => connectWs({ url: `ws://127.0.0.1:${port}`, WebSocket, reconnect: FAST }),
 * });
 * ```
 */
export async function runGracefulRestart(options: GracefulRestartOptions): Promise<void> {
  const before = bootAgent(1);
  const first = await options.start(before.agent, 0);
  let second: RestartableServer | undefined;
  const client = new A2uiClient({ transport: options.connect(first.port) });
  try {
    const resets: unknown[] = [];
    const statuses: ConnectionStatus[] = [];
    client.subscribe((event) => {
      if (event.type === 'reset') resets.push(event.reason);
      if (event.type === 'status') statuses.push(event.status);
    });
    void client.connect().catch(() => {});
    const model = () => client.processor.getSurface('counter')?.dataModel;
    await waitForClient(client, () => model()?.get('/boot') === 1, 'the first server');
    while (first.idle && !first.idle()) await new Promise((resolve) => setTimeout(resolve, 0));

    await first.close();
    expect(before.disconnects).toEqual(['server-closed']);
    await waitForClient(
      client,
      () => statuses.includes('reconnecting') || statuses.includes('closed'),
      'a reconnect',
    );
    expect(statuses).not.toContain('closed');

    const after = bootAgent(2);
    second = await options.start(after.agent, first.port);
    await waitForClient(client, () => model()?.get('/boot') === 2, 'the restarted server');
    expect(resets).toHaveLength(1);
    await client.send({
      version: 'v0.9',
      action: {
        name: 'after-restart',
        surfaceId: 'counter',
        sourceComponentId: 'root',
        timestamp: new Date().toISOString(),
        context: {},
      },
    });
    await waitForClient(client, () => model()?.get('/answer') === 'after-restart', 'the answer');
    expect(after.actions).toEqual(['after-restart']);
    expect(before.actions).toEqual([]);
    expect(client.status).toBe('open');
  } finally {
    await client.close();
    await second?.close();
  }
}
