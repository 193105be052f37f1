/**
 * The streaming wire formats of the providers the LLM agent is tested against, as server-sent
 * events: OpenAI Chat Completions (also Azure, Ollama, LM Studio and every OpenAI-compatible
 * server), OpenAI Responses (also Azure), Anthropic Messages and the Gemini API. Each encodes one
 * scripted reply — text, then tool calls whose arguments stream in pieces where the real API
 * streams them (Gemini sends a function call whole).
 */

/** A provider wire format. */
export type LlmWireFormat =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'google-gemini';

/** One tool call of a scripted reply. */
export interface MockToolCall {
  name: string;
  /** A value (JSON-encoded on the wire) or raw argument text (to script broken JSON). */
  input: unknown;
  /** @default `call_<n>` (OpenAI), `toolu_<n>` (Anthropic); Gemini sends none */
  id?: string;
}

/** What a scripted reply says. */
export interface MockReplyContent {
  text?: string;
  toolCalls?: readonly MockToolCall[];
  /** Characters per streamed delta. @default 24 */
  chunkSize?: number;
  /** Tokens reported. @default 12 input, 34 output */
  usage?: { inputTokens: number; outputTokens: number };
}

/** One server-sent event: an optional `event:` name and its JSON data (or `[DONE]`). */
export interface WireEvent {
  event?: string;
  data: unknown;
}

