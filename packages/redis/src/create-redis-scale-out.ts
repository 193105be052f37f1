/**
 * `createRedisScaleOut`: the three stores of the session host's scale-out seam (registry, replay
 * logs, router) on one Redis, with the node's lease, TTL refreshes, status, and recovery when
 * Redis comes back. Pass `hostOptions` to any binding (`createSseJsonRpcServer({ agent,
 * ...scaleOut.hostOptions })`) and several nodes behind one load balancer serve every client.
 */
import { A2uiError, createConnectionId } from '@a2ui-ts/core';
import {
  type ConnectionRegistry,
  DEFAULT_REPLAY_LOG_LIMITS,
  type ReplayLog,
  type ReplayLogLimits,
  type SessionRouter,
} from '@a2ui-ts/core/host';
import { computeBackoffDelay } from '@a2ui-ts/core/link';
import {
  createClient,
  type RedisClientOptions,
  type RedisFunctions,
  type RedisModules,
  type RedisScripts,
} from '@redis/client';
import { redisKeys } from './keys.js';
import { LogSubscriptions, type RedisSubscriber } from './log-subscriptions.js';
import { NodeLeases } from './node-leases.js';
import { FENCE_TTL_MULTIPLE, RedisConnectionRegistry } from './redis-connection-registry.js';
import type { RedisContext } from './redis-context.js';
import { RedisReplayLog, type ReplayLogStore } from './redis-replay-log.js';
import { NodeInbox, RedisSessionRouter } from './redis-session-router.js';
import type { RedisCommander } from './run-script.js';

/** Options of {@link createRedisScaleOut}. Durations in milliseconds, sizes in bytes. */
export interface RedisScaleOutOptions {
  /** `redis[s]://[[user][:password]@]host[:port][/db]`. @default 'redis://127.0.0.1:6379' */
  url?: string;
  /**
   * More node-redis client options (TLS, credentials, `name`…). `RESP`, `disableOfflineQueue`
   * and the reconnect strategy are set by this package.
   */
  clientOptions?: Omit<RedisClientOptions, 'url' | 'RESP' | 'disableOfflineQueue'>;
  /** This node's id: unique per process, never reused. @default a fresh random id */
  nodeId?: string;
  /** Prefix of every key and channel, so several deployments can share one Redis. @default 'a2ui:' */
  keyPrefix?: string;
  /**
   * A node is dead to the others this long after its last lease renewal (renewed every third of
   * it): its clients are reset onto live nodes when they come back. Keep it well above a GC pause
   * or a Redis failover. @default 10000
   */
  leaseTtlMs?: number;
  /**
   * TTL of every key of a connection (record, log). The owner refreshes it every third of it while
   * the connection lives, so the keys of a node that died disappear at most this long after it.
   * @default 60000
   */
  keyTtlMs?: number;
  /**
   * Limits of each connection's replay log, in Redis and in the owner's memory (Redis counts
   * UTF-8 bytes). @default `{ maxEvents: 1000, maxBytes: 4194304 }`
   */
  replayBuffer?: ReplayLogLimits;
  /** Deadline of one Redis command (and of connecting). @default 5000 */
  commandTimeoutMs?: number;
  /** Retry hint of the refusals raised while Redis is unavailable. @default 1000 */
  retryAfterMs?: number;
  /** Approximate cap on a node's inbox stream (requests waiting for it). @default 100000 */
  maxInboxLength?: number;
  /** Reconnect backoff: the first and the longest delay. @default `{ initialDelayMs: 50, maxDelayMs: 2000 }` */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * Receives Redis errors: connection trouble (once per outage) and failed background writes.
   * @default `console.warn`, once per status change
   */
  onError?: (error: unknown) => void;
}

/** Defaults of {@link RedisScaleOutOptions}, in one place. */
export const REDIS_SCALE_OUT_DEFAULTS = {
  url: 'redis://127.0.0.1:6379',
  keyPrefix: 'a2ui:',
  leaseTtlMs: 10_000,
  keyTtlMs: 60_000,
  replayBuffer: DEFAULT_REPLAY_LOG_LIMITS,
  commandTimeoutMs: 5_000,
  retryAfterMs: 1_000,
  maxInboxLength: 100_000,
  reconnect: { initialDelayMs: 50, maxDelayMs: 2_000 },
} as const;

/** Whether Redis can be used right now. */
export type RedisStatus = 'ready' | 'unavailable' | 'closed';

