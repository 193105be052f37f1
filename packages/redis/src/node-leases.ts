/**
 * Node liveness: every node renews its lease in one sorted set (`<prefix>nodes`, node id → expiry
 * in Redis time) every `leaseTtlMs / 3`, and reads back, in the same script, which leases
 * expired. A node whose lease expired is dead to the cluster: its connections are reset onto live
 * nodes when their clients come back, links following them are ended, and requests waiting for
 * its answers fail. Liveness checks are cached for at most one renew interval.
 */
import { IS_ALIVE, RENEW_LEASE } from './lua-scripts.js';
import type { RedisContext } from './redis-context.js';
import { runScript } from './run-script.js';
import { storeUnavailable, unlessUnavailable } from './store-errors.js';

/** Timing of {@link NodeLeases}. */
export interface NodeLeaseTiming {
  /** A node is dead this long after its last renewal. */
  readonly leaseTtlMs: number;
  /** How often the lease is renewed and expiries are looked for. */
  readonly renewIntervalMs: number;
}

/** Expired leases are forgotten (removed from the set) after this many lease TTLs. */
const FORGET_AFTER_TTLS = 10;

/** The leases as one node sees them. */
export class NodeLeases {
  readonly #context: RedisContext;
  readonly #timing: NodeLeaseTiming;
  readonly #downListeners = new Set<(id: string) => void>();
  readonly #announced = new Set<string>();
  /** Node id → until when (local clock) it is known alive. */
  readonly #aliveUntil = new Map<string, number>();
  readonly #onLost: () => Promise<void>;
  /** This node's recovery after a lapse (its stale sessions being ended), while it runs. */
  #recovering: Promise<void> | undefined;
  #confirming: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #renewedAt = 0;
  #stopped = false;

  /**
   * @param onLost - this node found its own lease expired (it was dead to the cluster for a
   *   while); resolves once the sessions other nodes took over meanwhile are ended here
   */
  constructor(context: RedisContext, timing: NodeLeaseTiming, onLost: () => Promise<void>) {
    this.#context = context;
    this.#timing = timing;
    this.#onLost = onLost;
  }

  /** Whether this node's lease is current as far as it knows (its last renewal is recent). */
  get current(): boolean {
    return Date.now() - this.#renewedAt < this.#timing.leaseTtlMs;
  }

  /** Whether the lease is current and no recovery from a lapse is running. */
  get settled(): boolean {
    return this.current && this.#recovering === undefined;
  }

  /**
   * Resolves once this node knows it holds its lease: at once while a renewal is recent; after a
   * stall, once a renewal confirmed it, or found it lapsed and the sessions taken over meanwhile
   * were ended. While Redis cannot be reached it resolves too: this node keeps serving the
   * connections it runs, as during any outage.
   */
  async confirm(): Promise<void> {
    if (!this.current && !this.#stopped) {
      this.#confirming ??= this.renew()
        .catch(() => {})
        .finally(() => {
          this.#confirming = undefined;
        });
      await this.#confirming;
    }
    if (this.#recovering) await this.#recovering;
  }

  /** Takes the lease (throws when Redis cannot be reached) and keeps renewing it. */
  async start(): Promise<void> {
    await this.renew();
    this.#schedule();
  }

  /** Renews now (also after Redis came back). */
  async renew(): Promise<void> {
    const { client, keys, nodeId } = this.#context;
    const { leaseTtlMs } = this.#timing;
    // The lease runs from when Redis got the renewal, no earlier than it was sent.
    const sentAt = Date.now();
    const [previous, now, ...leases] = await runScript<[number, number, ...string[]]>(
      client,
      RENEW_LEASE,
      [keys.nodes],
      [nodeId, leaseTtlMs, leaseTtlMs * FORGET_AFTER_TTLS],
    );
    const lapsed =
      this.#renewedAt > 0 && (Number(previous) === -1 || Number(previous) <= Number(now));
    this.#renewedAt = sentAt;
    // Other nodes may have taken this node for dead (and reset its clients) meanwhile.
    if (lapsed) {
      const recovering = this.#onLost().finally(() => {
        if (this.#recovering === recovering) this.#recovering = undefined;
      });
      this.#recovering = recovering;
    }
    const live = new Set<string>();
    const present = new Set<string>();
    for (let index = 0; index + 1 < leases.length; index += 2) {
      const id = String(leases[index]);
      present.add(id);
      if (Number(leases[index + 1]) > Number(now)) live.add(id);
      else this.#down(id);
    }
    // A node that left (closed) is down too: it will not answer what it was asked. Unless Redis
    // lost the set (our own lease was gone too): the others are writing theirs back.
    // Known: live at the last renewal, or found alive by a check since (a request may wait for it).
    if (Number(previous) !== -1 && !this.#context.settling())
      for (const id of new Set([...this.#live, ...this.#aliveUntil.keys()]))
        if (!live.has(id) && id !== nodeId) this.#down(id);
    this.#live = live;
    // Forgotten leases need no memory of having been announced.
    for (const id of this.#announced) if (!present.has(id)) this.#announced.delete(id);
  }

  /** Nodes with a current lease at the last renewal. */
  #live = new Set<string>();

  /**
   * Whether node `id`'s lease is current.
   * @throws A2uiError `LIMIT_EXCEEDED` (store unavailable) while Redis is down
   */
  async isAlive(id: string): Promise<boolean> {
    if (id === this.#context.nodeId) return !this.#stopped;
    const until = this.#aliveUntil.get(id);
    if (until !== undefined && until > Date.now()) return true;
    const { client, keys, retryAfterMs } = this.#context;
    const alive = await unlessUnavailable(retryAfterMs, () =>
      runScript<number>(client, IS_ALIVE, [keys.nodes], [id]),
    );
    if (alive === 1) {
      this.#aliveUntil.set(id, Date.now() + this.#timing.renewIntervalMs);
      this.#announced.delete(id);
    } else {
      this.#aliveUntil.delete(id);
      if (this.#context.settling())
        throw storeUnavailable(
          new Error(`Redis restarted; node ${id} may not have renewed its lease yet`),
          retryAfterMs,
        );
    }
    return alive === 1;
  }

  /** Calls `listener` with each node whose lease expired. */
  onNodeDown(listener: (id: string) => void): () => void {
    this.#downListeners.add(listener);
    return () => {
      this.#downListeners.delete(listener);
    };
  }

  /** Stops renewing and gives the lease back (a clean shutdown, not a death). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const { client, keys, nodeId } = this.#context;
    await client.sendCommand(['ZREM', keys.nodes, nodeId]).catch(() => {});
  }

  #down(id: string): void {
    if (id === this.#context.nodeId || this.#announced.has(id)) return;
    this.#announced.add(id);
    this.#aliveUntil.delete(id);
    for (const listener of [...this.#downListeners]) listener(id);
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.renew()
        .catch((error) => this.#context.report(error))
        .finally(() => this.#schedule());
    }, this.#timing.renewIntervalMs);
    this.#timer.unref?.();
  }
}
