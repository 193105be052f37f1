/**
 * What the Redis stores of one node share: the command connection, the key layout, the TTLs and
 * how a failure is reported. Created by `createRedisScaleOut`.
 */
import type { RedisKeys } from './keys.js';
import type { RedisCommander } from './run-script.js';

/** Shared by the stores of one node. */
export interface RedisContext {
  readonly nodeId: string;
  /** The command connection (no offline queue: commands fail at once while Redis is down). */
  readonly client: RedisCommander;
  readonly keys: RedisKeys;
  /** TTL of every key of a connection, refreshed while its owner runs it. */
  readonly keyTtlMs: number;
  /** The `retryAfterMs` of the refusals raised while Redis is unavailable. */
  readonly retryAfterMs: number;
  /** A background write failed (the status tells whether Redis is down). */
  report(error: unknown): void;
  /**
   * True for a while after Redis came back empty (restarted): live nodes are still writing their
   * leases and records again, so "not found" may be untrue and is answered with a retry instead.
   */
  settling(): boolean;
}