/** What {@link RedisScaleOut.health} reports (e.g. on a `/health` route). */
export interface RedisScaleOutHealth {
  readonly status: RedisStatus;
  readonly nodeId: string;
  /** Since when (ms since the epoch) the status holds. */
  readonly since: number;
  /** The error that made Redis unavailable. */
  readonly lastError?: string;
  /** Whether this node's lease is current. */
  readonly leaseCurrent: boolean;
  /** Times this node found its lease had lapsed (others may have reset its clients). */
  readonly leaseLapses: number;
  /** Connections this node owns (their keys it keeps alive). */
  readonly ownedConnections: number;
  /** Logs of other nodes' connections followed here. */
  readonly followers: number;
  /** Requests forwarded to other nodes still waiting for their answer. */
  readonly pendingForwards: number;
}

/** The three stores of one session host, as its options: spread them into a binding's options. */
export interface RedisHostStores {
  readonly registry: ConnectionRegistry;
  readonly router: SessionRouter;
  /** Opens the shared replay log of a connection. */
  readonly createReplayLog: (connectionId: string) => ReplayLog;
}

/** The scale-out stores of one node (see {@link createRedisScaleOut}). */
export interface RedisScaleOut {
  readonly nodeId: string;
  readonly registry: ConnectionRegistry;
  readonly router: SessionRouter;
  /** Opens the shared replay log of a connection. */
  createReplayLog(connectionId: string): ReplayLog;
  /** The stores of the process's default session host: spread them into a binding's options. */
  readonly hostOptions: RedisHostStores;
  /**
   * The stores of session host `name`, for a process that runs several (one per agent and
   * binding, as every binding creates its own host). Every node must use the same names for the
   * same hosts: requests are routed to the host of that name on the owner. Connections of
   * different hosts live under different keys (`<prefix><name>:conn:<id>`). Returns the same
   * stores for the same name.
   * @throws A2uiError `VALIDATION_FAILED` for a name that is empty or not `[A-Za-z0-9._/-]{1,100}`
   */
  forHost(name: string): RedisHostStores;
  readonly status: RedisStatus;
  /** Calls `listener` on every status change; returns the unsubscribe function. */
  onStatus(listener: (status: RedisStatus, error?: unknown) => void): () => void;
  health(): RedisScaleOutHealth;
  /**
   * Stops renewing the lease (and gives it back), fails forwarded requests still waiting, and
   * closes the Redis connections. Close the bindings (their hosts) first: they end their
   * connections, which deletes their keys.
   */
  close(): Promise<void>;
}

type Client = ReturnType<typeof createClient>;

/**
 * Connects to Redis and returns this node's scale-out stores.
 *
 * @param options - the Redis URL, this node's id, leases, TTLs, limits; see {@link RedisScaleOutOptions}
 * @returns the stores, once connected and holding a lease
 * @throws A2uiError `TRANSPORT_ERROR` when Redis cannot be reached within `commandTimeoutMs`
 *
 * @example
 * ```ts
 * const scaleOut = await createRedisScaleOut({ url: process.env.A2UI_REDIS_URL });
 * const a2ui = createSseJsonRpcServer({ agent, ...scaleOut.hostOptions });
 * // On shutdown: await a2ui.close(); await scaleOut.close();
 * ```
 */
