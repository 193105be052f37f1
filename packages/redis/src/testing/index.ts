/**
 * `@a2ui-ts/redis/testing` (Node only): a real `redis-server` on a free port, and a round-robin
 * HTTP proxy that plays a load balancer without sticky sessions — for tests of scaled-out servers
 * and for trying a local cluster.
 *
 * @module
 */
export type { RedisServerProcess, StartRedisServerOptions } from './redis-server.js';
export { startRedisServer } from './redis-server.js';
export type { RoundRobinProxy, RoundRobinProxyOptions } from './round-robin-proxy.js';
export { startRoundRobinProxy } from './round-robin-proxy.js';
