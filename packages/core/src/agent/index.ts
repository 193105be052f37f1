export type {
  A2uiAgent,
  AgentAction,
  AgentInput,
  Connection,
  DisconnectReason,
  HostContextEntry,
  HostTool,
  HostToolCall,
  HostToolResult,
  RendererFunctionCallOptions,
} from './agent.js';
export { CONNECTION_ID_BYTES, createConnectionId, isConnectionId } from './connection-id.js';
export type { EmitVersion, NegotiatedConnectionOptions } from './negotiated-connection.js';
export {
  emitVersionOf,
  supportsFunctionCalls,
  UNNEGOTIATED_EMIT_VERSION,
  withNegotiatedVersion,
  withNegotiatedVersions,
} from './negotiated-connection.js';
export type {
  AgentCapabilities,
  AgentVersionCapabilities,
  NegotiatedVersion,
} from './negotiated-version.js';
export { negotiatedVersion } from './negotiated-version.js';
