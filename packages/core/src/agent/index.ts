export type {
  A2uiAgent,
  AgentInput,
  Connection,
  DisconnectReason,
  HostContextEntry,
  HostTool,
  HostToolCall,
  HostToolResult,
} from './agent.js';
export { CONNECTION_ID_BYTES, createConnectionId, isConnectionId } from './connection-id.js';
