/**
 * The client against a stock `@a2a-js/sdk` server whose executor emits A2UI as the official
 * restaurant-finder sample does (`test/restaurant-finder.ts`): A2A v0.3 and v1.0, either MIME
 * spelling, streaming and blocking, the whole search → book → confirm flow.
 */
import { A2uiClient } from '@a2ui-ts/core';
import { waitForClient } from '@a2ui-ts/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FAST_RECONNECT } from '../../test/harness.js';
import { type RestaurantFinder, startRestaurantFinder } from '../../test/restaurant-finder.js';
import { A2UI_MIME_TYPE_ALIAS } from '../protocol/a2ui-extension.js';
import { connectA2a } from './connect-a2a.js';

let agent: RestaurantFinder | undefined;
let client: A2uiClient | undefined;
afterEach(async () => {
  await client?.close();
  await agent?.close();
  client = undefined;
  agent = undefined;
});

const variants = [
  { name: 'A2A v0.3, application/json+a2ui, streaming', options: {} },
  {
    name: 'A2A v1.0, application/a2ui+json, streaming',
    options: { protocolVersion: '1.0' as const, mimeType: A2UI_MIME_TYPE_ALIAS },
  },
  {
    name: 'A2A v0.3, blocking (no streaming): parts found in the task history',
    options: { streaming: false },
  },
];

describe('our client against a restaurant-finder-like @a2a-js/sdk agent', () => {
  for (const variant of variants) {
    it(`searches, books and confirms (${variant.name})`, async () => {
      agent = await startRestaurantFinder(variant.options);
      const texts: string[] = [];
      const transport = connectA2a({
        url: agent.url,
        open: { text: 'Top 5 Chinese restaurants in New York' },
        reconnect: FAST_RECONNECT,
        onText: (text) => texts.push(text),
      });
      client = new A2uiClient({ transport });
      const errors: string[] = [];
      client.processor.onError((error) => errors.push(error.message));
      void client.connect().catch(() => {});
      await waitForClient(
        client,
        () => client!.processor.getSurface('default')?.dataModel.get('/items/1/name') !== undefined,
        'the list',
      );
      expect(transport.protocolVersion).toBe(variant.options.protocolVersion ?? '0.3');
      expect(agent.queries).toEqual(['Top 5 Chinese restaurants in New York']);
      expect(texts).toContain('Working on it…');

      await client.dispatchAction('default', 'template-book-button', { scope: '/items/1' });
      await waitForClient(
        client,
        () => client!.processor.getSurface('booking-form') !== undefined,
        'the booking form',
      );
      expect(agent.actions).toMatchObject([
        { name: 'book_restaurant', context: { restaurantName: 'Han Dynasty' } },
      ]);

      client.processor.getSurface('booking-form')!.dataModel.set('/partySize', '4');
      await client.dispatchAction('booking-form', 'submit');
      await waitForClient(
        client,
        () => client!.processor.getSurface('confirmation') !== undefined,
        'the confirmation',
      );
      expect(client.processor.getSurface('confirmation')!.dataModel.get('/text')).toBe(
        'Booked for 4',
      );
      expect(client.processor.getSurface('booking-form')).toBeUndefined();
      expect(agent.actions[1]).toMatchObject({
        name: 'submit_booking',
        context: { partySize: '4' },
      });
      // `completed` ends the task, not the conversation: the client stays open for a new task.
      expect(transport.taskId).toBeUndefined();
      expect(client.status).toBe('open');
      expect(errors).toEqual([]);
    });
  }

  it('refuses an agent whose card does not declare the A2UI extension', async () => {
    agent = await startRestaurantFinder();
    const transport = connectA2a({
      url: agent.url,
      reconnect: FAST_RECONNECT,
      card: {
        name: 'plain',
        description: 'no UI',
        version: '1',
        supportedInterfaces: [
          { url: `${agent.url}/`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
        ],
        capabilities: { streaming: true, extensions: [] },
      } as never,
    });
    client = new A2uiClient({ transport });
    await expect(client.connect()).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
    expect(client.status).toBe('closed');
  });
});
