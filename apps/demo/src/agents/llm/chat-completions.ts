/**
 * A minimal streaming client for OpenAI-compatible `POST {baseUrl}/chat/completions` (OpenAI,
 * Azure OpenAI's v1 API, Ollama, LM Studio, vLLM…): sends `stream: true` and assembles the text
 * and tool-call deltas of the server-sent events.
 */
import type { ChatTool } from './render-tool.js';

/** One chat message, in the OpenAI wire shape. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A complete tool call of the assistant. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Options of {@link streamChatCompletion}. */
export interface ChatCompletionRequest {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1` (no trailing `/chat/completions`). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  messages: readonly ChatMessage[];
  tools?: readonly ChatTool[];
  /** Forces a tool: `{type: 'function', function: {name}}`. */
  toolChoice?: unknown;
  temperature?: number;
  signal?: AbortSignal;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Called with each text delta as it streams in. */
  onText?: (delta: string) => void;
}

/** The assembled reply. */
export interface ChatCompletionResult {
  content: string;
  toolCalls: ChatToolCall[];
  finishReason: string | undefined;
}

interface StreamChunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{
        index?: number;
        id?: string;
        type?: string;
        function?: { name?: string; arguments?: string };
      }>;
    };
    finish_reason?: string | null;
  }>;
  error?: { message?: string };
}

/**
 * Runs one streaming chat completion.
 * @throws Error on a non-2xx answer (with the server's message), a stream error event, or abort
 */
export async function streamChatCompletion(
  request: ChatCompletionRequest,
): Promise<ChatCompletionResult> {
  const doFetch = request.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'text/event-stream',
  };
  if (request.apiKey) headers.Authorization = `Bearer ${request.apiKey}`;
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages,
    stream: true,
  };
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const response = await doFetch(`${request.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: request.signal,
  });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    throw new Error(
      `The model endpoint answered ${response.status}: ${text.slice(0, 500) || response.statusText}`,
    );
  }

  let content = '';
  let finishReason: string | undefined;
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  const applyChunk = (chunk: StreamChunk) => {
    if (chunk.error)
      throw new Error(`The model stream failed: ${chunk.error.message ?? 'unknown error'}`);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (typeof delta?.content === 'string' && delta.content !== '') {
      content += delta.content;
      request.onText?.(delta.content);
    }
    for (const part of delta?.tool_calls ?? []) {
      const index = part.index ?? calls.length;
      let call = calls[index];
      if (!call) {
        call = { id: '', name: '', arguments: '' };
        calls[index] = call;
      }
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
  };

  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let done = false;
  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') {
      done = true;
      return;
    }
    applyChunk(JSON.parse(payload) as StreamChunk);
  };
  const reader = response.body.getReader();
  try {
    while (!done) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0 && !done) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') dispatch();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        newline = buffer.indexOf('\n');
      }
    }
    if (!done) dispatch();
  } finally {
    reader.cancel().catch(() => {});
  }
  return {
    content,
    finishReason,
    toolCalls: calls
      .filter((call) => call !== undefined)
      .map((call, index) => ({
        id: call.id || `call_${index}`,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      })),
  };
}
