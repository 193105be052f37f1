/**
 * The LLM agent: a prompt surface whose request goes to any OpenAI-compatible chat-completions
 * endpoint with the catalog as the `render_a2ui` tool schema. Every tool call is validated by core
 * before anything is sent; failures go back to the model as `VALIDATION_FAILED` errors so it can
 * correct itself, and so do errors the client reports about what was rendered. Actions on the
 * rendered surfaces continue the conversation.
 */
import {
  type A2uiAgent,
  BASIC_CATALOG_ID,
  type ClientError,
  type Connection,
  getServerMessageKind,
  getSurfaceId,
  isRecord,
  type ServerMessage,
  toMessageList,
} from '@a2ui-ts/core';
import type { DemoLogger } from '../demo-agent.js';
import { type StreamIssue, validateStream } from '../parse-stream-text.js';
import { type ChatMessage, type ChatToolCall, streamChatCompletion } from './chat-completions.js';
import { type ChatTool, createRenderTool, RENDER_TOOL_NAME } from './render-tool.js';

/** Id of the surface with the prompt box. */
export const LLM_PROMPT_SURFACE_ID = 'llm-prompt';

/** Options of {@link createLlmAgent}. */
export interface LlmAgentOptions {
  /** OpenAI-compatible base URL, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Model calls per user request, the first included, before giving up. @default 3 */
  maxAttempts?: number;
  /** @default 0.2 */
  temperature?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  logger?: DemoLogger;
}

/** Environment variables that switch the LLM agent on. */
export interface LlmEnvironment {
  A2UI_LLM_BASE_URL?: string;
  A2UI_LLM_MODEL?: string;
  A2UI_LLM_API_KEY?: string;
}

/**
 * LLM options from `A2UI_LLM_BASE_URL`, `A2UI_LLM_MODEL` and (optional) `A2UI_LLM_API_KEY`, or
 * `undefined` when the base URL or the model is missing (the agent stays off).
 */
export function llmOptionsFromEnv(
  env: LlmEnvironment,
): Pick<LlmAgentOptions, 'baseUrl' | 'model' | 'apiKey'> | undefined {
  const baseUrl = env.A2UI_LLM_BASE_URL?.trim();
  const model = env.A2UI_LLM_MODEL?.trim();
  if (!baseUrl || !model) return undefined;
  const apiKey = env.A2UI_LLM_API_KEY?.trim();
  return apiKey ? { baseUrl, model, apiKey } : { baseUrl, model };
}

const SYSTEM_PROMPT = `You build user interfaces with A2UI v0.9 by calling the ${RENDER_TOOL_NAME} tool. Rules:
- Always answer by calling ${RENDER_TOOL_NAME} once with a "messages" array; never answer in plain text.
- Every message has "version": "v0.9" and exactly one of createSurface, updateDataModel, updateComponents, deleteSurface.
- Start with createSurface (catalogId "${BASIC_CATALOG_ID}") and a new, descriptive surfaceId (never "${LLM_PROMPT_SURFACE_ID}").
- Then updateDataModel with the initial data, then updateComponents with a flat list of components.
- Each component is {"id": …, "component": <type>, …properties}. Exactly one has id "root". Reference children by id.
- Bind values with {"path": "/json/pointer"}; inputs (TextField, CheckBox, ChoicePicker, Slider, DateTimeInput) write to their bound path.
- Buttons need "child" (a Text id) and "action": {"event": {"name": …, "context": {key: {"path": …}}}}.
- Use {"call": "formatString", "args": {"value": "Hello \${/name}"}} for interpolation; plain strings are never interpolated.
- When a tool result reports VALIDATION_FAILED, fix exactly what it names and call ${RENDER_TOOL_NAME} again with the complete, corrected messages.
- Each call replaces the surfaces of your previous call. When the user acts on a surface you rendered, answer with an updated UI.`;

interface LlmState {
  readonly history: ChatMessage[];
  /** Surfaces created by the model's last accepted call. */
  readonly rendered: Set<string>;
  run: AbortController | undefined;
}

const v = 'v0.9' as const;
/** Keeps long sessions within a model's context: the system prompt plus the latest turns. */
const MAX_HISTORY = 24;

/**
 * Creates the LLM agent.
 *
 * @example
 * ```ts
 * const agent = createLlmAgent({ baseUrl: 'http://localhost:11434/v1', model: 'qwen2.5:7b' });
 * ```
 */
