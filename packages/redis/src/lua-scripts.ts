/**
 * The Lua scripts that make each store operation one atomic round trip. They are run with
 * `EVALSHA` and loaded with `EVAL` when Redis does not know them (first use, or after a restart
 * emptied its script cache). Times come from Redis' own clock (`TIME`), so nodes with skewed
 * clocks still agree on leases.
 */

import { createHash } from 'node:crypto';

/** A script and its SHA-1. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Whether `owner` (a node id) is another live node: its lease in KEYS[nodes] is current. */
const OWNED_BY_OTHER_LIVE_NODE = `local function ownedByOtherLiveNode(recordKey, nodesKey, me)
  local current = redis.call('GET', recordKey)
  if not current then return false end
  local ok, record = pcall(cjson.decode, current)
  if not ok or type(record) ~= 'table' or record.owner == me then return false end
  ${NOW}
  local expiry = tonumber(redis.call('ZSCORE', nodesKey, record.owner))
  if expiry and expiry > now then return record.owner end
  return false
end`;

/**
 * Whether a writer holding fencing token `token` on node `me` was superseded: the connection's
 * record names another owner or token, or a newer token was handed out since (another node took
 * the connection over, even if its record is gone again). A node that stalled past its lease
 * learns it here, on its first write, before it can touch what the new owner wrote.
 */
const SUPERSEDED = `local function superseded(recordKey, fenceKey, me, token)
  local current = redis.call('GET', recordKey)
  if current then
    local ok, record = pcall(cjson.decode, current)
    if ok and type(record) == 'table' and (record.owner ~= me or tonumber(record.fencingToken) ~= token) then
      return true
    end
  end
  return tonumber(redis.call('GET', fenceKey) or '0') > token
end`;

/**
 * KEYS: record, nodes, fence. ARGV: record JSON (an object), this node's id, TTL ms, fencing
 * token (0: take a new one), fence TTL ms.
 * Writes the record with its fencing token unless another live node owns the connection
 * (`{0, owner}`) or a newer token was handed out (`{2, latest}`). A new token is one more than
 * any before it for this connection. Returns `{1, token}`.
 */
export const SET_RECORD = script(`${OWNED_BY_OTHER_LIVE_NODE}
local other = ownedByOtherLiveNode(KEYS[1], KEYS[2], ARGV[2])
if other then return {0, other} end
local token = tonumber(ARGV[4])
local latest = tonumber(redis.call('GET', KEYS[3]) or '0')
if token == 0 then
  token = latest + 1
  redis.call('SET', KEYS[3], token)
elseif latest > token then
  return {2, tostring(latest)}
elseif latest < token then
  -- The counter was lost (Redis restarted empty): it resumes from the token still in use.
  redis.call('SET', KEYS[3], token)
end
redis.call('PEXPIRE', KEYS[3], ARGV[5])
local record = string.sub(ARGV[1], 1, -2) .. ',"fencingToken":' .. token .. '}'
redis.call('SET', KEYS[1], record, 'PX', ARGV[3])
return {1, token}`);

/**
 * KEYS: record, nodes. ARGV: this node's id.
 * Deletes the record unless another live node owns the connection (it took it over).
 */
export const DELETE_RECORD = script(`${OWNED_BY_OTHER_LIVE_NODE}
if ownedByOtherLiveNode(KEYS[1], KEYS[2], ARGV[1]) then return 0 end
return redis.call('DEL', KEYS[1])`);

/**
 * KEYS: log, meta, record, fence. ARGV: maxEvents, maxBytes, TTL ms, force ('1'|'0'), channel,
 * payload, this node's id, its fencing token, then seq, data pairs (consecutive seqs).
 * Refuses a writer whose token was superseded (`{3, 0}`). Appends the entries after the log's
 * last one; a first seq past `last + 1` is refused (`{0, last}`) unless `force`, which starts the
 * log over there (what came before is a gap). Evicts the oldest entries past the limits,
 * refreshes the TTLs and publishes `payload`. Returns `{1, last}`.
 */
