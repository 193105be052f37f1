export type {
  AgentFunction,
  AgentFunctionArgsValidator,
  AgentFunctionContext,
  AgentFunctionRegistryOptions,
} from './agent-functions.js';
export { AgentFunctionRegistry } from './agent-functions.js';
export type { AnsweredCall, AnsweredCallsOptions } from './answered-calls.js';
export { ANSWERED_CALLS_DEFAULTS, AnsweredCalls } from './answered-calls.js';
export type {
  AgentFunctionCallMessage,
  AgentFunctionResponseMessage,
  CallAgentFunctionMessage,
  CallRendererFunctionMessage,
  FunctionCallError,
  FunctionCallMessageKind,
  FunctionCallRequest,
  FunctionResponse,
  RendererFunctionCallMessage,
  RendererFunctionResponseMessage,
} from './function-call-messages.js';
export {
  checkFunctionCallMessage,
  FUNCTION_CALL_ERROR,
  FUNCTION_CALL_VERSION,
  functionCallFailure,
  getFunctionCallKind,
  isOvertakingMessage,
  readFunctionResponse,
} from './function-call-messages.js';
export type { FunctionCallOptions } from './pending-function-calls.js';
export {
  DEFAULT_FUNCTION_CALL_TIMEOUT_MS,
  PendingFunctionCalls,
} from './pending-function-calls.js';
export type {
  HandleRendererCallOptions,
  RendererFunction,
  RendererFunctionContext,
  RendererFunctionRegistryOptions,
} from './renderer-functions.js';
export { RendererFunctionRegistry } from './renderer-functions.js';
