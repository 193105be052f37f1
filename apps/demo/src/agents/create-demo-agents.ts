/**
 * The agents the demo server offers, in picker order.
 */
import type { DemoAgent, DemoLogger } from './demo-agent.js';
import { createGalleryAgent } from './gallery-agent.js';
import { createLlmAgent, type LlmEnvironment, llmOptionsFromEnv } from './llm/llm-agent.js';
import { createRestaurantAgent } from './restaurant-agent.js';
import { createTimeZoneAgent } from './time-zone-agent.js';

/** Options of {@link createDemoAgents}. */
export interface DemoAgentsOptions {
  /** Read for the LLM agent's settings. @default process.env */
  env?: LlmEnvironment;
  logger?: DemoLogger;
}

/**
 * The restaurant booking agent, the example gallery and, when `A2UI_LLM_BASE_URL` and
 * `A2UI_LLM_MODEL` are set, the LLM agent.
 */
export function createDemoAgents(options: DemoAgentsOptions = {}): DemoAgent[] {
  const logger = options.logger;
  const agents: DemoAgent[] = [
    {
      id: 'restaurant',
      label: 'Restaurant booking',
      description:
        'A scripted booking flow: search, results, a validated form, a confirmation, with live updates.',
      agent: createRestaurantAgent({ logger }),
    },
    {
      id: 'gallery',
      label: 'Example gallery',
      description:
        'Streams every official A2UI v0.9 example, or a stream you paste or upload, one message at a time.',
      agent: createGalleryAgent({ logger }),
    },
    {
      id: 'time-zone',
      label: 'Time zone (frontend tool)',
      description:
        'Over AG-UI the agent asks the page for your time zone with a frontend tool and answers with the next run.',
      agent: createTimeZoneAgent({ logger }),
    },
  ];
  const llm = llmOptionsFromEnv(options.env ?? process.env);
  if (llm) {
    agents.push({
      id: 'llm',
      label: `LLM (${llm.model})`,
      description: `Generates UIs with ${llm.model} at ${new URL(llm.baseUrl).host}, validated by core before anything renders.`,
      agent: createLlmAgent({ ...llm, logger }),
    });
  }
  return agents;
}

/**
 * Agents this server could offer but does not, with why — so the picker can show them disabled
 * instead of leaving a user wondering where the LLM agent is.
 */
export function describeUnavailableAgents(
  env: LlmEnvironment = process.env,
): Array<{ id: string; label: string; description: string }> {
  if (llmOptionsFromEnv(env)) return [];
  return [
    {
      id: 'llm',
      label: 'LLM (not configured)',
      description:
        'Set A2UI_LLM_BASE_URL and A2UI_LLM_MODEL (for example a local Ollama) and restart the demo; see the README.',
    },
  ];
}