export const APPEND = script(`${SUPERSEDED}
if superseded(KEYS[3], KEYS[4], ARGV[7], tonumber(ARGV[8])) then return {3, 0} end
if redis.call('HEXISTS', KEYS[2], 'ended') == 1 then return {1, 0} end
local last = tonumber(redis.call('HGET', KEYS[2], 'last') or '0')
local dropped = tonumber(redis.call('HGET', KEYS[2], 'dropped') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
local first = tonumber(ARGV[9])
if first > last + 1 then
  if ARGV[4] ~= '1' then return {0, last} end
  redis.call('DEL', KEYS[1])
  dropped = first - 1
  last = first - 1
  bytes = 0
end
local added = 0
for i = 9, #ARGV, 2 do
  if tonumber(ARGV[i]) == last + 1 then
    redis.call('RPUSH', KEYS[1], ARGV[i + 1])
    bytes = bytes + #ARGV[i + 1]
    last = last + 1
    added = added + 1
  end
end
local count = redis.call('LLEN', KEYS[1])
local maxEvents = tonumber(ARGV[1])
local maxBytes = tonumber(ARGV[2])
while count > maxEvents or (bytes > maxBytes and count > 1) do
  local gone = redis.call('LPOP', KEYS[1])
  bytes = bytes - #gone
  dropped = dropped + 1
  count = count - 1
end
redis.call('HSET', KEYS[2], 'last', last, 'dropped', dropped, 'bytes', bytes)
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if count > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if added > 0 then redis.call('PUBLISH', ARGV[5], ARGV[6]) end
return {1, last}`);

/**
 * KEYS: log, meta. ARGV: afterSeq, limit (-1: all).
 * Returns `{1, last, data...}` (the entries after `afterSeq`), `{0, last}` when some of them are
 * gone, `{1, 0}` for a log that does not exist, `{2, last, reason}` for a log that ended.
 */
export const READ = script(`local last = tonumber(redis.call('HGET', KEYS[2], 'last') or '0')
local ended = redis.call('HGET', KEYS[2], 'ended')
if ended then return {2, last, ended} end
local after = tonumber(ARGV[1])
if after >= last then return {1, last} end
local dropped = tonumber(redis.call('HGET', KEYS[2], 'dropped') or '0')
if after < dropped then return {0, last} end
local start = after - dropped
local limit = tonumber(ARGV[2])
local stop = -1
if limit >= 0 then stop = start + limit - 1 end
if limit == 0 then return {1, last} end
local result = {1, last}
for _, data in ipairs(redis.call('LRANGE', KEYS[1], start, stop)) do result[#result + 1] = data end
return result`);

/**
 * KEYS: log, meta. ARGV: throughSeq.
 * Drops the entries up to `throughSeq` (the client has them). Any node may: the client's
 * acknowledgement may reach a node that follows the session.
 */
export const TRIM = script(`local last = tonumber(redis.call('HGET', KEYS[2], 'last') or '0')
if last == 0 then return 0 end
local through = math.min(tonumber(ARGV[1]), last)
local dropped = tonumber(redis.call('HGET', KEYS[2], 'dropped') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
while dropped < through do
  local gone = redis.call('LPOP', KEYS[1])
  if not gone then dropped = through break end
  bytes = bytes - #gone
  dropped = dropped + 1
end
redis.call('HSET', KEYS[2], 'dropped', dropped, 'bytes', bytes)
return 1`);

/**
 * KEYS: log, meta, record, fence. ARGV: reason, TTL ms, channel, payload, this node's id, its
 * fencing token.
 * Ends the log: drops its entries, leaves a tombstone (`ended`) for followers still setting up,
 * and publishes the end. A superseded writer ends nothing (`0`): the log is the new owner's.
 */
export const END = script(`${SUPERSEDED}
if superseded(KEYS[3], KEYS[4], ARGV[5], tonumber(ARGV[6])) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[2], 'ended', ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1`);

/**
 * KEYS: nodes. ARGV: node id, lease TTL ms, forget-after ms.
 * Renews the lease of a node and lists the leases (forgetting those expired long ago). Returns
 * `{previous expiry or -1, now, id, expiry, id, expiry...}`.
 */
export const RENEW_LEASE = script(`${NOW}
local previous = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '-1')
local ttl = tonumber(ARGV[2])
local forget = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - forget)
redis.call('PEXPIRE', KEYS[1], forget + ttl)
local result = {previous, now}
for _, item in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')) do result[#result + 1] = item end
return result`);

/** KEYS: nodes. ARGV: node id. 1 when the node's lease is current. */
export const IS_ALIVE = script(`${NOW}
local expiry = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if expiry and expiry > now then return 1 end
return 0`);

/**
 * KEYS: nodes, inbox of the target. ARGV: target id, payload, max inbox length, TTL ms.
 * Adds `payload` to the inbox of a live node; 0 when its lease is not current.
 */
export const SEND_TO_NODE = script(`${NOW}
local expiry = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if not expiry or expiry <= now then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'm', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`);
