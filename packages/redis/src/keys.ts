/**
 * Where everything lives in Redis: one place for the key and channel names, so that the
 * documentation's table (`docs/deployment.md`) and the code cannot drift apart.
 */

/** The keys and channels of one deployment (one `keyPrefix`). */
export interface RedisKeys {
  /** Sorted set: node id → lease expiry (Redis server time, ms). */
  readonly nodes: string;
  /** Stream: requests forwarded to node `nodeId` and the answers to its own requests. */
  inbox(nodeId: string): string;
  /** String: the JSON `ConnectionRecord` of a connection. */
  record(connectionId: string): string;
  /**
   * String: the last fencing token handed out for a connection (a counter that outlives its
   * record, so a node superseded once stays superseded).
   */
  fence(connectionId: string): string;
  /** List: the replay log entries of a connection, oldest first. */
  log(connectionId: string): string;
  /** Hash: `last`, `dropped` (entries up to it are gone) and `bytes` of the log. */
  logMeta(connectionId: string): string;
  /** Pub/sub channel: appends to and the end of a connection's log. */
  logChannel(connectionId: string): string;
  /** `SCAN MATCH` pattern of every key of this deployment. */
  readonly pattern: string;
}

/**
 * The key layout under `prefix` (e.g. `a2ui:`). Nodes and inboxes belong to the process; the keys
 * of connections to one session host, named by `host` when a process runs several (one per agent
 * and binding): `a2ui:<host>:conn:<id>`.
 */
export function redisKeys(prefix: string, host?: string): RedisKeys {
  const scope = host === undefined ? prefix : `${prefix}${host}:`;
  return {
    nodes: `${prefix}nodes`,
    inbox: (nodeId) => `${prefix}inbox:${nodeId}`,
    record: (id) => `${scope}conn:${id}`,
    fence: (id) => `${scope}fence:${id}`,
    log: (id) => `${scope}log:${id}`,
    logMeta: (id) => `${scope}logmeta:${id}`,
    logChannel: (id) => `${scope}log:${id}`,
    pattern: `${prefix}*`,
  };
}
