export * from './errors/index.js';
export * from './manifest/index.js';
