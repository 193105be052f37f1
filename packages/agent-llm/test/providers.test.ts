/**
 * Every provider package, end to end over real HTTP: `llmModelFromEnv` builds the model, the
 * provider package talks to a local mock server (port 0) that speaks its streaming wire format,
 * and the agent renders what the mock streams. Only the far end is local.
 */
import { createDeferred } from '@a2ui-ts/core/testing';
import { tool } from 'ai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type LlmProviderName, llmModelFromEnv } from '../src/env/llm-model-from-env.js';
import { createLlmAgent, type LlmAgentOptions } from '../src/index.js';
import {
  type LlmWireFormat,
  type MockLlmReply,
  type MockLlmServer,
  startMockLlmServer,
} from '../src/testing/index.js';
import { type ConnectedClient, connectClient } from './connect-client.js';
import { weatherCard } from './fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: provider request bodies differ per wire format
type Body = any;

interface ProviderCase {
  provider: LlmProviderName;
  wire: LlmWireFormat;
  /** Base URL relative to the mock's origin. */
  base: string;
  /** Request path the provider package uses. */
  path: string;
  /** The header carrying the key, and its value for key `sk-test`. */
  auth: [string, string] | undefined;
  /** The wire streams tool arguments in pieces (Gemini sends a call whole). */
  streamsArguments: boolean;
  toolNames(body: Body): string[];
  system(body: Body): string;
  /** The tool result of the app tool call in the second request. */
  toolResult(body: Body): unknown;
  /** How the wire says "a tool call is required". */
  requiredToolChoice(body: Body): unknown;
}

const openAiChat = {
  streamsArguments: true,
  toolNames: (body: Body) => body.tools.map((entry: Body) => entry.function.name),
  system: (body: Body) => body.messages[0].content,
  toolResult: (body: Body) => body.messages.find((message: Body) => message.role === 'tool'),
  requiredToolChoice: (body: Body) => body.tool_choice,
};
const openAiResponses = {
  streamsArguments: true,
  toolNames: (body: Body) => body.tools.map((entry: Body) => entry.name),
  system: (body: Body) => body.input[0].content,
  toolResult: (body: Body) => body.input.find((item: Body) => item.type === 'function_call_output'),
  requiredToolChoice: (body: Body) => body.tool_choice,
};

const CASES: ProviderCase[] = [
  {
    provider: 'openai',
    wire: 'openai-responses',
    base: '/v1',
    path: '/v1/responses',
    auth: ['authorization', 'Bearer sk-test'],
    ...openAiResponses,
  },
  {
    provider: 'openai-chat',
    wire: 'openai-chat',
    base: '/v1',
    path: '/v1/chat/completions',
    auth: ['authorization', 'Bearer sk-test'],
    ...openAiChat,
  },
  {
    provider: 'azure',
    wire: 'openai-responses',
    base: '/openai/v1',
    path: '/openai/v1/responses',
    auth: ['api-key', 'sk-test'],
    ...openAiResponses,
  },
  {
    provider: 'azure-chat',
    wire: 'openai-chat',
    base: '/openai/v1',
    path: '/openai/v1/chat/completions',
    auth: ['api-key', 'sk-test'],
    ...openAiChat,
  },
  {
    provider: 'anthropic',
    wire: 'anthropic-messages',
    base: '/v1',
    path: '/v1/messages',
    auth: ['x-api-key', 'sk-test'],
    streamsArguments: true,
    toolNames: (body) => body.tools.map((entry: Body) => entry.name),
    system: (body) => body.system.map((block: Body) => block.text).join('\n'),
    toolResult: (body) =>
      body.messages
        .flatMap((message: Body) => (Array.isArray(message.content) ? message.content : []))
        .find((block: Body) => block.type === 'tool_result'),
    requiredToolChoice: (body) => body.tool_choice,
  },
  {
    provider: 'google',
    wire: 'google-gemini',
    base: '/v1beta',
    path: '/v1beta/models/mock-model:streamGenerateContent?alt=sse',
    auth: ['x-goog-api-key', 'sk-test'],
    streamsArguments: false,
    toolNames: (body) => body.tools[0].functionDeclarations.map((entry: Body) => entry.name),
    system: (body) => body.systemInstruction.parts.map((part: Body) => part.text).join('\n'),
    toolResult: (body) =>
      body.contents
        .flatMap((content: Body) => content.parts)
        .find((part: Body) => part.functionResponse),
    requiredToolChoice: (body) => body.toolConfig.functionCallingConfig.mode,
  },
  {
    provider: 'openai-compatible',
    wire: 'openai-chat',
    base: '/v1',
    path: '/v1/chat/completions',
    auth: ['authorization', 'Bearer sk-test'],
    ...openAiChat,
  },
  {
    provider: 'ollama',
    wire: 'openai-chat',
    base: '/v1',
    path: '/v1/chat/completions',
    auth: undefined,
    ...openAiChat,
  },
];

