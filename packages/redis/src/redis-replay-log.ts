/**
 * The session host's {@link ReplayLog} in Redis. On the owner, the log keeps its entries in memory
 * too (a `createMemoryReplayLog` with the same limits): the owner's own resumes and reads never
 * wait for Redis, and when Redis lost entries (a failed write, a restart), the owner writes them
 * again from memory. Redis holds the copy that other nodes read and follow: a list of entry texts
 * (`<prefix>log:<id>`), a hash with `last`, `dropped` and `bytes` (`<prefix>logmeta:<id>`), both
 * with a TTL, and a pub/sub channel that carries every append and the end of the session.
 */
import type { DisconnectReason } from '@a2ui-ts/core';
import {
  createMemoryReplayLog,
  type MemoryReplayLog,
  type ReplayEntry,
  type ReplayLog,
  type ReplayLogLimits,
  type ReplayLogListener,
  type ReplayLogSize,
} from '@a2ui-ts/core/host';
import { encodeAppend, encodeEnd } from './log-channel.js';
import { LogFollower, type SharedRead } from './log-follower.js';
import type { LogSubscriptions } from './log-subscriptions.js';
import { APPEND, END, READ, TRIM } from './lua-scripts.js';
import type { RedisConnectionRegistry } from './redis-connection-registry.js';
import type { RedisContext } from './redis-context.js';
import { runScript } from './run-script.js';
import { storeUnavailable, unlessUnavailable } from './store-errors.js';

/** What the logs of one node share. */
export interface ReplayLogStore {
  readonly context: RedisContext;
  /** Whose fencing tokens the owner's writes carry. */
  readonly registry: Pick<RedisConnectionRegistry, 'fencingToken'>;
  /** Redis refused a write of this node's: another node holds a newer fencing token. */
  readonly onSuperseded: (connectionId: string) => void;
  readonly subscriptions: LogSubscriptions;
  readonly limits: Required<ReplayLogLimits>;
  /** Logs this node writes (it owns their connections), for refreshes and re-syncs. */
  readonly writers: Set<RedisReplayLog>;
}

/** Refused appends in a row before the owner starts the Redis copy over (a gap there). */
const MAX_REFUSALS = 2;
/** The append script's answer to a writer whose fencing token was superseded. */
const SUPERSEDED = 3;
/** Most entries in one append script call. */
const MAX_ENTRIES_PER_WRITE = 500;

/** A {@link ReplayLog} whose entries other nodes read from Redis (see the module comment). */
export class RedisReplayLog implements ReplayLog {
  readonly connectionId: string;
  readonly #store: ReplayLogStore;
  /** The owner's copy: present once this process appended. */
  #local: MemoryReplayLog | undefined;
  #repairing = false;
  #ended = false;
  /** Redis refused this node's writes: another node runs the connection now. */
  #superseded = false;
  /** Appended in this tick, not yet sent to Redis. */
  #unsent: ReplayEntry[] = [];
  #flushQueued = false;

  constructor(store: ReplayLogStore, connectionId: string) {
    this.#store = store;
    this.connectionId = connectionId;
  }