export function createLlmAgent(options: LlmAgentOptions): A2uiAgent {
  const maxAttempts = options.maxAttempts ?? 3;
  const log = options.logger ?? (() => {});
  const tool: ChatTool = createRenderTool();
  const states = new Map<string, LlmState>();

  const status = (connection: Connection, text: string) => {
    if (connection.closed) return;
    connection.send({
      version: v,
      updateDataModel: { surfaceId: LLM_PROMPT_SURFACE_ID, path: '/status', value: text },
    });
  };

  /** Asks the model until it produces a stream core accepts, feeding every rejection back. */
  const converse = async (connection: Connection, state: LlmState, userText: string) => {
    state.run?.abort();
    const run = new AbortController();
    state.run = run;
    const signal = AbortSignal.any([run.signal, connection.signal]);
    state.history.push({ role: 'user', content: userText });
    try {
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        status(
          connection,
          attempt === 1
            ? `Asking ${options.model}…`
            : `Asking ${options.model} to fix its UI (attempt ${attempt} of ${maxAttempts})…`,
        );
        const reply = await streamChatCompletion({
          baseUrl: options.baseUrl,
          model: options.model,
          apiKey: options.apiKey,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            ...state.history.slice(-MAX_HISTORY),
          ],
          tools: [tool],
          toolChoice: { type: 'function', function: { name: RENDER_TOOL_NAME } },
          temperature: options.temperature ?? 0.2,
          signal,
          fetch: options.fetch,
        });
        const call = reply.toolCalls.find((entry) => entry.function.name === RENDER_TOOL_NAME);
        if (!call) {
          state.history.push({ role: 'assistant', content: reply.content });
          state.history.push({
            role: 'user',
            content: `You must call the ${RENDER_TOOL_NAME} tool; plain text is not shown to the user.`,
          });
          log('llm.retry', { connectionId: connection.id, attempt, reason: 'no tool call' });
          continue;
        }
        state.history.push({
          role: 'assistant',
          content: reply.content || null,
          tool_calls: [call],
        });
        const checked = checkToolCall(call);
        if ('issues' in checked) {
          state.history.push({
            role: 'tool',
            tool_call_id: call.id,
            content: JSON.stringify({ errors: checked.issues }),
          });
          log('llm.retry', {
            connectionId: connection.id,
            attempt,
            reason: 'VALIDATION_FAILED',
            issues: checked.issues.length,
          });
          continue;
        }
        const previous = [...state.rendered].map(
          (surfaceId): ServerMessage => ({ version: v, deleteSurface: { surfaceId } }),
        );
        state.rendered.clear();
        for (const surfaceId of checked.created) state.rendered.add(surfaceId);
        connection.send([...previous, ...checked.messages]);
        state.history.push({
          role: 'tool',
          tool_call_id: call.id,
          content: JSON.stringify({ ok: true, rendered: [...checked.created] }),
        });
        status(
          connection,
          `Rendered ${checked.messages.length} messages from ${options.model}${attempt > 1 ? ` after ${attempt - 1} correction${attempt > 2 ? 's' : ''}` : ''}.`,
        );
        return;
      }
      status(connection, `${options.model} did not produce a valid UI in ${maxAttempts} attempts.`);
    } catch (error) {
      if (signal.aborted) return;
      log('agent.error', {
        agent: 'llm',
        connectionId: connection.id,
        message: (error as Error).message,
      });
      status(connection, `The model call failed: ${(error as Error).message}`);
    } finally {
      if (state.run === run) state.run = undefined;
    }
  };

  return {
    onConnect(connection) {
      states.set(connection.id, { history: [], rendered: new Set(), run: undefined });
      connection.send(promptSurface(options.model));
    },
    onAction(connection, action, metadata) {
      const state = states.get(connection.id);
      if (!state) return;
      const prompt = typeof action.context.prompt === 'string' ? action.context.prompt.trim() : '';
      if (action.surfaceId === LLM_PROMPT_SURFACE_ID && action.name === 'generate') {
        if (prompt === '') return;
        void converse(connection, state, prompt);
        return;
      }
      const dataModel = metadata?.a2uiClientDataModel?.surfaces[action.surfaceId];
      const text = `The user triggered action "${action.name}" on surface "${action.surfaceId}" (component "${action.sourceComponentId}") with context ${JSON.stringify(action.context)}${dataModel === undefined ? '' : ` and data model ${JSON.stringify(dataModel)}`}.`;
      void converse(connection, state, text);
    },
    onError(connection, error) {
      const state = states.get(connection.id);
      // Only errors about what the model rendered are the model's to fix.
      if (!state?.rendered.has(error.surfaceId ?? '')) return;
      void converse(
        connection,
        state,
        `The client could not apply your UI: ${JSON.stringify(error)}. Send the complete, corrected messages.`,
      );
    },
    onDisconnect(connection) {
      states.get(connection.id)?.run?.abort();
      states.delete(connection.id);
    },
  };
}