const REQUIRED_TOOL_CHOICE: Record<LlmWireFormat, unknown> = {
  'openai-chat': 'required',
  'openai-responses': 'required',
  'anthropic-messages': { type: 'any' },
  'google-gemini': 'ANY',
};

let servers: MockLlmServer[] = [];
let clients: ConnectedClient[] = [];
beforeAll(() => {
  // The mock's model ids are unknown to the providers; their compatibility warnings are noise here.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
});
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  clients = [];
});

async function start(
  entry: Pick<ProviderCase, 'provider' | 'wire' | 'base' | 'auth'>,
  replies: MockLlmReply[],
  options: Partial<LlmAgentOptions> = {},
) {
  const server = await startMockLlmServer({ wire: entry.wire, replies });
  servers.push(server);
  const configured = llmModelFromEnv({
    A2UI_LLM_PROVIDER: entry.provider,
    A2UI_LLM_MODEL: 'mock-model',
    A2UI_LLM_BASE_URL: `${server.origin}${entry.base}`,
    ...(entry.auth ? { A2UI_LLM_API_KEY: 'sk-test' } : {}),
  })!;
  const agent = createLlmAgent({
    model: configured.model,
    agentSurface: { prompt: false },
    callSettings: { maxRetries: 0 },
    ...options,
  });
  const client = await connectClient(agent);
  clients.push(client);
  const status = () => String(client.data('llm-agent', '/status'));
  return { server, client, status };
}

describe.each(CASES)('$provider over $wire', (entry) => {
  it('calls an app tool, then streams a card into the client, then answers an action', async () => {
    const released = createDeferred();
    const lookups: string[] = [];
    const { server, client } = await start(
      entry,
      [
        { text: 'Looking it up.', toolCalls: [{ name: 'getWeather', input: { city: 'Lyon' } }] },
        {
          toolCalls: [{ name: 'render_a2ui', input: { messages: weatherCard() } }],
          chunkSize: 16,
          // Hold the stream in the middle of the arguments until the test has looked.
          ...(entry.streamsArguments
            ? { pause: { afterEvents: 40, until: released.promise } }
            : {}),
        },
        {
          toolCalls: [
            {
              name: 'render_a2ui',
              input: {
                messages: [
                  {
                    version: 'v0.9',
                    updateDataModel: { surfaceId: 'weather', path: '/temperature', value: 19 },
                  },
                ],
              },
            },
          ],
        },
      ],
      {
        tools: {
          getWeather: tool({
            description: 'Current weather of a city',
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }) => {
              lookups.push(city);
              return { city, temperature: 21 };
            },
          }),
        },
      },
    );
    const turn = client.transport.input({ text: 'Weather in Lyon' });
    if (entry.streamsArguments) {
      await client.until(
        () => client.componentIds('weather').includes('root'),
        'the first components',
      );
      // Part of the card is on screen while its tool call is still streaming.
      expect(client.componentIds('weather').length).toBeLessThan(5);
      released.resolve();
    }
    await turn;
    expect(lookups).toEqual(['Lyon']);
    expect(client.componentIds('weather').sort()).toEqual([
      'refresh',
      'refresh-label',
      'root',
      'temperature',
      'title',
    ]);
    expect(client.errors).toEqual([]);

    const [first, second] = server.requests;
    expect(first!.url).toBe(entry.path);
    if (entry.auth) expect(first!.headers[entry.auth[0]]).toBe(entry.auth[1]);
    expect(entry.toolNames(first!.body).sort()).toEqual(['getWeather', 'render_a2ui']);
    if (entry.wire === 'openai-responses') {
      // The Responses API makes function tools strict unless told; the catalog schema is not strict-mode JSON Schema.
      const render = first!.body.tools.find((entry: Body) => entry.name === 'render_a2ui');
      expect(render.strict).toBe(false);
    }
    expect(entry.requiredToolChoice(first!.body)).toEqual(REQUIRED_TOOL_CHOICE[entry.wire]);
    expect(entry.system(first!.body)).toContain('# Rules of A2UI v0.9');
    // The result travels as JSON text inside the wire's tool-result shape.
    expect(JSON.stringify(entry.toolResult(second!.body)).replaceAll('\\"', '"')).toContain(
      '"temperature":21',
    );

    await client.client.dispatchAction('weather', 'refresh');
    await client.until(() => client.data('weather', '/temperature') === 19, 'the answered action');
    expect(JSON.stringify(server.requests[2]!.body)).toContain('\\"name\\":\\"refresh\\"');
  });
});

