/**
 * Options of `createLlmAgent`, their defaults in one place, and the events the agent reports.
 */
import type { Catalog, ClientError, Connection, MigrationIssue, UrlPolicy } from '@a2ui-ts/core';
import type { LanguageModel, ToolSet } from 'ai';
import type { HistoryLimits } from '../conversation/conversation-history.js';
import type { RateLimit } from '../conversation/turn-rate-limiter.js';
import type { RenderIssue } from '../render/surface-mirror.js';
import type { LlmRendererFunction } from '../tools/renderer-function-tools.js';
import type { AgentSurfaceOptions } from './agent-surface.js';

/** Settings passed to every model call (AI SDK `streamText` call settings). */
export interface LlmCallSettings {
  /** @default the provider's */
  temperature?: number;
  /** @default the provider's */
  maxOutputTokens?: number;
  topP?: number;
  seed?: number;
  /**
   * Retries of a failed call (429, 5xx, network), with the AI SDK's exponential backoff
   * (honouring `retry-after`).
   * @default 2
   */
  maxRetries?: number;
  /** Extra HTTP headers for the provider. */
  headers?: Record<string, string>;
  /** Provider-specific options (`{ openai: { … } }`), passed through. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** What an app tool's `execute` receives as `experimental_context`. */
export interface LlmToolContext {
  /** The connection the model is answering (its `principal`, `clientDataModel`, …). */
  readonly connection: Connection;
}

/** Options of `createLlmAgent`. */
export interface LlmAgentOptions {
  /**
   * The model: any AI SDK language model — `openai('gpt-4.1')`, `anthropic('claude-…')`,
   * `google('gemini-…')`, `createOpenAICompatible({…})('qwen2.5')`, `llmModelFromEnv().model`, or
   * your own `LanguageModelV3` for any other provider.
   */
  model: LanguageModel;
  /** How status lines name the model. @default the model id */
  label?: string;
  /**
   * The catalog the model renders with (basic, minimal or custom); it needs its JSON Schema
   * (`catalog.schema`). Its validator checks every message; without one, it is compiled from the
   * schema.
   * @default basicCatalog
   */
  catalog?: Catalog;
  /** What the application wants (role, tone, domain); placed before the A2UI rules. */
  instructions?: string;
  /**
   * App functions the model calls on its own: AI SDK tools
   * (`tool({ description, inputSchema: z.object({…}), execute })`). `execute` gets
   * `{ experimental_context: LlmToolContext }`. A name must not be `render_a2ui`.
   * @default {}
   */
  tools?: ToolSet;
  /** Offer the frontend tools the host declared (AG-UI) to the model. @default true */
  hostTools?: boolean;
  /**
   * Functions the renderer exposes to agents (A2UI v1.0 `callRendererFunction`, e.g. the user's
   * time zone or locale), offered to the model as tools on connections that negotiated v1.0
   * only; a name taken by an app tool or `render_a2ui` is left out.
   * @default []
   */
  rendererFunctions?: readonly LlmRendererFunction[];
  /**
   * Render attempts per request before giving up: the first, plus corrections after a
   * validation failure or an error the client reports.
   * @default 3
   */
  maxAttempts?: number;
  /** Model calls per turn (tool round trips and corrections included). @default 8 */
  maxSteps?: number;
  /**
   * Send complete components while the model streams the tool call; `false` waits for the
   * whole call (the baseline the benchmark compares against).
   * @default true
   */
  progressive?: boolean;
  /**
   * `'required'`: the model must call a tool on every step (UI agents answer with UI);
   * `'auto'`: it may answer in text, shown on the agent surface.
   * @default 'required'
   */
  toolChoice?: 'required' | 'auto';
  /** Bounds of each connection's conversation. @default 40 messages, 24000 tokens */
  history?: HistoryLimits;
  /** Turns per connection per window; `false` for none. @default 20 per 60000 ms */
  rateLimit?: RateLimit | false;
  /** The agent's own surface (status, replies, prompt box). */
  agentSurface?: AgentSurfaceOptions;
  /** Settings of every model call. */
  callSettings?: LlmCallSettings;
  /**
   * Longest silence of the provider within a call, in milliseconds, before the call is given up
   * (the user is told).
   * @default 60000
   */
  idleTimeoutMs?: number;
  /** Longest model call (one step), in milliseconds. @default 300000 */
  callTimeoutMs?: number;
  /** Largest message sent, in UTF-8 bytes (keep it at or below the transport's). @default 1048576 */
  maxMessageBytes?: number;
  /**
   * The URLs the model may write (media `url`s, `openUrl`, a theme's `iconUrl`); a component or
   * message with another is not sent and the model is told. Match the client's policy.
   * @default core's `createUrlPolicy()` (`http:` and `https:` only)
   */
  urlPolicy?: UrlPolicy;
  /** Receives what the agent does, for logs and metrics. Must not throw. */
  onEvent?: (event: LlmAgentEvent) => void;
  /** The clock of the rate limit. @default Date.now */
  now?: () => number;
}

/** How a turn ended. */
export type TurnOutcome =
  /** Every render of the turn applied and the surfaces render fully. */
  | 'rendered'
  /** The model answered in text only. */
  | 'replied'
  /** `maxAttempts` renders failed; the user was told. */
  | 'gave-up'
  /** The provider call failed (HTTP error, network, bad stream); the user was told. */
  | 'failed'
  /** The client left or the turn was cancelled. */
  | 'aborted'
  /** The rate limit refused the turn; the user was told. */
  | 'rate-limited'
  /** `maxSteps` model calls without a final answer; the user was told. */
  | 'step-limit';

/** What the agent reports to `onEvent`. */
export type LlmAgentEvent =
  | {
      type: 'turn-start';
      connectionId: string;
      trigger: 'input' | 'action' | 'client-error';
    }
  | { type: 'model-call'; connectionId: string; step: number }
  /**
   * What the connection's negotiated version could not express of what the agent wrote (the
   * model writes v0.9; a v1.0 client gets it converted, a `theme` dropped). The rest was sent.
   */
  | { type: 'version-issues'; connectionId: string; issues: readonly MigrationIssue[] }
  | { type: 'tool-call'; connectionId: string; toolName: string; toolCallId: string }
  | {
      type: 'render';
      connectionId: string;
      ok: boolean;
      sent: number;
      issues: readonly RenderIssue[];
    }
  | {
      type: 'turn-end';
      connectionId: string;
      outcome: TurnOutcome;
      modelCalls: number;
      /** Tokens the provider reported for the turn's model calls. */
      usage: { inputTokens: number; outputTokens: number };
      error?: unknown;
      /**
       * On `gave-up`: the problem still there, in the spec's `error` shape (§3.2) — the one the
       * user was told about on the agent surface; everything valid stays on screen.
       */
      issue?: ClientError;
    };

/** Defaults of {@link LlmAgentOptions}. */
export const DEFAULT_LLM_AGENT_OPTIONS = {
  maxAttempts: 3,
  maxSteps: 8,
  progressive: true,
  toolChoice: 'required',
  hostTools: true,
  maxMessageBytes: 1_048_576,
  idleTimeoutMs: 60_000,
  callTimeoutMs: 300_000,
} as const satisfies Partial<LlmAgentOptions>;
