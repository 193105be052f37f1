import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTestClient, type TestClient } from '../../test-support/connect-test-client.js';
import {
  type MockChatModel,
  renderReply,
  startMockChatModel,
  toolReply,
} from '../../test-support/mock-chat-model.js';
import { createDemoAgents, describeUnavailableAgents } from '../create-demo-agents.js';
import { LLM_PROMPT_SURFACE_ID } from './llm-agent.js';
import { MAX_SEARCH_RESULTS, restaurantTools } from './restaurant-tools.js';

const v = 'v0.9' as const;

/** The card the mock model renders from the search result: one restaurant with a Book button. */
const resultsCard = [
  { version: v, createSurface: { surfaceId: 'results', catalogId: BASIC_CATALOG_ID } },
  {
    version: v,
    updateDataModel: {
      surfaceId: 'results',
      value: { name: 'Le Petit Lyon', id: 'le-petit-lyon' },
    },
  },
  {
    version: v,
    updateComponents: {
      surfaceId: 'results',
      components: [
        { id: 'root', component: 'Card', child: 'column' },
        { id: 'column', component: 'Column', children: ['name', 'book'] },
        { id: 'name', component: 'Text', text: { path: '/name' }, variant: 'h3' },
        {
          id: 'book',
          component: 'Button',
          child: 'book-label',
          action: { event: { name: 'book', context: { restaurantId: { path: '/id' } } } },
        },
        { id: 'book-label', component: 'Text', text: 'Book' },
      ],
    },
  },
];

describe('the demo LLM agent', () => {
  let mock: MockChatModel | undefined;
  let test: TestClient | undefined;
  afterEach(async () => {
    await test?.close();
    await mock?.close();
  });

  it('is listed with its provider and model, searches the restaurants and answers actions', async () => {
    mock = await startMockChatModel([
      toolReply('findRestaurants', { city: 'Lyon' }, 'Searching Lyon.'),
      renderReply(resultsCard),
      renderReply([
        {
          version: v,
          updateDataModel: { surfaceId: 'results', path: '/name', value: 'Booked: Le Petit Lyon' },
        },
      ]),
    ]);
    const llm = createDemoAgents({ env: mock.env }).find((agent) => agent.id === 'llm')!;
    expect(llm.label).toBe('LLM (mock-model)');
    expect(llm.description).toContain('via openai-compatible at 127.0.0.1:');
    const t = await connectTestClient(llm.agent);
    test = t;
    await t.until(
      () =>
        t.client.processor.getSurface(LLM_PROMPT_SURFACE_ID)?.components.has('agent-submit') ===
        true,
      'the prompt box',
    );
    t.client.processor
      .getSurface(LLM_PROMPT_SURFACE_ID)!
      .dataModel.set('/prompt', 'Dinner in Lyon');
    await t.client.dispatchAction(LLM_PROMPT_SURFACE_ID, 'agent-submit');
    await t.until(
      () => t.client.processor.getSurface('results')?.components.has('book-label') === true,
      'the card',
    );
    await t.until(
      () => String(t.data(LLM_PROMPT_SURFACE_ID, '/status')).endsWith('rendered "results".'),
      'the status',
    );

    const [first, second] = mock.server.requests;
    expect(first!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Dinner in Lyon' });
    expect(first!.body.messages[0].content).toContain('call findRestaurants first');
    const result = second!.body.messages.find(
      (message: { role: string }) => message.role === 'tool',
    );
    expect(result.content).toContain('Le Petit Lyon');

    await t.client.dispatchAction('results', 'book');
    await t.until(() => t.data('results', '/name') === 'Booked: Le Petit Lyon', 'the booking');
    expect(JSON.stringify(mock.server.requests[2]!.body.messages.at(-1))).toContain(
      '\\"restaurantId\\":\\"le-petit-lyon\\"',
    );
    expect(t.errors).toEqual([]);
  });

  it('searches by city, cuisine and party size, capped', async () => {
    const execute = restaurantTools.findRestaurants.execute!;
    const options = { toolCallId: 't', messages: [] };
    const lyon = (await execute({ city: 'lyon' }, options)) as {
      total: number;
      restaurants: Array<{ city: string }>;
    };
    expect(lyon.total).toBeGreaterThan(0);
    expect(lyon.restaurants.every((restaurant) => restaurant.city === 'Lyon')).toBe(true);
    const big = (await execute({ partySize: 99 }, options)) as { total: number };
    expect(big.total).toBe(0);
    const all = (await execute({}, options)) as { restaurants: unknown[] };
    expect(all.restaurants.length).toBeLessThanOrEqual(MAX_SEARCH_RESULTS);
  });

  it('is listed as unavailable, with the reason, when the configuration is unusable', () => {
    expect(
      describeUnavailableAgents({ A2UI_LLM_PROVIDER: 'anthropic', A2UI_LLM_MODEL: 'claude' }),
    ).toEqual([
      {
        id: 'llm',
        label: 'LLM (misconfigured)',
        description:
          'The anthropic provider needs an API key: set A2UI_LLM_API_KEY (or ANTHROPIC_API_KEY). See “The LLM agent” in apps/demo/README.md.',
      },
    ]);
    expect(
      createDemoAgents({ env: { A2UI_LLM_PROVIDER: 'skynet', A2UI_LLM_MODEL: 'x' } }).map(
        (agent) => agent.id,
      ),
    ).toEqual(['restaurant', 'gallery', 'time-zone', 'city-finder', 'todos', 'mcp-app']);
  });
});
