/**
 * The agents the demo server offers, in picker order.
 */

import { type LlmEnvironment, type LlmModelFromEnv, llmModelFromEnv } from '@a2ui-ts/agent-llm';
import { withNegotiatedVersions } from '@a2ui-ts/core';
import { createCityFinderAgent } from './city-finder-agent.js';
import { type DemoAgent, type DemoLogger, V09_FIRST_VERSIONS } from './demo-agent.js';
import { createGalleryAgent, DEFAULT_GALLERY_VERSION } from './gallery-agent.js';
import { startDemoTodoService } from './lavs-todo-agent.js';
import { createDemoLlmAgent } from './llm/llm-agent.js';
import { createMcpAppAgent } from './mcp-app-agent.js';
import { createRestaurantAgent } from './restaurant-agent.js';
import { createTimeZoneAgent } from './time-zone-agent.js';

/** Options of {@link createDemoAgents}. */
export interface DemoAgentsOptions {
  /** Read for the LLM agent's settings. @default process.env */
  env?: LlmEnvironment;
  logger?: DemoLogger;
  /**
   * The directory of the LAVS todo service's data (`A2UI_LAVS_TODO_DIR`).
   * @default `A2UI_LAVS_TODO_DIR` of `env`, else a new temporary directory
   */
  todoDir?: string;
}

/**
 * The restaurant booking agent, the example gallery, the time-zone example, the LAVS todos and,
 * when the `A2UI_LLM_*` variables configure a model (`llmModelFromEnv`), the LLM agent (with the
 * todo service's endpoints as tools).
 */
export function createDemoAgents(options: DemoAgentsOptions = {}): DemoAgent[] {
  const logger = options.logger;
  const env = options.env ?? process.env;
  const todos = startDemoTodoService({
    dir: options.todoDir ?? (env.A2UI_LAVS_TODO_DIR || undefined),
    logger,
  });
  const agents: DemoAgent[] = [
    {
      id: 'restaurant',
      label: 'Restaurant booking',
      description:
        'A scripted booking flow: search, results, a validated form, a confirmation, with live updates.',
      // Written in v0.9; a client that reads only v1.0 (or v0.8) gets it converted.
      agent: withNegotiatedVersions(createRestaurantAgent({ logger })),
      a2uiVersions: V09_FIRST_VERSIONS,
    },
    {
      id: 'gallery',
      label: 'Example gallery',
      description:
        'Streams every official A2UI v0.9 example, in v0.8, v0.9 or v1.0, or a stream you paste or upload, one message at a time.',
      agent: createGalleryAgent({ logger }),
      // AG-UI carries the surfaces of v0.9 only, until versions are negotiated per binding.
      agentFor: (transportId) =>
        createGalleryAgent({
          logger,
          ...(transportId.startsWith('agui') ? { versions: [DEFAULT_GALLERY_VERSION] } : {}),
        }),
      // Its examples are the official v0.9 files: `auto` negotiates v0.9, the version its picker
      // then starts at (the picker follows the negotiated version, as the page's badge does).
      a2uiVersions: V09_FIRST_VERSIONS,
    },
    {
      id: 'time-zone',
      label: 'Time zone (frontend tool)',
      description:
        'Over AG-UI the agent asks the page for your time zone with a frontend tool and answers with the next run.',
      agent: withNegotiatedVersions(createTimeZoneAgent({ logger })),
      a2uiVersions: V09_FIRST_VERSIONS,
    },
    {
      id: 'city-finder',
      label: 'City finder (A2UI v1.0 functions)',
      description:
        'A2UI v1.0 function calls both ways: the agent asks the page for your locale, the page asks the agent for city suggestions as you type.',
      agent: createCityFinderAgent({ logger }),
    },
    {
      id: 'todos',
      label: 'Todos (LAVS service)',
      description:
        "A LAVS service's todos as a live surface: add, tick and delete; every open page (and the LLM agent, through the same service) sees each change.",
      agent: todos.agent,
    },
    {
      id: 'mcp-app',
      label: 'MCP App in A2UI',
      description:
        'A tiny game running as an MCP App in a sandboxed double iframe; its score drives A2UI siblings through the data model, and the agent keeps your best.',
      agent: createMcpAppAgent({ logger }),
    },
  ];
  const llm = configuredModel(env);
  if (llm && 'model' in llm) {
    agents.push({
      id: 'llm',
      label: `LLM (${llm.modelId})`,
      description: `Generates UIs with ${llm.modelId} via ${llm.provider}${llm.baseUrl ? ` at ${new URL(llm.baseUrl).host}` : ''}, streamed and validated by core before anything renders; it can search the demo's restaurants and manage the todos of the LAVS service.`,
      agent: createDemoLlmAgent({
        model: llm.model,
        label: llm.modelId,
        logger,
        tools: todos.tools,
      }),
      // The model writes v0.9 (headings included); a client that reads only v1.0 gets it converted.
      a2uiVersions: V09_FIRST_VERSIONS,
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
  const llm = configuredModel(env);
  if (llm && 'model' in llm) return [];
  return [
    llm
      ? {
          id: 'llm',
          label: 'LLM (misconfigured)',
          description: `${llm.problem} See “The LLM agent” in apps/demo/README.md.`,
        }
      : {
          id: 'llm',
          label: 'LLM (not configured)',
          description:
            'Set A2UI_LLM_PROVIDER (openai, anthropic, google, azure, ollama, lmstudio, openai-compatible…) and A2UI_LLM_MODEL — plus A2UI_LLM_API_KEY for a hosted model, or A2UI_LLM_BASE_URL for another server — and restart the demo (see “The LLM agent” in apps/demo/README.md).',
        },
  ];
}

/** The configured model, `{problem}` when the configuration is unusable, `undefined` when unset. */
function configuredModel(env: LlmEnvironment): LlmModelFromEnv | { problem: string } | undefined {
  try {
    return llmModelFromEnv(env);
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
