/**
 * `@a2ui-ts/transport-a2a` — A2UI v0.9 over A2A (v1.0, and v0.3 as the A2UI samples speak it), on
 * `@a2a-js/sdk`: an A2A agent that hosts an `A2uiAgent` (a Web-standard Hono app: the agent card
 * and the JSON-RPC endpoint), and a client transport for `A2uiClient`. The Node listener is in
 * `@a2ui-ts/transport-a2a/node`.
 *
 * @module
 */

export type { Harvest } from './client/a2ui-harvester.js';
export { A2uiHarvester } from './client/a2ui-harvester.js';
export type { A2aClientOptions, A2aTransport } from './client/connect-a2a.js';
export { A2A_CLIENT_DEFAULTS, connectA2a } from './client/connect-a2a.js';
export type { A2aErrorRow, A2uiErrorDetail } from './protocol/a2a-errors.js';
export {
  A2A_TO_A2UI_ERRORS,
  A2UI_TO_A2A_ERRORS,
  fromA2aError,
  readA2uiErrorDetail,
  toA2aError,
} from './protocol/a2a-errors.js';
export {
  A2UI_EXTENSION_URI,
  A2UI_EXTENSION_URI_PREFIX,
  A2UI_METADATA,
  A2UI_MIME_TYPE,
  A2UI_MIME_TYPE_ALIAS,
  A2UI_MIME_TYPES,
  type A2uiAgentExtension,
  a2uiAgentExtension,
  a2uiExtensionUriOf,
  a2uiVersionOfExtensionUri,
  isA2uiExtensionUri,
  isA2uiMimeType,
  LAST_EVENT_ID_HEADER,
  offeredVersionsOfExtensions,
} from './protocol/a2ui-extension.js';
export {
  a2uiMessagesOf,
  createA2uiDataPart,
  createTextPart,
  isA2uiDataPart,
  partMimeType,
  partSeq,
} from './protocol/a2ui-parts.js';
export { partsOfAgentText } from './protocol/agent-text-parts.js';
export type { ClientMetadataSplit } from './protocol/client-metadata.js';
export { normalizeClientCapabilities, splitClientMetadata } from './protocol/client-metadata.js';
export { A2uiAgentExecutor } from './server/a2ui-agent-executor.js';
export { A2uiRequestHandler } from './server/a2ui-request-handler.js';
export type {
  A2aAgentCardOptions,
  A2aProtocolVersion,
  A2uiExtensionParams,
} from './server/agent-card.js';
export {
  AGENT_CARD_DEFAULTS,
  agentCardToJson,
  agentCardToV03Json,
  createAgentCard,
} from './server/agent-card.js';
export { boundTaskHistory } from './server/bounded-history-task-store.js';
export type {
  A2aCorsOptions,
  A2aServer,
  A2aServerOptions,
  A2aServerStats,
} from './server/create-a2a-server.js';
export {
  A2A_SERVER_DEFAULTS,
  AGENT_CARD_PATHS,
  createA2aServer,
} from './server/create-a2a-server.js';
export type { MemoryTaskStore, MemoryTaskStoreOptions } from './server/memory-task-store.js';
export { createMemoryTaskStore, MEMORY_TASK_STORE_DEFAULTS } from './server/memory-task-store.js';
export type {
  ParseA2uiRequestLimits,
  ParsedA2uiRequest,
  ParsedClientMessage,
} from './server/parse-a2ui-request.js';
export { PARSE_REQUEST_DEFAULTS, parseA2uiRequest } from './server/parse-a2ui-request.js';
