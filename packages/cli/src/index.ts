export { checkMessages } from './check-messages.js';
export type { ReadFailure, ReadItem, ReadMessage } from './read-messages.js';
export { isReadFailure, readMessages } from './read-messages.js';
export type { CliIo } from './run-cli.js';
export { runCli } from './run-cli.js';