describe('provider failures over HTTP', () => {
  const chat = CASES.find((entry) => entry.provider === 'openai-chat')!;
  const anthropic = CASES.find((entry) => entry.provider === 'anthropic')!;

  it('reports an HTTP error with its status, and serves the next request', async () => {
    const { client, status } = await start(anthropic, [
      {
        status: 401,
        body: {
          type: 'error',
          error: { type: 'authentication_error', message: 'invalid x-api-key' },
        },
      },
      { toolCalls: [{ name: 'render_a2ui', input: { messages: weatherCard() } }] },
    ]);
    await client.transport.input({ text: 'Weather' });
    expect(status()).toBe(
      'The model call failed: the provider answered HTTP 401: invalid x-api-key',
    );
    await client.transport.input({ text: 'Weather' });
    expect(client.componentIds('weather')).toHaveLength(5);
  });

  it('retries a 503 with the provider’s Retry-After and then renders', async () => {
    const { server, client } = await start(
      chat,
      [
        {
          status: 503,
          body: { error: { message: 'overloaded' } },
          headers: { 'retry-after-ms': '1' },
        },
        { toolCalls: [{ name: 'render_a2ui', input: { messages: weatherCard() } }] },
      ],
      { callSettings: { maxRetries: 1 } },
    );
    await client.transport.input({ text: 'Weather' });
    expect(server.requests).toHaveLength(2);
    expect(client.componentIds('weather')).toHaveLength(5);
  });

  it('keeps what streamed before the link dropped and says the call failed', async () => {
    const { client, status } = await start(chat, [
      {
        toolCalls: [{ name: 'render_a2ui', input: { messages: weatherCard() } }],
        chunkSize: 16,
        // The root column and its title have streamed; the rest of the card has not.
        cutAfterEvents: 36,
      },
    ]);
    await client.transport.input({ text: 'Weather' });
    expect(status()).toMatch(/^The model call failed: the provider's response broke off/);
    // The valid prefix stays on screen, consistent: the column shows only children it has.
    const ids = client.componentIds('weather');
    expect(ids).toEqual(expect.arrayContaining(['root', 'title']));
    const root = client.client.processor.getSurface('weather')!.components.get('root')!;
    const children = root.properties.children as string[];
    expect(children.every((id) => ids.includes(id))).toBe(true);
    expect(client.errors).toEqual([]);
  });

  it('reports a stream of garbage', async () => {
    const { client, status } = await start(chat, [{ raw: 'data: {"choices": [ nope\n\n' }]);
    await client.transport.input({ text: 'Weather' });
    expect(status()).toMatch(/^The model call failed: /);
    expect(client.surfaceIds()).toEqual(['llm-agent']);
  });

  it('aborts the HTTP request to the provider when the client leaves', async () => {
    const { server, client } = await start(chat, [{ text: 'Thinking', hang: true }]);
    void client.transport.input({ text: 'Weather' }).catch(() => {});
    const request = await server.request(0);
    await client.close();
    await request.clientClosed;
    expect(server.requests).toHaveLength(1);
  });
});
