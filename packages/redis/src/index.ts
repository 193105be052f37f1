/**
 * `@a2ui-ts/redis` — scale-out on Redis for the a2ui-ts session host: a shared connection
 * registry, shared replay logs and cross-node routing, so that several nodes behind a load
 * balancer without sticky sessions serve every client — one node streams while another receives
 * the action.
 *
 * @module
 */

export type {
  RedisHostStores,
  RedisScaleOut,
  RedisScaleOutHealth,
  RedisScaleOutOptions,
  RedisStatus,
} from './create-redis-scale-out.js';
export { createRedisScaleOut, REDIS_SCALE_OUT_DEFAULTS } from './create-redis-scale-out.js';
export type { RedisKeys } from './keys.js';
export { redisKeys } from './keys.js';
export { RedisConnectionRegistry } from './redis-connection-registry.js';
export { RedisReplayLog } from './redis-replay-log.js';
export { NodeInbox, RedisSessionRouter } from './redis-session-router.js';
export { STORE_UNAVAILABLE, storeUnavailable } from './store-errors.js';
