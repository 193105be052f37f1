/**
 * The demo's LLM agent in Chromium, configured from the environment against a local mock of a
 * streaming OpenAI-compatible endpoint: prompt → an app tool call → a card that builds while the
 * tool call streams → a click → the model's next turn; and a rejected render that never reaches
 * the browser while the model corrects it.
 */
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoAgents } from '../agents/create-demo-agents.js';
import { LLM_PROMPT_SURFACE_ID } from '../agents/llm/llm-agent.js';
import {
  type MockChatModel,
  renderReply,
  startMockChatModel,
  toolReply,
} from '../test-support/mock-chat-model.js';
import { type DemoHarness, inspectorCounts, startHarness } from './demo-harness.js';

const v = 'v0.9' as const;
const CHUNK = 20;

const card = (surfaceId: string, title: unknown) => [
  { version: v, createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID } },
  { version: v, updateDataModel: { surfaceId, value: { id: 'le-petit-lyon', status: '' } } },
  {
    version: v,
    updateComponents: {
      surfaceId,
      components: [
        { id: 'root', component: 'Card', child: 'column' },
        { id: 'column', component: 'Column', children: ['name', 'blurb', 'book', 'status'] },
        { id: 'name', component: 'Text', text: title, variant: 'h1' },
        {
          id: 'blurb',
          component: 'Text',
          text: 'Bouchon classics, quenelles and a long wine list.',
        },
        {
          id: 'book',
          component: 'Button',
          child: 'book-label',
          variant: 'primary',
          action: { event: { name: 'book', context: { restaurantId: { path: '/id' } } } },
        },
        { id: 'book-label', component: 'Text', text: 'Book' },
        { id: 'status', component: 'Text', text: { path: '/status' } },
      ],
    },
  },
];

/** Index of the first streamed event after the argument text up to and including `marker`. */
function eventAfter(messages: unknown[], marker: string): number {
  const args = JSON.stringify({ messages });
  const end = args.indexOf(marker) + marker.length;
  // Event 0 opens the assistant message, event 1 the tool call; arguments follow, CHUNK each.
  return 2 + Math.ceil(end / CHUNK);
}

describe('LLM agent in Chromium', () => {
  let harness: DemoHarness;
  let model: MockChatModel;

  beforeAll(async () => {
    model = await startMockChatModel();
    const llm = createDemoAgents({ env: model.env }).find((agent) => agent.id === 'llm')!;
    harness = await startHarness({ agents: [llm] });
  });
  afterAll(async () => {
    await harness?.close();
    await model?.close();
  });

  it('streams a card from a tool result, then answers the click in its next turn', async () => {
    const streamed = card('lyon', 'Le Petit Lyon');
    const released = createDeferred();
    model.server.reply(
      toolReply('findRestaurants', { city: 'Lyon' }, 'Looking up Lyon.'),
      renderReply(streamed, {
        chunkSize: CHUNK,
        // Hold the stream right after the title until the browser has shown it.
        pause: { afterEvents: eventAfter(streamed, '"variant":"h1"}'), until: released.promise },
      }),
      renderReply([
        {
          version: v,
          updateDataModel: { surfaceId: 'lyon', path: '/status', value: 'Booked for tonight.' },
        },
      ]),
    );
    const { page, pageErrors } = await harness.open('/?agent=llm');
    const prompt = page.getByTestId(`surface-${LLM_PROMPT_SURFACE_ID}`).locator('.a2ui-surface');
    await prompt.getByLabel('What should the model build?').fill('Dinner in Lyon tonight');
    await prompt.getByRole('button', { name: 'Generate' }).click();

    const surface = page.getByTestId('surface-lyon');
    await surface.getByRole('heading', { name: 'Le Petit Lyon' }).waitFor();
    // The card is building: its title is on screen while the rest of the tool call is unwritten.
    expect(await surface.getByRole('button', { name: 'Book' }).count()).toBe(0);
    await harness.screenshot(page, 'llm-streaming');
    released.resolve();

    await surface.getByRole('button', { name: 'Book' }).click();
    await surface.getByText('Booked for tonight.').waitFor();
    await prompt.getByText('mock-model rendered "lyon".').waitFor();
    await harness.screenshot(page, 'llm-booked');

    const [first, second, third, fourth] = model.server.requests;
    expect(first!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Dinner in Lyon tonight',
    });
    expect(JSON.stringify(second!.body.messages)).toContain('Le Petit Lyon');
    expect(third!.body.messages.at(-1).content).toContain('"a2uiAction"');
    expect(fourth).toBeUndefined();
    expect(JSON.parse(third!.body.messages.at(-1).content.split('\n')[1]).a2uiAction).toMatchObject(
      {
        name: 'book',
        surfaceId: 'lyon',
        context: { restaurantId: 'le-petit-lyon' },
      },
    );
    expect((await inspectorCounts(page)).errors).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('renders only the corrected UI after feeding VALIDATION_FAILED back', async () => {
    const before = model.server.requests.length;
    model.server.reply(
      renderReply(card('greeting', { path: 42 })),
      renderReply(card('greeting', { call: 'formatString', args: { value: 'Hello, ${/id}!' } })),
    );
    const { page, pageErrors } = await harness.open('/?agent=llm');
    const prompt = page.getByTestId(`surface-${LLM_PROMPT_SURFACE_ID}`).locator('.a2ui-surface');
    await prompt.getByLabel('What should the model build?').fill('Greet me');
    await prompt.getByRole('button', { name: 'Generate' }).click();
    await page
      .getByTestId('surface-greeting')
      .getByRole('heading', { name: 'Hello, le-petit-lyon!' })
      .waitFor();
    await prompt.getByText('mock-model rendered "greeting" after 1 correction.').waitFor();
    await harness.screenshot(page, 'llm-corrected');

    const retry = model.server.requests[before + 1]!.body.messages;
    expect(JSON.stringify(retry.at(-1))).toContain(
      '/messages/2/updateComponents/components/2/text',
    );
    // The rejected component never reached the browser: nothing the client had to refuse.
    expect((await inspectorCounts(page)).errors).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
