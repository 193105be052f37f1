export type { ReadMessage, ReadResult } from './read-messages.js';
export { readMessages } from './read-messages.js';
export type { CliIo } from './run-cli.js';
export { runCli } from './run-cli.js';