export async function createRedisScaleOut(
  options: RedisScaleOutOptions = {},
): Promise<RedisScaleOut> {
  const defaults = REDIS_SCALE_OUT_DEFAULTS;
  const url = options.url ?? defaults.url;
  const nodeId = options.nodeId ?? createConnectionId();
  const leaseTtlMs = options.leaseTtlMs ?? defaults.leaseTtlMs;
  const keyTtlMs = options.keyTtlMs ?? defaults.keyTtlMs;
  const commandTimeoutMs = options.commandTimeoutMs ?? defaults.commandTimeoutMs;
  const renewIntervalMs = Math.max(1, Math.floor(leaseTtlMs / 3));
  const blockMs = Math.max(100, Math.min(5_000, renewIntervalMs));
  const reconnect = { ...defaults.reconnect, ...options.reconnect };
  const limits = { ...defaults.replayBuffer, ...options.replayBuffer };
  const prefix = options.keyPrefix ?? defaults.keyPrefix;

  let status: RedisStatus = 'ready';
  /** Until when (ms) lookups that find nothing are retried, after Redis came back empty. */
  let settlingUntil = 0;
  let since = Date.now();
  let lastError: unknown;
  let leaseLapses = 0;
  const statusListeners = new Set<(status: RedisStatus, error?: unknown) => void>();
  const reportError =
    options.onError ??
    ((error: unknown) => console.warn(`[a2ui/redis] node ${nodeId}:`, describe(error)));

  const base: RedisClientOptions<RedisModules, RedisFunctions, RedisScripts, 2> = {
    ...options.clientOptions,
    url,
    RESP: 2,
    disableOfflineQueue: true,
    socket: {
      ...(options.clientOptions?.socket as object | undefined),
      connectTimeout: commandTimeoutMs,
      reconnectStrategy: (retries: number) =>
        computeBackoffDelay(retries + 1, { ...reconnect, multiplier: 2 }),
    },
  };
  const commands = createClient({ ...base, commandOptions: { timeout: commandTimeoutMs } });
  const subscriber = commands.duplicate();
  const reader = commands.duplicate({
    commandOptions: { timeout: blockMs + commandTimeoutMs },
  });
  const clients: Client[] = [commands, subscriber, reader] as Client[];

  const setStatus = (next: RedisStatus, error?: unknown): void => {
    if (error !== undefined) lastError = error;
    if (status === next) return;
    status = next;
    since = Date.now();
    if (next === 'unavailable' && error !== undefined && !options.onError) reportError(error);
    for (const listener of [...statusListeners]) listener(next, error);
  };

  const context: RedisContext = {
    nodeId,
    client: commands as unknown as RedisCommander,
    keys: redisKeys(prefix),
    keyTtlMs,
    retryAfterMs: options.retryAfterMs ?? defaults.retryAfterMs,
    // While Redis is down its status says so; failed writes are not news then.
    report: (error) => {
      if (status === 'ready' || options.onError) reportError(error);
    },
    settling: () => Date.now() < settlingUntil,
  };
  const subscriptions = new LogSubscriptions(
    subscriber as unknown as RedisSubscriber,
    context.report,
  );
  const leases = new NodeLeases(context, { leaseTtlMs, renewIntervalMs }, () => {
    leaseLapses++;
    context.report(
      new A2uiError(
        'CONNECTION_CLOSED',
        `The lease of node ${nodeId} lapsed: other nodes may have reset its connections meanwhile.`,
      ),
    );
    return reassertAll().catch(reportError);
  });
  const readerReady = new Set<() => void>();
  const inbox = new NodeInbox(context, leases, reader as unknown as RedisCommander, {
    blockMs,
    maxInboxLength: options.maxInboxLength ?? defaults.maxInboxLength,
    waitForReconnect: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, reconnect.maxDelayMs);
        function done() {
          clearTimeout(timer);
          readerReady.delete(done);
          resolve();
        }
        readerReady.add(done);
      }),
  });

  interface HostEntry {
    readonly stores: RedisHostStores;
    readonly registry: RedisConnectionRegistry;
    readonly logs: ReplayLogStore;
  }
  const hosts = new Map<string, HostEntry>();
  const hostEntry = (name: string): HostEntry => {
    const existing = hosts.get(name);
    if (existing) return existing;
    const scoped: RedisContext = { ...context, keys: redisKeys(prefix, name || undefined) };
    const registry = new RedisConnectionRegistry(scoped);
    const logs: ReplayLogStore = {
      context: scoped,
      subscriptions,
      limits,
      writers: new Set(),
      registry,
      // Another node took the connection over while this one stalled: its session here is stale.
      onSuperseded: (connectionId) => {
        inbox
          .dispatchLocal(name, { type: 'disconnect', connectionId, reason: 'reset' })
          .catch(reportError);
      },
    };
    const entry: HostEntry = {
      registry,
      logs,
      stores: {
        registry,
        router: new RedisSessionRouter(nodeId, name, inbox, leases),
        createReplayLog: (connectionId) => new RedisReplayLog(logs, connectionId),
      },
    };
    hosts.set(name, entry);
    return entry;
  };
  const defaultHost = hostEntry('').stores;

  /**
   * Writes this node's records again; a connection another live node took over meanwhile (this
   * node was dead to the others) is ended here with `reset`, so that one node runs it.
   */
  const reassertAll = async (): Promise<void> => {
    for (const [name, { registry }] of hosts) {
      const lost = await registry.reassert();
      for (const connectionId of lost)
        await inbox.dispatchLocal(name, { type: 'disconnect', connectionId, reason: 'reset' });
    }
  };

  /** The Redis server's `run_id`: a new one means it restarted (empty). */
  const readRunId = async (): Promise<string | undefined> =>
    /run_id:(\w+)/.exec(await commands.sendCommand<string>(['INFO', 'server']))?.[1];
  let runId: string | undefined;
  let closed = false;
  const recover = async (): Promise<void> => {
    // After an outage: take the lease again, then restore what Redis may have lost.
    const current = await readRunId();
    const restarted = runId !== undefined && current !== runId;
    runId = current;
    // Every live node renews within a lease TTL of its own reconnect.
    if (restarted) settlingUntil = Date.now() + leaseTtlMs + reconnect.maxDelayMs;
    await leases.renew();
    if (restarted) inbox.failPending('Redis restarted: the request may be lost; retry it.');
    await reassertAll();
    for (const { logs } of hosts.values())
      await Promise.all([...logs.writers].map((log) => log.resync()));
  };

  commands.on('error', (error: unknown) => setStatus('unavailable', error));
  commands.on('reconnecting', () => setStatus('unavailable', lastError));
  commands.on('ready', () => {
    if (status !== 'unavailable' || closed) return;
    recover().then(
      () => setStatus('ready'),
      (error) => reportError(error),
    );
  });
  subscriber.on('error', () => {});
  let subscriberReadyBefore = false;
  subscriber.on('ready', () => {
    if (subscriberReadyBefore) subscriptions.resync();
    subscriberReadyBefore = true;
  });
  reader.on('error', () => {});
  reader.on('ready', () => {
    for (const wake of [...readerReady]) wake();
  });

  try {
    await Promise.all(clients.map((client) => connectOnce(client, commandTimeoutMs, url)));
    runId = await readRunId();
    await leases.start();
  } catch (error) {
    for (const client of clients) client.destroy();
    throw A2uiError.isInstance(error)
      ? error
      : new A2uiError(
          'TRANSPORT_ERROR',
          `Could not use Redis at ${redact(url)}: ${describe(error)}`,
          {
            cause: error,
          },
        );
  }
  inbox.start();

  // Keeps the keys of this node's connections alive; those of a dead node expire. Fencing
  // counters live ten times longer, so they are refreshed on every fifth round only.
  let refreshRound = 0;
  const refresh = setInterval(
    () => {
      if (status !== 'ready') return;
      const ttl = String(keyTtlMs);
      const fenceTtl = String(keyTtlMs * FENCE_TTL_MULTIPLE);
      const fences = refreshRound++ % (FENCE_TTL_MULTIPLE / 2) === 0;
      for (const { registry, logs } of hosts.values()) {
        const { keys } = logs.context;
        for (const id of registry.ownedIds()) {
          for (const key of [keys.record(id), keys.log(id), keys.logMeta(id)])
            commands.sendCommand(['PEXPIRE', key, ttl]).catch(context.report);
          if (fences)
            commands.sendCommand(['PEXPIRE', keys.fence(id), fenceTtl]).catch(context.report);
        }
      }
    },
    Math.max(1, Math.floor(keyTtlMs / 3)),
  );
  refresh.unref?.();

  return {
    nodeId,
    ...defaultHost,
    hostOptions: defaultHost,
    forHost(name) {
      if (typeof name !== 'string' || !/^[A-Za-z0-9._/-]{1,100}$/.test(name)) {
        throw new A2uiError(
          'VALIDATION_FAILED',
          `A session host name has 1 to 100 of A-Z a-z 0-9 . _ / - (got ${JSON.stringify(name)}).`,
        );
      }
      return hostEntry(name).stores;
    },
    get status() {
      return status;
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    },
    health: () => ({
      status,
      nodeId,
      since,
      ...(status === 'unavailable' && lastError !== undefined
        ? { lastError: describe(lastError) }
        : {}),
      leaseCurrent: leases.current,
      leaseLapses,
      ownedConnections: [...hosts.values()].reduce(
        (sum, { registry }) => sum + [...registry.ownedIds()].length,
        0,
      ),
      followers: subscriptions.size,
      pendingForwards: inbox.pending,
    }),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(refresh);
      inbox.close();
      await leases.stop();
      reader.destroy();
      await inbox.stopped();
      await Promise.all(
        [commands, subscriber].map((client) =>
          client.isOpen ? client.close().catch(() => client.destroy()) : undefined,
        ),
      );
      setStatus('closed');
    },
  };
}

/** Connects, or fails after `timeoutMs` (node-redis would otherwise keep retrying). */
async function connectOnce(client: Client, timeoutMs: number, url: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new A2uiError(
            'TRANSPORT_ERROR',
            `Redis at ${redact(url)} did not answer in ${timeoutMs} ms.`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The URL without its password. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
