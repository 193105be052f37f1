/**
 * The LLM agent in Chromium, against a local mock of a streaming chat-completions endpoint: the
 * first tool call is invalid, core rejects it, the model corrects it, and only the valid UI renders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmAgent, LLM_PROMPT_SURFACE_ID } from '../agents/llm/llm-agent.js';
import {
  type MockChatModel,
  startMockChatModel,
  toolCallReply,
} from '../test-support/mock-chat-model.js';
import { type DemoHarness, inspectorCounts, startHarness } from './demo-harness.js';

const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

const ui = (title: unknown) => [
  { version: 'v0.9', createSurface: { surfaceId: 'greeting', catalogId: BASIC } },
  { version: 'v0.9', updateDataModel: { surfaceId: 'greeting', value: { name: 'Ada' } } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'greeting',
      components: [
        { id: 'root', component: 'Card', child: 'title' },
        { id: 'title', component: 'Text', text: title, variant: 'h2' },
      ],
    },
  },
];

describe('LLM agent in Chromium', () => {
  let harness: DemoHarness;
  let model: MockChatModel;

  beforeAll(async () => {
    model = await startMockChatModel([
      toolCallReply(ui({ path: 42 })),
      toolCallReply(
        ui({ call: 'formatString', args: { value: 'Hello, ${/name}!' }, returnType: 'string' }),
        'call_2',
      ),
    ]);
    harness = await startHarness({
      agents: [
        {
          id: 'llm',
          label: 'LLM (mock)',
          description: 'Mock model.',
          agent: createLlmAgent({ baseUrl: model.baseUrl, model: 'mock-model' }),
        },
      ],
    });
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
  });

  it('renders only the corrected UI after feeding VALIDATION_FAILED back', async () => {
    const { page, pageErrors } = await harness.open('/?agent=llm');
    const prompt = page.getByTestId(`surface-${LLM_PROMPT_SURFACE_ID}`).locator('.a2ui-surface');
    await prompt.getByLabel('What should the model build?').fill('Greet Ada');
    await prompt.getByRole('button', { name: 'Generate' }).click();
    await page
      .getByTestId('surface-greeting')
      .getByRole('heading', { name: 'Hello, Ada!' })
      .waitFor();
    await prompt.getByText('Rendered 3 messages from mock-model after 1 correction.').waitFor();
    await harness.screenshot(page, 'llm-corrected');

    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.body.messages.at(-1))).toContain('VALIDATION_FAILED');
    // The rejected attempt never reached the browser.
    expect((await inspectorCounts(page)).errors).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
