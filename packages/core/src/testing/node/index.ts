/**
 * `@a2ui-ts/core/testing/node`: test utilities that need Node (`node:net`): the TCP fault proxy
 * and `eventually`. Runtime-neutral utilities are in `@a2ui-ts/core/testing`.
 *
 * @module
 */
export { eventually } from './eventually.js';
export type { TcpProxy } from './tcp-proxy.js';
export { createTcpProxy } from './tcp-proxy.js';
