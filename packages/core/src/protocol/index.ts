export * from './constants.js';
export * from './guards.js';
export type * from './messages.js';
export * from './renderer-metadata.js';
