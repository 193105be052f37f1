/**
 * The conversation one connection has with the model, bounded by message count and an estimate
 * of tokens. Trimming drops whole exchanges from the start — a user turn and everything the model
 * and its tools answered to it — so a tool result never loses the call it answers (providers
 * reject such a history).
 */
import type { ModelMessage } from 'ai';

/** Bounds of a {@link ConversationHistory}. */
export interface HistoryLimits {
  /** Most messages kept (user, assistant and tool messages). @default 40 */
  maxMessages?: number;
  /** Most tokens kept, as `countTokens` estimates them. @default 24000 */
  maxTokens?: number;
  /**
   * Estimates the tokens of one message.
   * @default `estimateTokens`: a quarter of the characters of its JSON
   */
  countTokens?: (message: ModelMessage) => number;
}

export const DEFAULT_HISTORY_LIMITS: Required<Omit<HistoryLimits, 'countTokens'>> = {
  maxMessages: 40,
  maxTokens: 24_000,
};

/**
 * A rough token estimate (about four characters per token for English text and JSON), enough to
 * bound a history without a provider-specific tokenizer.
 *
 * @example
 * ```ts
 * estimateTokens({ role: 'user', content: 'Hello there' }); // 4
 * ```
 */
export function estimateTokens(message: ModelMessage): number {
  return Math.ceil(JSON.stringify(message.content).length / 4);
}

/**
 * A bounded, append-only model conversation.
 *
 * @example
 * ```ts
 * const history = new ConversationHistory({ maxMessages: 20 });
 * history.append({ role: 'user', content: 'A weather card' });
 * streamText({ model, messages: [...history.messages] });
 * ```
 */
export class ConversationHistory {
  readonly #maxMessages: number;
  readonly #maxTokens: number;
  readonly #count: (message: ModelMessage) => number;
  #messages: ModelMessage[] = [];
  #tokens: number[] = [];
  #total = 0;

  constructor(limits: HistoryLimits = {}) {
    this.#maxMessages = limits.maxMessages ?? DEFAULT_HISTORY_LIMITS.maxMessages;
    this.#maxTokens = limits.maxTokens ?? DEFAULT_HISTORY_LIMITS.maxTokens;
    this.#count = limits.countTokens ?? estimateTokens;
  }

  /** The messages to send, oldest first. */
  get messages(): readonly ModelMessage[] {
    return this.#messages;
  }

  /** Estimated tokens of {@link messages}. */
  get tokens(): number {
    return this.#total;
  }

  /**
   * Appends messages, then drops the oldest exchanges while a bound is exceeded. The exchange in
   * progress (from the last user message on) is never dropped.
   */
  append(...messages: ModelMessage[]): void {
    for (const message of messages) {
      const tokens = this.#count(message);
      this.#messages.push(message);
      this.#tokens.push(tokens);
      this.#total += tokens;
    }
    this.#trim();
  }

  clear(): void {
    this.#messages = [];
    this.#tokens = [];
    this.#total = 0;
  }

  #trim(): void {
    while (this.#messages.length > this.#maxMessages || this.#total > this.#maxTokens) {
      const next = this.#messages.findIndex(
        (message, index) => index > 0 && message.role === 'user',
      );
      if (next < 0) return;
      for (const tokens of this.#tokens.slice(0, next)) this.#total -= tokens;
      this.#messages = this.#messages.slice(next);
      this.#tokens = this.#tokens.slice(next);
    }
  }
}
