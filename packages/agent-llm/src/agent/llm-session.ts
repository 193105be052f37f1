/**
 * One connection's side of the LLM agent: its conversation, its mirror of the model's surfaces,
 * its rate limit, and the model loop of a turn — stream a model call, render `render_a2ui` calls
 * while they stream, feed tool results and validation failures back, stop on a valid UI, a text
 * answer, `maxAttempts` failed renders or `maxSteps` model calls.
 */
import {
  A2uiError,
  type ActionEvent,
  type AgentInput,
  type Catalog,
  type CatalogValidator,
  type ClientError,
  type ClientMessageMetadata,
  type Connection,
  type HostContextEntry,
  readRendererDataModel,
  type ServerMessage,
  supportsCatalogId,
  type UrlPolicy,
} from '@a2ui-ts/core';
import {
  type ModelMessage,
  streamText,
  type Tool,
  type ToolModelMessage,
  type ToolResultPart,
  type ToolSet,
} from 'ai';
import type { ReferenceIndex } from '../catalog/component-references.js';
import { RENDER_TOOL_NAME } from '../catalog/render-tool-schema.js';
import { ConversationHistory, type HistoryLimits } from '../conversation/conversation-history.js';
import { type RateLimit, TurnRateLimiter } from '../conversation/turn-rate-limiter.js';
import {
  argumentDepthIssue,
  MAX_ARGUMENT_DEPTH,
  type RenderOutcome,
  RenderStream,
  renderResult,
  tooDeepIssue,
} from '../render/render-stream.js';
import { type RenderIssue, SurfaceMirror } from '../render/surface-mirror.js';
import { createHostTools } from '../tools/host-tools.js';
import {
  createRendererFunctionTools,
  type LlmRendererFunction,
} from '../tools/renderer-function-tools.js';
import { AgentSurface, type AgentSurfaceOptions } from './agent-surface.js';
import { boundToolArguments } from './bounded-tool-arguments.js';
import type {
  LlmAgentEvent,
  LlmCallSettings,
  LlmToolContext,
  TurnOutcome,
} from './llm-agent-options.js';
import { describeAction, describeClientError, describeModelError } from './turn-messages.js';

/** What `createLlmAgent` prepares once; every connection shares it. */
export interface LlmAgentSetup {
  readonly model: Parameters<typeof streamText>[0]['model'];
  readonly label: string;
  readonly catalog: Catalog;
  readonly validator: CatalogValidator;
  readonly references: ReferenceIndex;
  readonly systemPrompt: string;
  readonly renderTool: Tool;
  readonly appTools: ToolSet;
  readonly hostTools: boolean;
  readonly rendererFunctions: readonly LlmRendererFunction[];
  readonly maxAttempts: number;
  readonly maxSteps: number;
  readonly progressive: boolean;
  readonly toolChoice: 'required' | 'auto';
  readonly maxMessageBytes: number;
  readonly urlPolicy?: UrlPolicy;
  readonly idleTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly history: HistoryLimits | undefined;
  readonly rateLimit: RateLimit | false | undefined;
  readonly agentSurface: AgentSurfaceOptions | undefined;
  readonly callSettings: LlmCallSettings;
  readonly onEvent: (event: LlmAgentEvent) => void;
  readonly now: () => number;
}

type Trigger = 'input' | 'action' | 'client-error';

const MAX_HOST_CONTEXT_CHARS = 4000;
/** New characters of a text reply before the agent surface is updated. */
const REPLY_UPDATE_CHARS = 32;

/** The LLM agent's state and turns for one connection. */
export class LlmSession {
  readonly surface: AgentSurface;
  readonly mirror: SurfaceMirror;
  readonly #connection: Connection;
  readonly #setup: LlmAgentSetup;
  readonly #history: ConversationHistory;
  readonly #limiter: TurnRateLimiter | undefined;
  /** Render attempts spent on the current request (reset by a new user request). */
  #attempts = 0;
  #hostContext: readonly HostContextEntry[] = [];
  #hostState: unknown;

