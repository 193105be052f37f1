/**
 * `@a2ui-ts/core` — the A2UI v0.9 protocol engine: message types, schema validation, surfaces,
 * data model, binding, functions, catalogs, the client and the agent-side connection API.
 * Browser-safe: no `node:` imports and no `eval` at run time.
 *
 * @module
 */

export * from './agent/index.js';
export * from './binding/index.js';
export * from './catalog/index.js';
export * from './client/index.js';
export * from './errors/index.js';
export * from './functions/index.js';
export * from './host/index.js';
export * from './link/index.js';
export * from './protocol/index.js';
export * from './state/index.js';
export * from './transport/index.js';
export * from './validation/index.js';