/** The SSE bytes of one event. */
export function formatSseEvent(event: WireEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${data}\n\n`;
}

/**
 * The events that stream `content` in `wire`.
 *
 * @example
 * ```ts
 * encodeReply('anthropic-messages', { text: 'Hi' }).map(formatSseEvent).join('');
 * ```
 */
export function encodeReply(
  wire: LlmWireFormat,
  content: MockReplyContent,
  model = 'mock-model',
): WireEvent[] {
  switch (wire) {
    case 'openai-chat':
      return openAiChat(content, model);
    case 'openai-responses':
      return openAiResponses(content, model);
    case 'anthropic-messages':
      return anthropicMessages(content, model);
    case 'google-gemini':
      return googleGemini(content, model);
  }
}

const CREATED = 1_767_225_600;

/** A tool call's argument text: raw text as it is, any other value as JSON. */
export function argumentsOf(call: { readonly input: unknown }): string {
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
}

/** `text` in pieces of `size` characters (the last one shorter), as a stream delivers it. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

function usageOf(content: MockReplyContent) {
  return content.usage ?? { inputTokens: 12, outputTokens: 34 };
}

function openAiChat(content: MockReplyContent, model: string): WireEvent[] {
  const size = content.chunkSize ?? 24;
  const chunk = (delta: unknown, finish: string | null = null) => ({
    data: {
      id: 'chatcmpl-mock',
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    },
  });
  const events: WireEvent[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(content.text ?? '', size)) events.push(chunk({ content: piece }));
  (content.toolCalls ?? []).forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id ?? `call_${index + 1}`,
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    );
    for (const piece of pieces(argumentsOf(call), size))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, (content.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop'));
  const usage = usageOf(content);
  events.push({
    data: {
      id: 'chatcmpl-mock',
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      choices: [],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    },
  });
  events.push({ data: '[DONE]' });
  return events;
}

function openAiResponses(content: MockReplyContent, model: string): WireEvent[] {
  const size = content.chunkSize ?? 24;
  let sequence = 0;
  const event = (type: string, body: Record<string, unknown>): WireEvent => ({
    event: type,
    data: { type, sequence_number: sequence++, ...body },
  });
  const response = { id: 'resp_mock', object: 'response', created_at: CREATED, model };
  const events: WireEvent[] = [
    event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
  ];
  let outputIndex = 0;
  if (content.text) {
    const item = { type: 'message', id: 'msg_mock', role: 'assistant' };
    const output_index = outputIndex++;
    events.push(
      event('response.output_item.added', {
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      }),
    );
    for (const piece of pieces(content.text, size)) {
      events.push(
        event('response.output_text.delta', {
          item_id: item.id,
          output_index,
          content_index: 0,
          delta: piece,
          logprobs: [],
        }),
      );
    }
    events.push(
      event('response.output_item.done', {
        output_index,
        item: {
          ...item,
          status: 'completed',
          content: [{ type: 'output_text', text: content.text, annotations: [] }],
        },
      }),
    );
  }
  (content.toolCalls ?? []).forEach((call, index) => {
    const output_index = outputIndex++;
    const item = {
      type: 'function_call',
      id: `fc_${index + 1}`,
      call_id: call.id ?? `call_${index + 1}`,
      name: call.name,
    };
    const args = argumentsOf(call);
    events.push(
      event('response.output_item.added', {
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      }),
    );
    for (const piece of pieces(args, size)) {
      events.push(
        event('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index,
          delta: piece,
        }),
      );
    }
    events.push(
      event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index,
        arguments: args,
      }),
    );
    events.push(
      event('response.output_item.done', {
        output_index,
        item: { ...item, arguments: args, status: 'completed' },
      }),
    );
  });
  const usage = usageOf(content);
  events.push(
    event('response.completed', {
      response: {
        ...response,
        status: 'completed',
        usage: {
          input_tokens: usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.inputTokens + usage.outputTokens,
        },
      },
    }),
  );
  return events;
}

function anthropicMessages(content: MockReplyContent, model: string): WireEvent[] {
  const size = content.chunkSize ?? 24;
  const usage = usageOf(content);
  const event = (type: string, body: Record<string, unknown> = {}): WireEvent => ({
    event: type,
    data: { type, ...body },
  });
  const events: WireEvent[] = [
    event('message_start', {
      message: {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
      },
    }),
    event('ping'),
  ];
  let index = 0;
  if (content.text) {
    const block = index++;
    events.push(
      event('content_block_start', { index: block, content_block: { type: 'text', text: '' } }),
    );
    for (const piece of pieces(content.text, size)) {
      events.push(
        event('content_block_delta', { index: block, delta: { type: 'text_delta', text: piece } }),
      );
    }
    events.push(event('content_block_stop', { index: block }));
  }
  (content.toolCalls ?? []).forEach((call, position) => {
    const block = index++;
    events.push(
      event('content_block_start', {
        index: block,
        content_block: {
          type: 'tool_use',
          id: call.id ?? `toolu_${position + 1}`,
          name: call.name,
          input: {},
        },
      }),
    );
    for (const piece of pieces(argumentsOf(call), size)) {
      events.push(
        event('content_block_delta', {
          index: block,
          delta: { type: 'input_json_delta', partial_json: piece },
        }),
      );
    }
    events.push(event('content_block_stop', { index: block }));
  });
  events.push(
    event('message_delta', {
      delta: {
        stop_reason: (content.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn',
        stop_sequence: null,
      },
      usage: { output_tokens: usage.outputTokens },
    }),
  );
  events.push(event('message_stop'));
  return events;
}

function googleGemini(content: MockReplyContent, model: string): WireEvent[] {
  const size = content.chunkSize ?? 24;
  const usage = usageOf(content);
  const chunk = (parts: unknown[], last = false): WireEvent => ({
    data: {
      candidates: [
        {
          content: { role: 'model', parts },
          index: 0,
          ...(last ? { finishReason: 'STOP' } : {}),
        },
      ],
      ...(last
        ? {
            usageMetadata: {
              promptTokenCount: usage.inputTokens,
              candidatesTokenCount: usage.outputTokens,
              totalTokenCount: usage.inputTokens + usage.outputTokens,
            },
          }
        : {}),
      modelVersion: model,
    },
  });
  const parts: unknown[][] = pieces(content.text ?? '', size).map((text) => [{ text }]);
  for (const call of content.toolCalls ?? []) {
    // The Gemini API streams a function call whole, with its arguments as an object.
    const args = typeof call.input === 'string' ? JSON.parse(call.input) : call.input;
    parts.push([{ functionCall: { name: call.name, args } }]);
  }
  if (parts.length === 0) parts.push([{ text: '' }]);
  return parts.map((part, index) => chunk(part, index === parts.length - 1));
}