  constructor(connection: Connection, setup: LlmAgentSetup) {
    this.#connection = connection;
    this.#setup = setup;
    this.surface = new AgentSurface(connection, setup.label, setup.agentSurface);
    this.mirror = new SurfaceMirror({
      catalog: setup.catalog,
      validator: setup.validator,
      references: setup.references,
      reservedSurfaceIds: new Set([this.surface.surfaceId]),
      maxMessageBytes: setup.maxMessageBytes,
      urlPolicy: setup.urlPolicy,
    });
    this.#history = new ConversationHistory(setup.history);
    this.#limiter =
      setup.rateLimit === false ? undefined : new TurnRateLimiter(setup.rateLimit, setup.now);
  }

  /** The conversation sent to the model (for tests and diagnostics). */
  get history(): readonly ModelMessage[] {
    return this.#history.messages;
  }

  start(): void {
    if (this.surface.options.prompt) this.surface.show();
  }

  /** User text (AG-UI, A2A) and the host's context. */
  async handleInput(input: AgentInput): Promise<void> {
    if (input.context) this.#hostContext = input.context;
    if (input.state !== undefined) this.#hostState = input.state;
    const text = input.text?.trim();
    if (text) await this.#request('input', text);
  }

  /** An action: the prompt button, or one on a surface the model rendered. */
  async handleAction(
    action: ActionEvent,
    metadata: ClientMessageMetadata | undefined,
  ): Promise<void> {
    const prompt = this.surface.promptOf(action);
    if (prompt !== undefined) {
      await this.#request('input', prompt);
      return;
    }
    if (!this.mirror.has(action.surfaceId)) return;
    // Under v1.0's name (a2uiRendererDataModel) or the older one.
    const dataModel = readRendererDataModel(metadata)?.surfaces[action.surfaceId];
    await this.#request('action', describeAction(action, dataModel));
  }

  /** An error the client reports; only those about the model's surfaces are the model's to fix. */
  async handleError(error: ClientError): Promise<void> {
    if (error.surfaceId === undefined || !this.mirror.has(error.surfaceId)) return;
    await this.#turn('client-error', describeClientError(error), error);
  }

