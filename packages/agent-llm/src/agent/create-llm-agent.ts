/**
 * `createLlmAgent`: any AI SDK language model as an A2UI agent that works over every binding.
 */
import {
  type A2uiAgent,
  A2uiError,
  basicCatalog,
  type CatalogValidator,
  withNegotiatedVersion,
} from '@a2ui-ts/core';
import { compileCatalogValidator } from '@a2ui-ts/core/compile';
import { jsonSchema, tool } from 'ai';
import { readCatalogDocument } from '../catalog/catalog-document.js';
import { createReferenceIndex } from '../catalog/component-references.js';
import { createRenderToolSchema, RENDER_TOOL_NAME } from '../catalog/render-tool-schema.js';
import { createSystemPrompt } from '../catalog/system-prompt.js';
import { DEFAULT_AGENT_SURFACE_OPTIONS } from './agent-surface.js';
import { DEFAULT_LLM_AGENT_OPTIONS, type LlmAgentOptions } from './llm-agent-options.js';
import { type LlmAgentSetup, LlmSession } from './llm-session.js';

/** An {@link A2uiAgent} backed by a language model. */
export interface LlmAgent extends A2uiAgent {
  /** The system prompt's static part (the instructions, the A2UI rules and the catalog). */
  readonly systemPrompt: string;
  /** The `render_a2ui` input schema given to the model. */
  readonly renderToolSchema: Record<string, unknown>;
  /** The live session of a connection (for diagnostics and tests). */
  session(connectionId: string): LlmSession | undefined;
}

const RENDER_TOOL_DESCRIPTION =
  'Renders user interfaces on the user’s screen with A2UI v0.9 messages, applied in order while you write them: createSurface, then updateDataModel with the initial data, then updateComponents (a flat list; exactly one component has id "root"; parents before children). Returns {ok, applied, surfaces, errors?}.';

/**
 * Creates an A2UI agent that answers with a language model. The model renders by calling the
 * `render_a2ui` tool, whose input schema is generated from the catalog; every message it writes
 * is validated by core and sent as soon as it is complete while the call streams (progressive
 * rendering); validation failures and errors the client reports go back to the model, up to
 * `maxAttempts`. App tools (`tools`) and the host's frontend tools are offered to the model;
 * actions on its surfaces come back to it as user turns. Each connection has its own bounded
 * conversation and rate limit; a connection's `signal` cancels the provider call.
 *
 * Hooks: `onInput` (AG-UI, A2A user text) and a prompt box on the agent surface (for bindings
 * that carry only A2UI) start a request; `onAction` on a model surface continues it; `onError`
 * about a model surface asks for a fix.
 *
 * @throws A2uiError `NOT_SUPPORTED` when the catalog has no JSON Schema, `VALIDATION_FAILED` when
 *   its schema does not compile or an app tool is named `render_a2ui`
 *
 * @example
 * ```ts
 * import { openai } from '@ai-sdk/openai';
 * import { tool } from 'ai';
 * import { z } from 'zod';
 *
 * const agent = createLlmAgent({
 *   model: openai('gpt-4.1-mini'),
 *   instructions: 'You help people find a restaurant.',
 *   tools: {
 *     searchRestaurants: tool({
 *       description: 'Restaurants in a city',
 *       inputSchema: z.object({ city: z.string() }),
 *       execute: async ({ city }) => db.restaurants(city),
 *     }),
 *   },
 * });
 * ```
 */
