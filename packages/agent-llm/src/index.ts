/**
 * `@a2ui-ts/agent-llm` — any language model as an A2UI agent (writing the version each client
 * negotiated), through the Vercel AI SDK:
 * the catalog as the model's tool schema and system prompt, streaming UI validated by core,
 * self-correction, app functions and host (frontend) tools, bounded per-connection state.
 *
 * @module
 */

export type { AgentSurfaceOptions } from './agent/agent-surface.js';
export { DEFAULT_AGENT_SURFACE_OPTIONS, PROMPT_ACTION_NAME } from './agent/agent-surface.js';
export { createLlmAgent, type LlmAgent } from './agent/create-llm-agent.js';
export {
  DEFAULT_LLM_AGENT_OPTIONS,
  type LlmAgentEvent,
  type LlmAgentOptions,
  type LlmCallSettings,
  type LlmToolContext,
  type TurnOutcome,
} from './agent/llm-agent-options.js';
export type { LlmSession } from './agent/llm-session.js';
export {
  type CatalogDocument,
  COMMON_TYPES,
  type JsonSchema,
  readCatalogDocument,
} from './catalog/catalog-document.js';
export {
  createReferenceIndex,
  type ReferenceIndex,
  type ReferenceSlot,
  referencedIds,
} from './catalog/component-references.js';
export { describeCatalog } from './catalog/describe-catalog.js';
export {
  createRenderToolSchema,
  RENDER_TOOL_NAME,
  type RenderToolSchemaOptions,
} from './catalog/render-tool-schema.js';
export { createSystemPrompt, type SystemPromptOptions } from './catalog/system-prompt.js';
export {
  ConversationHistory,
  DEFAULT_HISTORY_LIMITS,
  estimateTokens,
  type HistoryLimits,
} from './conversation/conversation-history.js';
export {
  DEFAULT_RATE_LIMIT,
  type RateLimit,
  TurnRateLimiter,
} from './conversation/turn-rate-limiter.js';
export {
  LLM_PROVIDERS,
  type LlmEnvironment,
  type LlmModelFromEnv,
  type LlmModelFromEnvOptions,
  type LlmProviderName,
  llmModelFromEnv,
} from './env/llm-model-from-env.js';
export {
  type RenderOutcome,
  RenderStream,
  type RenderStreamOptions,
  renderResult,
} from './render/render-stream.js';
export {
  type Accepted,
  type ComponentPiece,
  type RenderIssue,
  SurfaceMirror,
  type SurfaceMirrorOptions,
} from './render/surface-mirror.js';
export { createHostTools } from './tools/host-tools.js';
export {
  createLavsTools,
  type LavsManifestLike,
  type LavsServiceLike,
  type LavsToolsOptions,
  lavsServiceTools,
} from './tools/lavs-tools.js';
export {
  createRendererFunctionTools,
  type LlmRendererFunction,
} from './tools/renderer-function-tools.js';
