/**
 * The session host's {@link ConnectionRegistry} in Redis: one JSON string per connection
 * (`<prefix>conn:<id>`) with a TTL that the owner keeps refreshing while it runs the connection,
 * so a record of a node that died expires by itself. Writes and deletes are conditional: a node
 * never overwrites or deletes the record of a connection that another live node took over.
 *
 * Each time a node takes a connection, Redis hands it a fencing token, one more than any before
 * for that id, stored in the record. The node's writes to the connection's log carry the token and
 * are refused once a newer one exists: a node that stalled past its lease (a long GC pause, a
 * stopped process) cannot write over the connection another node took over meanwhile.
 */
import { A2uiError } from '@a2ui-ts/core';
import type { ConnectionRecord, ConnectionRegistry } from '@a2ui-ts/core/host';
import { tryParseJson } from '@a2ui-ts/core/link';
import { DELETE_RECORD, SET_RECORD } from './lua-scripts.js';
import type { RedisContext } from './redis-context.js';
import { runScript } from './run-script.js';
import { storeUnavailable, unlessUnavailable } from './store-errors.js';

/** A connection's fencing counter outlives its record by this many key TTLs. */
export const FENCE_TTL_MULTIPLE = 10;

const settlingError = (id: string, retryAfterMs: number) =>
  storeUnavailable(
    new Error(`Redis restarted; the record of connection ${id} may not be restored yet`),
    retryAfterMs,
  );

/** A {@link ConnectionRegistry} whose records live in Redis, shared by every node. */
export class RedisConnectionRegistry implements ConnectionRegistry {
  readonly #context: RedisContext;
  /** Records of the connections this node owns: re-written after Redis lost them. */
  readonly #owned = new Map<string, ConnectionRecord>();
  /** Fencing tokens of the owned connections whose record Redis has accepted. */
  readonly #tokens = new Map<string, number>();
  /** Writes taking a new token, in flight, by connection id. */
  readonly #taking = new Map<string, Promise<void>>();

  constructor(context: RedisContext) {
    this.#context = context;
  }

  /**
   * The fencing token this node holds for connection `id`: a number once Redis accepted its
   * record, `'pending'` while the first write has not succeeded (Redis down), `undefined` when
   * this node does not own the connection (it never did, or was superseded).
   */
  fencingToken(id: string): number | 'pending' | undefined {
    return this.#tokens.get(id) ?? (this.#owned.has(id) ? 'pending' : undefined);
  }

  /** Ids of the connections this node owns (whose keys it keeps alive). */
  ownedIds(): IterableIterator<string> {
    return this.#owned.keys();
  }

  /**
   * @throws A2uiError `LIMIT_EXCEEDED` (`data.reason: 'store-unavailable'`) while Redis is down
   */
  async get(id: string): Promise<ConnectionRecord | undefined> {
    const { client, keys, retryAfterMs } = this.#context;
    const text = await unlessUnavailable(retryAfterMs, () =>
      client.sendCommand<string | null>(['GET', keys.record(id)]),
    );
    if (text === null) {
      if (this.#context.settling()) throw settlingError(id, retryAfterMs);
      return undefined;
    }
    const stored = tryParseJson<ConnectionRecord & { fencingToken?: number }>(text);
    if (!stored) return undefined;
    const { fencingToken: _token, ...record } = stored;
    return record;
  }

  /**
   * @throws A2uiError `CONNECTION_CLOSED` when another live node owns the connection,
   *   `LIMIT_EXCEEDED` while Redis is down (the record is written once it is back)
   */
  async set(record: ConnectionRecord): Promise<void> {
    if (record.owner === this.#context.nodeId) this.#owned.set(record.id, record);
    await this.#write(record);
  }

  /** @throws A2uiError `LIMIT_EXCEEDED` while Redis is down (the key then expires by its TTL) */
  async delete(id: string): Promise<void> {
    this.#owned.delete(id);
    this.#tokens.delete(id);
    const { client, keys, nodeId, retryAfterMs } = this.#context;
    await unlessUnavailable(retryAfterMs, () =>
      runScript(client, DELETE_RECORD, [keys.record(id), keys.nodes], [nodeId]),
    );
  }

  /** Records in Redis, of every node (a `SCAN`: for monitoring and leak tests, not hot paths). */
  async size(): Promise<number> {
    const { client, keys, retryAfterMs } = this.#context;
    return unlessUnavailable(retryAfterMs, async () => {
      let count = 0;
      let cursor = '0';
      do {
        const [next, found] = await client.sendCommand<[string, string[]]>([
          'SCAN',
          cursor,
          'MATCH',
          keys.record('*'),
          'COUNT',
          '1000',
        ]);
        cursor = next;
        count += found.length;
      } while (cursor !== '0');
      return count;
    });
  }

  /**
   * Writes every owned record again (after Redis came back, possibly empty, or this node's lease
   * lapsed). Returns the ids another live node took over meanwhile: this node's sessions of them
   * are stale.
   */
  async reassert(): Promise<string[]> {
    const lost: string[] = [];
    await Promise.all(
      [...this.#owned.values()].map((record) =>
        this.#write(record).catch((error) => {
          if (A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')
            lost.push(record.id);
          else this.#context.report(error);
        }),
      ),
    );
    return lost;
  }

  async #write(record: ConnectionRecord): Promise<void> {
    // Two writes that both take a new token would each get one, and the first reply would leave
    // this node holding a superseded token: a write waits for a take still in flight.
    const taking = this.#taking.get(record.id);
    if (taking) await taking.catch(() => {});
    if (this.#tokens.has(record.id)) return this.#writeOnce(record);
    const take = this.#writeOnce(record);
    this.#taking.set(record.id, take);
    try {
      await take;
    } finally {
      if (this.#taking.get(record.id) === take) this.#taking.delete(record.id);
    }
  }

  async #writeOnce(record: ConnectionRecord): Promise<void> {
    const { client, keys, nodeId, keyTtlMs, retryAfterMs } = this.#context;
    const [status, value] = await unlessUnavailable(retryAfterMs, () =>
      runScript<[number, number | string]>(
        client,
        SET_RECORD,
        [keys.record(record.id), keys.nodes, keys.fence(record.id)],
        [
          JSON.stringify(record),
          nodeId,
          keyTtlMs,
          this.#tokens.get(record.id) ?? 0,
          keyTtlMs * FENCE_TTL_MULTIPLE,
        ],
      ),
    );
    if (Number(status) === 1) {
      if (this.#owned.has(record.id)) this.#tokens.set(record.id, Number(value));
      return;
    }
    this.#owned.delete(record.id);
    this.#tokens.delete(record.id);
    const owner = Number(status) === 0 ? String(value) : undefined;
    throw new A2uiError(
      'CONNECTION_CLOSED',
      owner
        ? `Connection ${record.id} now belongs to node ${owner}; this node's record was not written.`
        : `Connection ${record.id} was taken over by another node; this node's record was not written.`,
      { data: { connectionId: record.id, ...(owner ? { owner } : {}) } },
    );
  }
}