export function createLlmAgent(options: LlmAgentOptions): LlmAgent {
  const catalog = options.catalog ?? basicCatalog;
  const document = readCatalogDocument(catalog);
  const validator: CatalogValidator =
    catalog.validator ?? compileCatalogValidator(catalog.schema!, { catalogId: catalog.catalogId });
  const appTools = options.tools ?? {};
  if (Object.hasOwn(appTools, RENDER_TOOL_NAME)) {
    throw new A2uiError(
      'VALIDATION_FAILED',
      `An app tool may not be named "${RENDER_TOOL_NAME}": the agent renders with it.`,
    );
  }
  const agentSurfaceId = options.agentSurface?.surfaceId ?? DEFAULT_AGENT_SURFACE_OPTIONS.surfaceId;
  const renderToolSchema = createRenderToolSchema(document, {
    reservedSurfaceIds: [agentSurfaceId],
  });
  const systemPrompt = createSystemPrompt(document, {
    instructions: options.instructions,
    catalogInstructions: catalogInstructionsOf(catalog),
    reservedSurfaceIds: [agentSurfaceId],
  });
  const setup: LlmAgentSetup = {
    model: options.model,
    label: options.label ?? modelLabel(options.model),
    catalog,
    validator,
    references: createReferenceIndex(document),
    systemPrompt,
    // No `execute`: the agent renders the call itself, while it streams.
    renderTool: tool({
      description: RENDER_TOOL_DESCRIPTION,
      inputSchema: jsonSchema<{ messages: unknown[] }>(renderToolSchema as never),
      // The catalog schema uses oneOf, $ref and optional properties, which providers' strict
      // modes (OpenAI's) refuse; core validates the arguments instead.
      strict: false,
    }),
    appTools,
    hostTools: options.hostTools ?? DEFAULT_LLM_AGENT_OPTIONS.hostTools,
    rendererFunctions: options.rendererFunctions ?? [],
    maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_LLM_AGENT_OPTIONS.maxAttempts),
    maxSteps: Math.max(1, options.maxSteps ?? DEFAULT_LLM_AGENT_OPTIONS.maxSteps),
    progressive: options.progressive ?? DEFAULT_LLM_AGENT_OPTIONS.progressive,
    toolChoice: options.toolChoice ?? DEFAULT_LLM_AGENT_OPTIONS.toolChoice,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_LLM_AGENT_OPTIONS.maxMessageBytes,
    urlPolicy: options.urlPolicy,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_LLM_AGENT_OPTIONS.idleTimeoutMs,
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_LLM_AGENT_OPTIONS.callTimeoutMs,
    history: options.history,
    rateLimit: options.rateLimit,
    agentSurface: options.agentSurface,
    callSettings: options.callSettings ?? {},
    onEvent: options.onEvent ?? (() => {}),
    now: options.now ?? Date.now,
  };
  const sessions = new Map<string, LlmSession>();
  const sessionOf = (connection: { id: string }) => sessions.get(connection.id);

  return {
    systemPrompt,
    renderToolSchema,
    session: (connectionId) => sessions.get(connectionId),
    onConnect(connection) {
      // The model writes v0.9 (its tool schema and prompt); each send is converted to the
      // version this client negotiated (v1.0, v0.9.1, v0.8), so one model serves every client.
      const versioned = withNegotiatedVersion(connection, {
        onIssues: (issues) => {
          try {
            setup.onEvent({ type: 'version-issues', connectionId: connection.id, issues });
          } catch {
            // An observer's bug must not break a send.
          }
        },
      });
      const session = new LlmSession(versioned, setup);
      sessions.set(connection.id, session);
      session.start();
    },
    async onInput(connection, input) {
      await sessionOf(connection)?.handleInput(input);
    },
    async onAction(connection, action, metadata) {
      await sessionOf(connection)?.handleAction(action, metadata);
    },
    async onError(connection, error) {
      await sessionOf(connection)?.handleError(error);
    },
    onDisconnect(connection) {
      sessions.delete(connection.id);
    },
  };
}

function modelLabel(model: LlmAgentOptions['model']): string {
  return typeof model === 'string' ? model : model.modelId;
}

/** The catalog's own design guidelines for models (v1.0 `instructions`), when it has any. */
function catalogInstructionsOf(catalog: LlmAgentOptions['catalog']): string | undefined {
  const instructions = catalog?.schema?.instructions;
  return typeof instructions === 'string' && instructions.trim() !== '' ? instructions : undefined;
}
