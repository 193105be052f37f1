/**
 * The A2A transport of the demo in Chromium: the page links the agent's A2A card, which is served
 * at the well-known path of the agent's mount and declares the A2UI extension of each version.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DemoHarness, restaurantTestAgent, startHarness } from './demo-harness.js';

let harness: DemoHarness;

beforeAll(async () => {
  harness = await startHarness({
    agents: [restaurantTestAgent()],
  });
});
afterAll(async () => {
  await harness?.close();
});

it('links the A2A agent card, which declares the A2UI extension at the mount’s URL', async () => {
  const { page, pageErrors } = await harness.open('/?agent=restaurant&transport=a2a');
  const link = page.getByTestId('agent-card-link');
  await link.waitFor();
  const href = await link.getAttribute('href');
  expect(href).toBe('/a2ui/restaurant/a2a/.well-known/agent-card.json');
  const card = await (
    await fetch(`${harness.server.url}${href}`, { headers: { 'A2A-Version': '1.0' } })
  ).json();
  expect(card.supportedInterfaces[0]).toMatchObject({
    url: `${harness.server.url}/a2ui/restaurant/a2a`,
    protocolVersion: '1.0',
  });
  // One extension per A2UI version the agent speaks, in its preference: the restaurant agent is
  // written in v0.9, so v0.9 first (the demo's Auto keeps its headings), then the rest.
  expect(card.capabilities.extensions.map((extension: { uri: string }) => extension.uri)).toEqual(
    ['v0.9', 'v0.9.1', 'v1.0', 'v0.8'].map(
      (version) => `https://a2ui.org/a2a-extension/a2ui/${version}`,
    ),
  );
  await page.getByTestId('surface-booking-search').waitFor();
  await page.getByTestId('transport-picker').selectOption('sse-jsonrpc');
  await link.waitFor({ state: 'detached' });
  expect(pageErrors).toEqual([]);
  await page.close();
});
