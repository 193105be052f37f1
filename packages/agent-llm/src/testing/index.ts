/**
 * `@a2ui-ts/agent-llm/testing` — test helpers for LLM agents: scripted AI SDK mock models, and
 * local mock servers speaking each provider's streaming wire format (Node only).
 *
 * @module
 */

export {
  type MockErrorReply,
  type MockLlmReply,
  type MockLlmServer,
  type MockLlmServerOptions,
  type MockRawReply,
  type MockStreamReply,
  type RecordedLlmRequest,
  startMockLlmServer,
} from './mock-llm-server.js';
export {
  controlledStream,
  createScriptedModel,
  renderStep,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStepOptions,
  type ScriptedToolCall,
  type ScriptStep,
  scriptedStep,
} from './scripted-model.js';
export {
  encodeReply,
  formatSseEvent,
  type LlmWireFormat,
  type MockReplyContent,
  type MockToolCall,
  type WireEvent,
} from './wire-formats.js';
