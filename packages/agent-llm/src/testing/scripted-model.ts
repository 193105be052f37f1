/**
 * Test helpers: an AI SDK mock model (`MockLanguageModelV3` from `ai/test`) that answers each call
 * with the next scripted step, and builders for steps that stream text and tool calls the way
 * providers do (input deltas in small pieces, then the whole call).
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { RENDER_TOOL_NAME } from '../catalog/render-tool-schema.js';
import { argumentsOf, pieces } from './wire-formats.js';

/** One scripted model call: its stream parts, a stream the test controls, or a function of the call. */
export type ScriptStep =
  | readonly LanguageModelV3StreamPart[]
  | ReadableStream<LanguageModelV3StreamPart>
  | ((
      call: LanguageModelV3CallOptions,
    ) => readonly LanguageModelV3StreamPart[] | ReadableStream<LanguageModelV3StreamPart>);

/** A mock model answering scripted steps in order; `calls` records what it was asked. */
export interface ScriptedModel extends MockLanguageModelV3 {
  /** Every call's options (prompt, tools, tool choice, abort signal), in order. */
  readonly calls: LanguageModelV3CallOptions[];
}

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** @default 'scripted-model' */
  modelId?: string;
  /** @default 'mock' */
  provider?: string;
}

/**
 * A model that answers its n-th call with `steps[n]`; a call past the script fails with an
 * error part (as a provider failure would).
 *
 * @example
 * ```ts
 * const model = createScriptedModel([renderStep([{ version: 'v0.9', createSurface: … }])]);
 * const agent = createLlmAgent({ model });
 * ```
 */
export function createScriptedModel(
  steps: readonly ScriptStep[],
  options: ScriptedModelOptions = {},
): ScriptedModel {
  let calls = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    modelId: options.modelId ?? 'scripted-model',
    provider: options.provider ?? 'mock',
    doStream: async (call: LanguageModelV3CallOptions) => {
      const step: ScriptStep | undefined = steps[calls++];
      const resolved:
        | readonly LanguageModelV3StreamPart[]
        | ReadableStream<LanguageModelV3StreamPart> =
        step === undefined
          ? [{ type: 'error', error: new Error('The scripted model has no more steps.') } as const]
          : typeof step === 'function'
            ? step(call)
            : step;
      const stream: ReadableStream<LanguageModelV3StreamPart> =
        resolved instanceof ReadableStream ? resolved : convertArrayToReadableStream([...resolved]);
      return { stream: abortable(stream, call.abortSignal) };
    },
  });
  return Object.assign(model, {
    get calls() {
      return model.doStreamCalls;
    },
  }) as ScriptedModel;
}

/** One tool call of a {@link scriptedStep}. */
export interface ScriptedToolCall {
  toolName: string;
  /** The input: a value (JSON-encoded here) or raw JSON text (to script broken arguments). */
  input: unknown;
  /** @default `call_<n>` */
  toolCallId?: string;
  /** Characters per streamed input delta. @default 24 */
  chunkSize?: number;
  /** Stream the input as deltas before the call (as most providers do). @default true */
  streamInput?: boolean;
}

/** Options of {@link scriptedStep}. */
export interface ScriptedStepOptions {
  /** Text the model writes first. */
  text?: string;
  toolCalls?: readonly ScriptedToolCall[];
  /** @default 'tool-calls' with tool calls, else 'stop' */
  finishReason?: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';
  /** Reported usage. @default 10 input, 20 output tokens */
  usage?: { inputTokens: number; outputTokens: number };
}

let nextCallId = 0;

/**
 * The stream parts of one model call that writes `text` and/or makes tool calls.
 *
 * @example
 * ```ts
 * scriptedStep({ text: 'Looking.', toolCalls: [{ toolName: 'search', input: { q: 'Lyon' } }] });
 * ```
 */
export function scriptedStep(options: ScriptedStepOptions): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (options.text) {
    parts.push({ type: 'text-start', id: 'text-1' });
    for (const piece of pieces(options.text, 8))
      parts.push({ type: 'text-delta', id: 'text-1', delta: piece });
    parts.push({ type: 'text-end', id: 'text-1' });
  }
  for (const call of options.toolCalls ?? []) {
    const id = call.toolCallId ?? `call_${++nextCallId}`;
    const input = argumentsOf(call);
    if (call.streamInput !== false) {
      parts.push({ type: 'tool-input-start', id, toolName: call.toolName });
      for (const piece of pieces(input, call.chunkSize ?? 24))
        parts.push({ type: 'tool-input-delta', id, delta: piece });
      parts.push({ type: 'tool-input-end', id });
    }
    parts.push({ type: 'tool-call', toolCallId: id, toolName: call.toolName, input });
  }
  const usage = options.usage ?? { inputTokens: 10, outputTokens: 20 };
  parts.push({
    type: 'finish',
    finishReason: {
      unified:
        options.finishReason ?? ((options.toolCalls?.length ?? 0) > 0 ? 'tool-calls' : 'stop'),
      raw: undefined,
    },
    usage: {
      inputTokens: {
        total: usage.inputTokens,
        noCache: usage.inputTokens,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: undefined },
    },
  });
  return parts;
}

/**
 * A step whose only output is a `render_a2ui` call with `messages`, streamed in pieces.
 *
 * @example
 * ```ts
 * createScriptedModel([renderStep(messages, { chunkSize: 8 })]);
 * ```
 */
export function renderStep(
  messages: readonly unknown[],
  options: Omit<ScriptedToolCall, 'toolName' | 'input'> & { text?: string } = {},
): LanguageModelV3StreamPart[] {
  const { text, ...call } = options;
  return scriptedStep({
    text,
    toolCalls: [{ ...call, toolName: RENDER_TOOL_NAME, input: { messages } }],
  });
}

/**
 * A stream the test feeds by hand, for asserting what the client shows between two parts.
 *
 * @example
 * ```ts
 * const stream = controlledStream();
 * const model = createScriptedModel([stream.readable]);
 * stream.push(...parts.slice(0, 10)); // …assert the partial UI…
 * stream.push(...parts.slice(10)); stream.close();
 * ```
 */
export function controlledStream(): {
  readable: ReadableStream<LanguageModelV3StreamPart>;
  push(...parts: LanguageModelV3StreamPart[]): void;
  close(): void;
  /** Aborts when the consumer cancels the stream (the provider call was aborted). */
  readonly cancelled: AbortSignal;
} {
  let controller!: ReadableStreamDefaultController<LanguageModelV3StreamPart>;
  const cancelled = new AbortController();
  const readable = new ReadableStream<LanguageModelV3StreamPart>({
    start(value) {
      controller = value;
    },
    cancel() {
      cancelled.abort();
    },
  });
  return {
    readable,
    push: (...parts) => {
      for (const part of parts) controller.enqueue(part);
    },
    close: () => controller.close(),
    cancelled: cancelled.signal,
  };
}

/**
 * Errors the stream with an `AbortError` when `signal` aborts, as a provider's `fetch` body does,
 * so an aborted call ends even while the script is silent.
 */
function abortable<T>(
  stream: ReadableStream<T>,
  signal: AbortSignal | undefined,
): ReadableStream<T> {
  if (!signal) return stream;
  const reader = stream.getReader();
  return new ReadableStream<T>({
    start(controller) {
      const onAbort = () => {
        controller.error(new DOMException('The operation was aborted.', 'AbortError'));
        reader.cancel().catch(() => {});
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
