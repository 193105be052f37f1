export * from './errors/index.js';
export * from './manifest/index.js';
export * from './permissions/index.js';
export * from './protocol/index.js';
export * from './runtime/index.js';
export * from './server/index.js';