type CheckedCall = { messages: ServerMessage[]; created: Set<string> } | { issues: ClientError[] };

/**
 * Validates a `render_a2ui` call with core. The surfaces of the previous call are deleted before the
 * new messages apply, so the dry run starts from an empty client.
 */
function checkToolCall(call: ChatToolCall): CheckedCall {
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch (error) {
    return {
      issues: [
        failure('', '', `The tool arguments are not valid JSON: ${(error as Error).message}`),
      ],
    };
  }
  if (!isRecord(args) || !Array.isArray(args.messages) || args.messages.length === 0) {
    return {
      issues: [
        failure('', '/messages', 'Pass {"messages": [...]} with at least one A2UI message.'),
      ],
    };
  }
  const messages = toMessageList(args.messages);
  const issues: ClientError[] = validateStream(messages).map((issue: StreamIssue) =>
    failure(
      surfaceOf(messages[issue.index ?? 0]),
      `/messages/${issue.index ?? 0}${issue.path}`,
      issue.message,
    ),
  );
  const created = new Set<string>();
  messages.forEach((message, index) => {
    const surfaceId = getSurfaceId(message);
    if (surfaceId === LLM_PROMPT_SURFACE_ID) {
      issues.push(
        failure(
          surfaceId,
          `/messages/${index}`,
          `Surface "${LLM_PROMPT_SURFACE_ID}" belongs to the agent; use another surfaceId.`,
        ),
      );
    }
    if (getServerMessageKind(message) === 'createSurface' && surfaceId !== undefined)
      created.add(surfaceId);
  });
  if (issues.length > 0) return { issues };
  return { messages: messages as ServerMessage[], created };
}

function surfaceOf(message: unknown): string {
  return getSurfaceId(message) ?? '';
}

function failure(surfaceId: string, path: string, message: string): ClientError {
  return { code: 'VALIDATION_FAILED', surfaceId, path, message };
}

function promptSurface(model: string): ServerMessage[] {
  const surfaceId = LLM_PROMPT_SURFACE_ID;
  return [
    {
      version: v,
      createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID, theme: { agentDisplayName: model } },
    },
    {
      version: v,
      updateDataModel: { surfaceId, value: { prompt: '', status: `Connected to ${model}.` } },
    },
    {
      version: v,
      updateComponents: {
        surfaceId,
        components: [
          { id: 'root', component: 'Card', child: 'prompt-column' },
          {
            id: 'prompt-column',
            component: 'Column',
            children: ['prompt-title', 'prompt-input', 'prompt-button', 'prompt-status'],
          },
          { id: 'prompt-title', component: 'Text', text: 'Describe a UI', variant: 'h3' },
          {
            id: 'prompt-input',
            component: 'TextField',
            label: 'What should the model build?',
            value: { path: '/prompt' },
            variant: 'longText',
            checks: [
              {
                condition: { call: 'required', args: { value: { path: '/prompt' } } },
                message: 'Describe the UI first.',
              },
            ],
          },
          {
            id: 'prompt-button',
            component: 'Button',
            child: 'prompt-button-label',
            variant: 'primary',
            checks: [
              {
                condition: { call: 'required', args: { value: { path: '/prompt' } } },
                message: 'Describe the UI first.',
              },
            ],
            action: { event: { name: 'generate', context: { prompt: { path: '/prompt' } } } },
          },
          { id: 'prompt-button-label', component: 'Text', text: 'Generate' },
          { id: 'prompt-status', component: 'Text', text: { path: '/status' }, variant: 'caption' },
        ],
      },
    },
  ];
}
