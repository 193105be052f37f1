import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectTestClient, type TestClient } from '../../test-support/connect-test-client.js';
import {
  type MockChatModel,
  type Reply,
  startMockChatModel,
  toolCallReply,
} from '../../test-support/mock-chat-model.js';
import { createLlmAgent, LLM_PROMPT_SURFACE_ID, llmOptionsFromEnv } from './llm-agent.js';
import { createRenderTool, RENDER_TOOL_NAME } from './render-tool.js';

const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

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
        {
          id: 'refresh',
          component: 'Button',
          child: 'refresh-label',
          action: { event: { name: 'refresh', context: { city: { path: '/city' } } } },
        },
        { id: 'refresh-label', component: 'Text', text: 'Refresh' },
      ],
    },
  },
];

describe('LLM agent against a mock chat-completions endpoint', () => {
  let test: TestClient | undefined;
  let model: MockChatModel | undefined;
  beforeEach(() => {
    test = undefined;
    model = undefined;
  });
  afterEach(async () => {
    await test?.close();
    await model?.close();
  });

  async function setup(replies: Reply[]) {
    model = await startMockChatModel(replies);
    test = await connectTestClient(
      createLlmAgent({ baseUrl: model.baseUrl, model: 'mock-model', apiKey: 'sk-test' }),
    );
    const t = test;
    await t.until(
      () =>
        t.client.processor.getSurface(LLM_PROMPT_SURFACE_ID)?.components.has('prompt-button') ===
        true,
      'the prompt surface',
    );
    await t.until(() => t.data(LLM_PROMPT_SURFACE_ID, '/prompt') !== undefined, 'the prompt data');
    return { t, mock: model };
  }

  async function ask(t: TestClient, prompt: string) {
    t.client.processor.getSurface(LLM_PROMPT_SURFACE_ID)!.dataModel.set('/prompt', prompt);
    expect(await t.client.dispatchAction(LLM_PROMPT_SURFACE_ID, 'prompt-button')).toBe(true);
  }

  it('feeds VALIDATION_FAILED back to the model and renders its corrected UI', async () => {
    const { t, mock } = await setup([
      toolCallReply(card(42), 'call_bad'),
      toolCallReply(
        card({
          call: 'formatString',
          args: { value: 'Weather in ${/city}' },
          returnType: 'string',
        }),
        'call_good',
      ),
    ]);
    await ask(t, 'A weather card for Lyon');
    await t.until(
      () => t.client.processor.getSurface('weather')?.components.has('root') === true,
      'the generated surface',
    );
    await t.until(
      () => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).startsWith('Rendered'),
      'the final status',
    );
    expect(t.data(LLM_PROMPT_SURFACE_ID, '/status')).toBe(
      'Rendered 3 messages from mock-model after 1 correction.',
    );
    expect(t.errors).toEqual([]);

    expect(mock.requests).toHaveLength(2);
    const [first, second] = mock.requests;
    expect(first!.url).toBe('/v1/chat/completions');
    expect(first!.headers.authorization).toBe('Bearer sk-test');
    expect(first!.body.model).toBe('mock-model');
    expect(first!.body.stream).toBe(true);
    expect(first!.body.tools[0]!.function.name).toBe(RENDER_TOOL_NAME);
    expect(first!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: 'A weather card for Lyon',
    });

    const feedback = second!.body.messages.at(-1)!;
    expect(feedback.role).toBe('tool');
    expect(feedback.tool_call_id).toBe('call_bad');
    const { errors } = JSON.parse(String(feedback.content)) as {
      errors: Array<Record<string, string>>;
    };
    expect(errors[0]).toMatchObject({
      code: 'VALIDATION_FAILED',
      surfaceId: 'weather',
      path: '/messages/2/updateComponents/components/1/text',
    });
    expect(second!.body.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_bad' }],
    });
  });

  it('continues the conversation with actions from the rendered surface, replacing it', async () => {
    const refreshed = card('Updated');
    const { t, mock } = await setup([
      toolCallReply(card('Weather')),
      toolCallReply(refreshed, 'call_2'),
    ]);
    await ask(t, 'A weather card');
    await t.until(
      () => t.client.processor.getSurface('weather')?.components.has('refresh') === true,
      'the first UI',
    );
    await t.until(
      () => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).startsWith('Rendered'),
      'the first status',
    );
    await t.client.dispatchAction('weather', 'refresh');
    await t.until(
      () =>
        t.client.processor.getSurface('weather')?.components.get('title')?.properties.text ===
        'Updated',
      'the second UI',
    );
    expect(t.errors).toEqual([]);
    const turn = mock.requests[1]!.body.messages.at(-1)!;
    expect(turn.role).toBe('user');
    expect(String(turn.content)).toContain('"refresh"');
    expect(String(turn.content)).toContain('{"city":"Lyon"}');
  });

  it('sends errors the client reports about its UI back to the model', async () => {
    const { t, mock } = await setup([
      toolCallReply(card('Weather')),
      toolCallReply(card('Fixed'), 'call_2'),
    ]);
    await ask(t, 'A weather card');
    await t.until(
      () => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).startsWith('Rendered'),
      'the first UI',
    );
    await t.client.send({
      version: 'v0.9',
      error: { code: 'EXPRESSION_ERROR', surfaceId: 'weather', message: 'Function not found: foo' },
    });
    await t.until(
      () =>
        t.client.processor.getSurface('weather')?.components.get('title')?.properties.text ===
        'Fixed',
      'the fixed UI',
    );
    expect(String(mock.requests[1]!.body.messages.at(-1)!.content)).toContain(
      'Function not found: foo',
    );
    // Errors about surfaces the model did not render are not its business.
    await t.client.send({
      version: 'v0.9',
      error: { code: 'EXPRESSION_ERROR', surfaceId: LLM_PROMPT_SURFACE_ID, message: 'x' },
    });
    await t.client.send({
      version: 'v0.9',
      error: { code: 'EXPRESSION_ERROR', surfaceId: 'weather', message: 'again' },
    });
    await expect.poll(() => mock.requests.length).toBe(3);
    expect(String(mock.requests[2]!.body.messages.at(-1)!.content)).toContain('again');
  });

  it('gives up after the configured attempts and says so', async () => {
    const { t, mock } = await setup([
      toolCallReply(card(1)),
      toolCallReply(card(2)),
      toolCallReply(card(3)),
    ]);
    await ask(t, 'Anything');
    await t.until(
      () => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).includes('did not produce a valid UI'),
      'the failure',
    );
    expect(mock.requests).toHaveLength(3);
    expect(t.surfaceIds()).toEqual([LLM_PROMPT_SURFACE_ID]);
  });

  it('reports an endpoint error in the prompt surface', async () => {
    const { t } = await setup([{ status: 401, body: '{"error":{"message":"bad key"}}' }]);
    await ask(t, 'Anything');
    await t.until(
      () => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).startsWith('The model call failed'),
      'the error',
    );
    expect(String(t.data(LLM_PROMPT_SURFACE_ID, '/status'))).toContain('401');
  });
});

