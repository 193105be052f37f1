import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectTestClient, type TestClient } from '../../test-support/connect-test-client.js';
import { createLlmAgent, LLM_PROMPT_SURFACE_ID, llmOptionsFromEnv } from './llm-agent.js';
import { createRenderTool, RENDER_TOOL_NAME } from './render-tool.js';

const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

/** One scripted reply: SSE `data:` payloads in the streaming chat-completions format, or an HTTP error. */
type Reply = { chunks: unknown[] } | { status: number; body: string };

interface RecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: { model: string; stream: boolean; messages: Array<Record<string, unknown>>; tools: Array<{ function: { name: string; parameters: Record<string, unknown> } }> };
}

/** A local stand-in for an OpenAI-compatible endpoint, answering with the scripted replies in order. */
async function startMockModel(replies: Reply[]): Promise<{ baseUrl: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      requests.push({ url: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      const reply = replies.shift() ?? { status: 500, body: '{"error":{"message":"no more scripted replies"}}' };
      if ('status' in reply) {
        response.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body);
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (const chunk of reply.chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A tool call streamed the way real endpoints do it: id and name first, then the arguments in small pieces. */
function toolCallReply(messages: unknown[], id = 'call_1'): Reply {
  const args = JSON.stringify({ messages });
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += 40) pieces.push(args.slice(i, i + 40));
  return {
    chunks: [
      { choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id, type: 'function', function: { name: RENDER_TOOL_NAME, arguments: '' } }] } }] },
      ...pieces.map((piece) => ({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] } }] })),
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ],
  };
}

const card = (text: unknown) => [
  { version: 'v0.9', createSurface: { surfaceId: 'weather', catalogId: BASIC } },
  { version: 'v0.9', updateDataModel: { surfaceId: 'weather', value: { city: 'Lyon' } } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'weather',
      components: [
        { id: 'root', component: 'Column', children: ['title', 'refresh'] },
        { id: 'title', component: 'Text', text },
        { id: 'refresh', component: 'Button', child: 'refresh-label', action: { event: { name: 'refresh', context: { city: { path: '/city' } } } } },
        { id: 'refresh-label', component: 'Text', text: 'Refresh' },
      ],
    },
  },
];

