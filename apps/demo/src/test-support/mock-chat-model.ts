/**
 * Test helper: `@a2ui-ts/agent-llm`'s mock provider speaking OpenAI-compatible streaming chat
 * completions on 127.0.0.1 (port 0), plus the environment that points the demo at it and reply
 * builders for the demo's tools.
 */
import type { LlmEnvironment } from '@a2ui-ts/agent-llm';
import {
  type MockLlmReply,
  type MockLlmServer,
  type MockStreamReply,
  startMockLlmServer,
} from '@a2ui-ts/agent-llm/testing';

/** A running mock endpoint and the demo configuration that uses it. */
export interface MockChatModel {
  server: MockLlmServer;
  /** `A2UI_LLM_PROVIDER=openai-compatible`, the mock's base URL, model `mock-model`. */
  env: LlmEnvironment;
  close(): Promise<void>;
}

/** Starts the mock with scripted replies (more can be queued with `server.reply`). */
export async function startMockChatModel(replies: MockLlmReply[] = []): Promise<MockChatModel> {
  const server = await startMockLlmServer({ wire: 'openai-chat', replies });
  return {
    server,
    env: {
      A2UI_LLM_PROVIDER: 'openai-compatible',
      A2UI_LLM_BASE_URL: server.baseUrl,
      A2UI_LLM_MODEL: 'mock-model',
    },
    close: () => server.close(),
  };
}

/** A reply that streams one `render_a2ui` call with `messages`, in small pieces. */
export function renderReply(
  messages: unknown[],
  options: Omit<MockStreamReply, 'toolCalls'> = {},
): MockStreamReply {
  return { chunkSize: 20, ...options, toolCalls: [{ name: 'render_a2ui', input: { messages } }] };
}

/** A reply that calls one app tool, after an optional sentence. */
export function toolReply(name: string, input: unknown, text?: string): MockStreamReply {
  return { text, toolCalls: [{ name, input }] };
}