describe('LLM configuration', () => {
  it('is off unless the base URL and the model are set', () => {
    expect(llmOptionsFromEnv({})).toBeUndefined();
    expect(llmOptionsFromEnv({ A2UI_LLM_BASE_URL: 'http://localhost:11434/v1' })).toBeUndefined();
    expect(
      llmOptionsFromEnv({
        A2UI_LLM_BASE_URL: 'http://localhost:11434/v1',
        A2UI_LLM_MODEL: 'qwen2.5',
      }),
    ).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen2.5',
    });
    expect(
      llmOptionsFromEnv({
        A2UI_LLM_BASE_URL: 'https://api.openai.com/v1',
        A2UI_LLM_MODEL: 'gpt-4.1',
        A2UI_LLM_API_KEY: 'sk',
      })?.apiKey,
    ).toBe('sk');
  });
});

describe('render_a2ui tool schema', () => {
  it('inlines the basic catalog with every reference resolvable inside the schema', () => {
    const parameters = createRenderTool().function.parameters as { $defs: Record<string, unknown> };
    const defs = parameters.$defs;
    for (const name of [
      'Text',
      'Button',
      'ChoicePicker',
      'DateTimeInput',
      'anyComponent',
      'DynamicString',
      'fn_formatString',
      'ServerMessage',
    ]) {
      expect(defs, name).toHaveProperty(name);
    }
    const refs = [...JSON.stringify(parameters).matchAll(/"\$ref":"([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/\$defs\/[A-Za-z_]+$/);
      expect(defs, ref).toHaveProperty(ref.slice('#/$defs/'.length));
    }
  });
});