  async #request(trigger: Trigger, content: string): Promise<void> {
    this.#attempts = 0;
    this.mirror.beginRequest();
    await this.#turn(trigger, content);
  }

  /** One turn: model calls until a valid UI, a text answer or a limit. */
  async #turn(trigger: Trigger, content: string, clientError?: ClientError): Promise<void> {
    const connectionId = this.#connection.id;
    const { label, maxSteps, maxAttempts } = this.#setup;
    const usage = { inputTokens: 0, outputTokens: 0 };
    let modelCalls = 0;
    const end = (outcome: TurnOutcome, error?: unknown, issue?: ClientError) =>
      this.#emit({
        type: 'turn-end',
        connectionId,
        outcome,
        modelCalls,
        usage,
        ...(error === undefined ? {} : { error }),
        ...(issue === undefined ? {} : { issue }),
      });
    this.#emit({ type: 'turn-start', connectionId, trigger });
    const supported = this.#connection.clientCapabilities?.['v0.9']?.supportedCatalogIds;
    const catalogId = this.#setup.catalog.catalogId;
    if (supported && !supportsCatalogId(supported, catalogId)) {
      // Asking the model would only produce surfaces this client refuses (CATALOG_NOT_FOUND).
      this.surface.status(`This client cannot render the catalog ${label} uses (${catalogId}).`);
      end('failed');
      return;
    }
    if (clientError && this.#attempts >= maxAttempts) {
      // The budget of this request is spent: no more model calls for it.
      this.#giveUp(`the client still reports: ${clientError.message}`);
      end('gave-up', undefined, clientError);
      return;
    }
    const waitMs = this.#limiter?.take() ?? 0;
    if (waitMs > 0) {
      this.surface.status(`Too many requests: try again in ${Math.ceil(waitMs / 1000)} s.`);
      end('rate-limited');
      return;
    }
    this.#history.append({ role: 'user', content });
    this.surface.reply('');
    const signal = this.#connection.signal;
    let reply = '';
    let shown = 0;
    // Text streams in tokens; update the surface every few words, not on every token.
    const showReply = (force: boolean) => {
      if (reply.length === shown || (!force && reply.length - shown < REPLY_UPDATE_CHARS)) return;
      shown = reply.length;
      this.surface.reply(reply);
    };
    const corrections = () => Math.max(0, this.#attempts - 1);
    try {
      for (let step = 1; step <= maxSteps; step++) {
        if (signal.aborted) return end('aborted');
        this.surface.status(
          this.#attempts === 0 || (trigger === 'input' && step === 1)
            ? `Asking ${label}…`
            : `${label} is working on it (render attempt ${this.#attempts + 1} of ${maxAttempts})…`,
        );
        modelCalls++;
        this.#emit({ type: 'model-call', connectionId, step });
        const call = await this.#modelCall(signal, (text) => {
          if (text === undefined) return showReply(true);
          reply += text;
          showReply(false);
        });
        showReply(true);
        usage.inputTokens += call.usage.inputTokens;
        usage.outputTokens += call.usage.outputTokens;
        if (call.aborted) return end('aborted');
        this.#history.append(...call.messages);
        const renders = [...call.renders.values()];
        if (renders.length > 0) {
          this.#attempts += renders.length;
          const failed = renders.find((outcome) => !outcome.ok);
          if (!failed) {
            const surfaces = [...new Set(renders.flatMap((outcome) => outcome.surfaceIds))];
            const fixes = corrections();
            this.surface.status(
              `${label} rendered ${surfaces.map((id) => `"${id}"`).join(', ') || 'its UI'}${fixes > 0 ? ` after ${fixes} correction${fixes > 1 ? 's' : ''}` : ''}.`,
            );
            return end('rendered');
          }
          if (this.#attempts >= maxAttempts) {
            const issue = failed.issues[0];
            this.#giveUp(
              issue
                ? `${issue.message}${issue.path ? ` (at ${issue.path})` : ''}`
                : 'its UI was incomplete',
            );
            return end('gave-up', undefined, issue && toClientError(issue));
          }
          continue;
        }
        if (call.toolCalls > 0) continue;
        // No tool call at all: the model answered in text (or stopped).
        if (reply.trim() === '') {
          this.surface.status(`${label} stopped without an answer (${call.finishReason}).`);
          return end('failed');
        }
        this.surface.status(`${label} answered.`);
        return end('replied');
      }
      this.surface.status(
        `${label} made ${maxSteps} model calls without finishing; stopped. Try a simpler request.`,
      );
      return end('step-limit');
    } catch (error) {
      if (signal.aborted) return end('aborted');
      this.surface.status(`The model call failed: ${describeModelError(error)}`);
      return end('failed', error);
    }
  }

  #giveUp(reason: string): void {
    this.surface.status(
      `${this.#setup.label} could not produce a valid UI in ${this.#setup.maxAttempts} attempts: ${reason}. Try rephrasing the request.`,
    );
  }

  /** One streamed model call, rendering `render_a2ui` calls as they stream. */
  async #modelCall(
    signal: AbortSignal,
    /** Each text delta; `undefined` when a text part ends. */
    onText: (text: string | undefined) => void,
  ): Promise<{
    aborted: boolean;
    messages: ModelMessage[];
    renders: Map<string, RenderOutcome>;
    toolCalls: number;
    finishReason: string;
    usage: { inputTokens: number; outputTokens: number };
  }> {
    const setup = this.#setup;
    const tools = this.#tools();
    const context: LlmToolContext = { connection: this.#connection };
    const { providerOptions, ...settings } = setup.callSettings;
    /** Calls whose arguments were nested too deep to hand to the SDK (see `boundToolArguments`). */
    const tooDeep = new Set<string>();
    const result = streamText({
      ...settings,
      ...(providerOptions ? { providerOptions: providerOptions as never } : {}),
      model: boundToolArguments(setup.model, (id) => tooDeep.add(id)),
      system: this.#system(),
      messages: [...this.#history.messages],
      tools,
      toolChoice: setup.toolChoice,
      abortSignal: signal,
      timeout: { chunkMs: setup.idleTimeoutMs, stepMs: setup.callTimeoutMs },
      experimental_context: context,
      // Errors arrive as stream parts and are reported to the user; no console noise.
      onError: () => {},
    });
    const streams = new Map<string, RenderStream>();
    const renders = new Map<string, RenderOutcome>();
    const send = (messages: ServerMessage[]) => this.#connection.send(messages);
    const streamFor = (id: string) => {
      let stream = streams.get(id);
      if (!stream) {
        stream = new RenderStream({ mirror: this.mirror, send, progressive: setup.progressive });
        streams.set(id, stream);
      }
      return stream;
    };
    let toolCalls = 0;
    let finishReason = 'unknown';
    const usage = { inputTokens: 0, outputTokens: 0 };
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          onText(part.text);
          break;
        case 'text-end':
          onText(undefined);
          break;
        case 'tool-input-start':
          if (part.toolName === RENDER_TOOL_NAME) streamFor(part.id);
          break;
        case 'tool-input-delta':
          streams.get(part.id)?.write(part.delta);
          break;
        case 'tool-call': {
          toolCalls++;
          this.#emit({
            type: 'tool-call',
            connectionId: this.#connection.id,
            toolName: part.toolName,
            toolCallId: part.toolCallId,
          });
          if (part.toolName !== RENDER_TOOL_NAME) {
            this.surface.status(`${setup.label} is calling ${part.toolName}…`);
            break;
          }
          const outcome = tooDeep.has(part.toolCallId)
            ? streamFor(part.toolCallId).refuse(tooDeepIssue())
            : streamFor(part.toolCallId).finish(part.input);
          renders.set(part.toolCallId, outcome);
          this.#emit({
            type: 'render',
            connectionId: this.#connection.id,
            ok: outcome.ok,
            sent: outcome.sent,
            issues: outcome.issues,
          });
          break;
        }
        case 'finish-step':
          finishReason = part.finishReason;
          usage.inputTokens += part.usage.inputTokens ?? 0;
          usage.outputTokens += part.usage.outputTokens ?? 0;
          break;
        case 'error':
          throw part.error;
        case 'abort':
          if (signal.aborted)
            return { aborted: true, messages: [], renders, toolCalls, finishReason, usage };
          // Not the client: one of the call's own timeouts.
          throw new A2uiError(
            'TIMEOUT',
            part.reason?.startsWith('Chunk')
              ? `${setup.label} sent nothing for ${setup.idleTimeoutMs} ms`
              : `${setup.label} took longer than ${setup.callTimeoutMs} ms`,
          );
      }
    }
    const response = await result.response;
    const messages = withRenderResults(response.messages, renders);
    // A render call whose arguments were cut off never became a tool call: say so.
    const unfinished = [...streams.entries()].filter(([id]) => !renders.has(id));
    if (unfinished.length > 0) {
      const sent = unfinished.reduce((total, [, stream]) => total + stream.sent, 0);
      for (const [id, stream] of unfinished) renders.set(id, stream.finish(undefined));
      messages.push({
        role: 'user',
        content: `Your ${RENDER_TOOL_NAME} call was cut off before its arguments were complete (finish reason: ${finishReason}); ${sent} message${sent === 1 ? ' was' : 's were'} applied. Send the rest in smaller ${RENDER_TOOL_NAME} calls.`,
      });
    }
    return { aborted: false, messages, renders, toolCalls, finishReason, usage };
  }

  #tools(): ToolSet {
    const own: ToolSet = { ...this.#setup.appTools, [RENDER_TOOL_NAME]: this.#setup.renderTool };
    const renderer = createRendererFunctionTools(
      this.#connection,
      this.#setup.rendererFunctions,
      new Set(Object.keys(own)),
    ).tools;
    const tools = { ...renderer, ...own };
    if (!this.#setup.hostTools || this.#connection.hostTools.length === 0) return tools;
    const host = createHostTools(this.#connection, new Set(Object.keys(tools)));
    return { ...host.tools, ...tools };
  }

  /** The static prompt, then what is on screen and what the host says now. */
  #system(): string {
    const parts = [this.#setup.systemPrompt, `# Now\n${this.mirror.describe()}`];
    if (this.#hostContext.length > 0 || this.#hostState !== undefined) {
      const lines = this.#hostContext.map((entry) => `- ${entry.description}: ${entry.value}`);
      if (this.#hostState !== undefined)
        lines.push(`- Application state: ${JSON.stringify(this.#hostState)}`);
      const text = lines.join('\n');
      parts.push(
        `# Context from the application\n${text.length > MAX_HOST_CONTEXT_CHARS ? `${text.slice(0, MAX_HOST_CONTEXT_CHARS - 1)}…` : text}`,
      );
    }
    return parts.join('\n\n');
  }

  #emit(event: LlmAgentEvent): void {
    try {
      this.#setup.onEvent(event);
    } catch {
      // An observer's bug must not break a turn.
    }
  }
}

/** A render issue in the spec's `error` shape (§3.2): `{code, surfaceId, message, path?}`. */
function toClientError(issue: RenderIssue): ClientError {
  const { code, surfaceId = '', path, message } = issue;
  return { code, surfaceId, message, ...(path ? { path } : {}) } as ClientError;
}

/**
 * `message` with the arguments of its tool calls that are nested too deep replaced by a note: the
 * history is stringified (token estimates) and sent to the provider on the next call, and both
 * walks recurse. The tool result tells the model what was wrong.
 */
function withoutDeepArguments(message: ModelMessage): ModelMessage {
  if (message.role !== 'assistant' || typeof message.content === 'string') return message;
  if (!message.content.some((part) => part.type === 'tool-call' && argumentDepthIssue(part.input)))
    return message;
  return {
    ...message,
    content: message.content.map((part) =>
      part.type === 'tool-call' && argumentDepthIssue(part.input)
        ? {
            ...part,
            input: { omitted: `arguments nested deeper than ${MAX_ARGUMENT_DEPTH} levels` },
          }
        : part,
    ),
  };
}

/**
 * The step's response messages with the outcome of each render call as its tool result: added
 * for valid calls (the render tool has no `execute`), replacing the SDK's generic error for
 * calls whose arguments did not parse.
 */
function withRenderResults(
  messages: readonly ModelMessage[],
  renders: ReadonlyMap<string, RenderOutcome>,
): ModelMessage[] {
  const out = messages.map((message) => {
    if (message.role === 'assistant') return withoutDeepArguments(message);
    if (message.role !== 'tool') return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.type === 'tool-result' && renders.has(part.toolCallId)
          ? {
              ...part,
              output: {
                type: 'json' as const,
                value: renderResult(renders.get(part.toolCallId)!) as never,
              },
            }
          : part,
      ),
    } satisfies ToolModelMessage;
  });
  const answered = new Set(
    out.flatMap((message) =>
      message.role === 'tool'
        ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []))
        : [],
    ),
  );
  const results: ToolResultPart[] = [...renders]
    .filter(([id]) => !answered.has(id))
    .map(([toolCallId, outcome]) => ({
      type: 'tool-result',
      toolCallId,
      toolName: RENDER_TOOL_NAME,
      output: { type: 'json', value: renderResult(outcome) as never },
    }));
  if (results.length === 0) return out;
  const toolMessage = out.findLast((message) => message.role === 'tool');
  if (toolMessage && toolMessage.role === 'tool') toolMessage.content.push(...results);
  else out.push({ role: 'tool', content: results });
  return out;
}