  append(entries: readonly ReplayEntry[]): void {
    if (this.#ended || entries.length === 0) return;
    if (!this.#local) {
      this.#local = createMemoryReplayLog(this.#store.limits);
      this.#store.writers.add(this);
    }
    this.#local.append(entries);
    // What is sent in one tick goes to Redis in one script call (and one channel message).
    for (const entry of entries) this.#unsent.push(entry);
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(() => this.#flush());
    }
  }

  #flush(): void {
    this.#flushQueued = false;
    const unsent = this.#unsent;
    this.#unsent = [];
    // While a repair runs it sends these too, after the ones Redis lacks.
    if (this.#ended || this.#superseded || this.#repairing || unsent.length === 0) return;
    for (let start = 0; start < unsent.length; start += MAX_ENTRIES_PER_WRITE)
      void this.#write(unsent.slice(start, start + MAX_ENTRIES_PER_WRITE), false);
  }

  /** @throws A2uiError `LIMIT_EXCEEDED` (store unavailable) when read from Redis while it is down */
  read(
    afterSeq: number,
    options: { limit?: number } = {},
  ): ReplayEntry[] | undefined | Promise<ReplayEntry[] | undefined> {
    if (this.#local) return this.#local.read(afterSeq, options);
    return this.#readShared(afterSeq, options.limit).then((found) =>
      found.kind === 'entries'
        ? found.entries
        : found.kind === 'ended' && afterSeq >= found.last
          ? []
          : undefined,
    );
  }

  lastSeq(): number | Promise<number> {
    if (this.#local) return this.#local.lastSeq();
    return this.#sharedLastSeq();
  }

  async trim(throughSeq: number): Promise<void> {
    this.#local?.trim(throughSeq);
    const { client, keys, retryAfterMs } = this.#store.context;
    try {
      await runScript(
        client,
        TRIM,
        [keys.log(this.connectionId), keys.logMeta(this.connectionId)],
        [throughSeq],
      );
    } catch (error) {
      // The owner trimmed its own copy; the Redis copy expires or is trimmed next time.
      if (this.#local) this.#store.context.report(error);
      else throw storeUnavailable(error, retryAfterMs);
    }
  }

  size(): ReplayLogSize | Promise<ReplayLogSize> {
    if (this.#local) return this.#local.size();
    return this.#sharedSize();
  }

  /** Follows appends: from memory on the owner, from the log's channel on other nodes. */
  subscribe(listener: ReplayLogListener): () => void {
    if (this.#local) return this.#local.subscribe(listener);
    const { subscriptions, context } = this.#store;
    const channel = context.keys.logChannel(this.connectionId);
    const follower = new LogFollower(
      { read: (afterSeq) => this.#readShared(afterSeq) },
      listener,
      (closed) => subscriptions.remove(channel, closed),
    );
    // Issued before the caller's own first read, on the same connection: nothing falls between.
    const baseline = this.#sharedLastSeq();
    baseline.catch(() => {});
    follower.start(baseline, subscriptions.add(channel, follower));
    return () => follower.close();
  }

  async end(reason: DisconnectReason): Promise<void> {
    if (this.#ended) return;
    // Followers get the last messages before the end.
    this.#flush();
    this.#ended = true;
    this.#store.writers.delete(this);
    this.#local?.end(reason);
    // The log of a connection another node took over is that node's to end.
    if (this.#superseded) return;
    const { client, keys, keyTtlMs, nodeId, report } = this.#store.context;
    const id = this.connectionId;
    try {
      await runScript(
        client,
        END,
        [keys.log(id), keys.logMeta(id), keys.record(id), keys.fence(id)],
        [reason, keyTtlMs, keys.logChannel(id), encodeEnd(reason), nodeId, this.#token() ?? 0],
      );
    } catch (error) {
      // The keys expire by their TTL; followers are ended when the owner's lease is gone.
      report(error);
    }
  }

  /** This node's fencing token for the connection, once Redis accepted its record. */
  #token(): number | undefined {
    const token = this.#store.registry.fencingToken(this.connectionId);
    return typeof token === 'number' ? token : undefined;
  }

  /** Writes to Redis whatever it lacks of the owner's copy (after Redis was down or restarted). */
  async resync(): Promise<void> {
    if (this.#ended || this.#superseded || !this.#local || this.#repairing) return;
    try {
      await this.#repair(await this.#sharedLastSeq());
    } catch (error) {
      this.#store.context.report(error);
    }
  }

  async #write(entries: readonly ReplayEntry[], force: boolean): Promise<[number, number]> {
    const { context, limits, registry } = this.#store;
    const { keys, nodeId } = context;
    const id = this.connectionId;
    const token = registry.fencingToken(id);
    // Kept in memory until Redis has the record: the re-sync after it is written sends them.
    if (token === 'pending') return [0, -1];
    const args: (string | number)[] = [
      limits.maxEvents,
      limits.maxBytes,
      context.keyTtlMs,
      force ? '1' : '0',
      keys.logChannel(id),
      encodeAppend(entries),
      nodeId,
      token ?? 0,
    ];
    for (const entry of entries) args.push(entry.seq, entry.data);
    let answer: [number, number];
    try {
      answer = await runScript<[number, number]>(
        context.client,
        APPEND,
        [keys.log(id), keys.logMeta(id), keys.record(id), keys.fence(id)],
        args,
      );
    } catch (error) {
      // Kept in memory: written again by the re-sync once Redis is back.
      context.report(error);
      return [0, -1];
    }
    if (Number(answer[0]) === SUPERSEDED) {
      if (!this.#superseded) {
        this.#superseded = true;
        this.#store.onSuperseded(id);
      }
      return [0, -1];
    }
    if (answer[0] === 0 && !this.#repairing) this.#repair(answer[1]).catch(context.report);
    return answer;
  }

  /** Sends what Redis lacks (it has everything through `sharedLast`) until it has it all. */
  async #repair(sharedLast: number): Promise<void> {
    if (this.#repairing) return;
    this.#repairing = true;
    try {
      let refusals = 0;
      let last = sharedLast;
      while (!this.#ended && this.#local && last < this.#local.lastSeq()) {
        const local = this.#local;
        let missed = refusals < MAX_REFUSALS ? local.read(last) : undefined;
        const force = missed === undefined;
        // The owner no longer has them either: Redis starts over at what memory holds.
        missed ??= local.read(local.lastSeq() - local.size().events) ?? [];
        if (missed.length === 0) break;
        const [ok, shared] = await this.#write(missed, force);
        if (shared < 0) return;
        if (ok === 0) refusals++;
        last = shared;
      }
    } finally {
      this.#repairing = false;
    }
  }

  async #readShared(afterSeq: number, limit?: number): Promise<SharedRead> {
    const { client, keys, retryAfterMs } = this.#store.context;
    const id = this.connectionId;
    const answer = await unlessUnavailable(retryAfterMs, () =>
      runScript<[number, number, ...string[]]>(
        client,
        READ,
        [keys.log(id), keys.logMeta(id)],
        [afterSeq, limit ?? -1],
      ),
    );
    const last = Number(answer[1]);
    if (answer[0] === 0) return { kind: 'gap', last };
    if (answer[0] === 2) return { kind: 'ended', reason: answer[2] as DisconnectReason, last };
    const texts = answer.slice(2) as string[];
    return {
      kind: 'entries',
      entries: texts.map((data, index) => ({ seq: afterSeq + 1 + index, data })),
      last,
    };
  }

  async #sharedLastSeq(): Promise<number> {
    const { client, keys, retryAfterMs } = this.#store.context;
    const last = await unlessUnavailable(retryAfterMs, () =>
      client.sendCommand<string | null>(['HGET', keys.logMeta(this.connectionId), 'last']),
    );
    return last === null ? 0 : Number(last);
  }

  async #sharedSize(): Promise<ReplayLogSize> {
    const { client, keys, retryAfterMs } = this.#store.context;
    const id = this.connectionId;
    const [events, bytes] = await unlessUnavailable(retryAfterMs, () =>
      Promise.all([
        client.sendCommand<number>(['LLEN', keys.log(id)]),
        client.sendCommand<string | null>(['HGET', keys.logMeta(id), 'bytes']),
      ]),
    );
    return { events, bytes: bytes === null ? 0 : Number(bytes) };
  }
}