describe('LLM agent against a mock chat-completions endpoint', () => {
  let test: TestClient | undefined;
  let model: Awaited<ReturnType<typeof startMockModel>> | undefined;
  beforeEach(() => {
    test = undefined;
    model = undefined;
  });
  afterEach(async () => {
    await test?.close();
    await model?.close();
  });

  async function setup(replies: Reply[]) {
    model = await startMockModel(replies);
    test = await connectTestClient(createLlmAgent({ baseUrl: model.baseUrl, model: 'mock-model', apiKey: 'sk-test' }));
    const t = test;
    await t.until(() => t.client.processor.getSurface(LLM_PROMPT_SURFACE_ID)?.components.has('prompt-button') === true, 'the prompt surface');
    await t.until(() => t.data(LLM_PROMPT_SURFACE_ID, '/prompt') !== undefined, 'the prompt data');
    return { t, mock: model };
  }

  async function ask(t: TestClient, prompt: string) {
    t.client.processor.getSurface(LLM_PROMPT_SURFACE_ID)!.dataModel.set('/prompt', prompt);
    expect(await t.client.dispatchAction(LLM_PROMPT_SURFACE_ID, 'prompt-button')).toBe(true);
  }

  it('feeds VALIDATION_FAILED back to the model and renders its corrected UI', async () => {
    const { t, mock } = await setup([toolCallReply(card(42), 'call_bad'), toolCallReply(card({ call: 'formatString', args: { value: 'Weather in ${/city}' }, returnType: 'string' }), 'call_good')]);
    await ask(t, 'A weather card for Lyon');
    await t.until(() => t.client.processor.getSurface('weather')?.components.has('root') === true, 'the generated surface');
    await t.until(() => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).startsWith('Rendered'), 'the final status');
    expect(t.data(LLM_PROMPT_SURFACE_ID, '/status')).toBe('Rendered 3 messages from mock-model after 1 correction.');
    expect(t.errors).toEqual([]);

    expect(mock.requests).toHaveLength(2);
    const [first, second] = mock.requests;
    expect(first!.url).toBe('/v1/chat/completions');
    expect(first!.headers.authorization).toBe('Bearer sk-test');
    expect(first!.body.model).toBe('mock-model');
    expect(first!.body.stream).toBe(true);
    expect(first!.body.tools[0]!.function.name).toBe(RENDER_TOOL_NAME);
    expect(first!.body.messages.at(-1)).toEqual({ role: 'user', content: 'A weather card for Lyon' });

    const feedback = second!.body.messages.at(-1)!;
    expect(feedback.role).toBe('tool');
    expect(feedback.tool_call_id).toBe('call_bad');
    const { errors } = JSON.parse(String(feedback.content)) as { errors: Array<Record<string, string>> };
    expect(errors[0]).toMatchObject({ code: 'VALIDATION_FAILED', surfaceId: 'weather', path: '/messages/2/updateComponents/components/1/text' });
    expect(second!.body.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_bad' }] });
  });

  it('continues the conversation with actions from the rendered surface, replacing it', async () => {
    const refreshed = card('Updated');
    const { t, mock } = await setup([toolCallReply(card('Weather')), toolCallReply(refreshed, 'call_2')]);
    await ask(t, 'A weather card');
    await t.until(() => t.client.processor.getSurface('weather')?.components.has('refresh') === true, 'the first UI');
    await t.until(() => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).startsWith('Rendered'), 'the first status');
    await t.client.dispatchAction('weather', 'refresh');
    await t.until(() => t.client.processor.getSurface('weather')?.components.get('title')?.properties.text === 'Updated', 'the second UI');
    expect(t.errors).toEqual([]);
    const turn = mock.requests[1]!.body.messages.at(-1)!;
    expect(turn.role).toBe('user');
    expect(String(turn.content)).toContain('"refresh"');
    expect(String(turn.content)).toContain('{"city":"Lyon"}');
  });

  it('gives up after the configured attempts and says so', async () => {
    const { t, mock } = await setup([toolCallReply(card(1)), toolCallReply(card(2)), toolCallReply(card(3))]);
    await ask(t, 'Anything');
    await t.until(() => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).includes('did not produce a valid UI'), 'the failure');
    expect(mock.requests).toHaveLength(3);
    expect(t.surfaceIds()).toEqual([LLM_PROMPT_SURFACE_ID]);
  });

  it('reports an endpoint error in the prompt surface', async () => {
    const { t } = await setup([{ status: 401, body: '{"error":{"message":"bad key"}}' }]);
    await ask(t, 'Anything');
    await t.until(() => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).startsWith('The model call failed'), 'the error');
    expect(String(t.data(LLM_PROMPT_SURFACE_ID, '/status'))).toContain('401');
  });
});

describe('LLM configuration', () => {
  it('is off unless the base URL and the model are set', () => {
    expect(llmOptionsFromEnv({})).toBeUndefined();
    expect(llmOptionsFromEnv({ A2UI_LLM_BASE_URL: 'http://localhost:11434/v1' })).toBeUndefined();
    expect(llmOptionsFromEnv({ A2UI_LLM_BASE_URL: 'http://localhost:11434/v1', A2UI_LLM_MODEL: 'qwen2.5' })).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen2.5',
    });
    expect(llmOptionsFromEnv({ A2UI_LLM_BASE_URL: 'https://api.openai.com/v1', A2UI_LLM_MODEL: 'gpt-4.1', A2UI_LLM_API_KEY: 'sk' })?.apiKey).toBe('sk');
  });
});

describe('render_a2ui tool schema', () => {
  it('inlines the basic catalog with every reference resolvable inside the schema', () => {
    const parameters = createRenderTool().function.parameters as { $defs: Record<string, unknown> };
    const defs = parameters.$defs;
    for (const name of ['Text', 'Button', 'ChoicePicker', 'DateTimeInput', 'anyComponent', 'DynamicString', 'fn_formatString', 'ServerMessage']) {
      expect(defs, name).toHaveProperty(name);
    }
    const refs = [...JSON.stringify(parameters).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/\$defs\/[A-Za-z_]+$/);
      expect(defs, ref).toHaveProperty(ref.slice('#/$defs/'.length));
    }
  });
});
