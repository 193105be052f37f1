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
export type { ConnectionRegistry } from './connection-registry.js';
export { createMemoryConnectionRegistry } from './connection-registry.js';
export type {
  AttachResult,
  ConnectionSessionOptions,
  OutgoingValidator,
  ReceiveResult,
  SessionSink,
} from './connection-session.js';
export { ConnectionSession } from './connection-session.js';
export type { ReplayEntry, ReplayLog, ReplayLogLimits } from './replay-log.js';
export { createMemoryReplayLog, DEFAULT_REPLAY_LOG_LIMITS } from './replay-log.js';
