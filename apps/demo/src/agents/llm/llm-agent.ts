/**
 * The demo's LLM agent: `@a2ui-ts/agent-llm` with the demo's prompt surface, instructions and
 * restaurant search tool, logging what it does through the demo logger.
 */
import { createLlmAgent, type LlmAgent, type LlmAgentOptions } from '@a2ui-ts/agent-llm';
import type { ToolSet } from 'ai';
import type { DemoLogger } from '../demo-agent.js';
import { restaurantTools } from './restaurant-tools.js';

/** Id of the surface with the prompt box. */
export const LLM_PROMPT_SURFACE_ID = 'llm-prompt';

/** Options of {@link createDemoLlmAgent}. */
export interface DemoLlmAgentOptions
  extends Pick<LlmAgentOptions, 'model' | 'label' | 'maxAttempts' | 'callSettings' | 'rateLimit'> {
  logger?: DemoLogger;
  /** More app tools, beside the restaurant search (the LAVS todo service's). @default {} */
  tools?: ToolSet;
}

const INSTRUCTIONS = `You are the UI agent of the a2ui-ts demo. Answer every request with a clear, compact UI: a Card per surface, headings for titles, Rows for side-by-side facts, Buttons with actions for what the user can do next.
For restaurants, call findRestaurants first and show only what it returns (name, city, cuisine, rating, price, tables left); give each restaurant a "Book" button whose action carries its id. When the user books, confirm it on the same surface.
For todos, use the lavs_ tools (list, add, toggle, delete): the todo surface other pages show follows every change you make.`;

/**
 * Creates the demo's LLM agent.
 *
 * @example
 * ```ts
 * const configured = llmModelFromEnv();
 * if (configured) createDemoLlmAgent({ model: configured.model, label: configured.modelId });
 * ```
 */
export function createDemoLlmAgent(options: DemoLlmAgentOptions): LlmAgent {
  const log = options.logger ?? (() => {});
  return createLlmAgent({
    model: options.model,
    label: options.label,
    maxAttempts: options.maxAttempts,
    callSettings: options.callSettings,
    rateLimit: options.rateLimit,
    instructions: INSTRUCTIONS,
    tools: { ...restaurantTools, ...options.tools },
    agentSurface: { surfaceId: LLM_PROMPT_SURFACE_ID },
    onEvent(event) {
      switch (event.type) {
        case 'turn-end':
          if (event.outcome === 'failed') {
            log('agent.error', {
              agent: 'llm',
              connectionId: event.connectionId,
              message: event.error instanceof Error ? event.error.message : String(event.error),
            });
          }
          log('llm.turn', {
            connectionId: event.connectionId,
            outcome: event.outcome,
            modelCalls: event.modelCalls,
            inputTokens: event.usage.inputTokens,
            outputTokens: event.usage.outputTokens,
          });
          return;
        case 'render':
          log('llm.render', {
            connectionId: event.connectionId,
            ok: event.ok,
            sent: event.sent,
            issues: event.issues.length,
          });
          return;
        case 'tool-call':
          log('llm.tool-call', { connectionId: event.connectionId, tool: event.toolName });
          return;
      }
    },
  });
}
