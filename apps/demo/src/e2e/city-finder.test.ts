/**
 * The A2UI v1.0 function-call example in Chromium, both directions over every transport that
 * carries v1.0: the agent asks the page for its locale (`callRendererFunction`), and the page
 * asks the agent for suggestions as the user types (`callAgentFunction`). With the version
 * switch on v0.9 the agent says the example needs v1.0, and no function call travels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCityFinderAgent, suggestCities } from '../agents/city-finder-agent.js';
import { SERVER_TRANSPORTS } from '../server/transports.js';
import { type DemoHarness, inspectorCounts, startHarness } from './demo-harness.js';

// AG-UI carries v0.9 surfaces only, and the MCP binding negotiates no A2UI version (yet).
const V10_TRANSPORTS = SERVER_TRANSPORTS.map((transport) => transport.id).filter(
  (id) => !id.startsWith('agui') && id !== 'mcp',
);

describe('city finder (A2UI v1.0 function calls) in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({
      agents: [
        {
          id: 'city-finder',
          label: 'City finder',
          description: 'v1.0 function calls.',
          agent: createCityFinderAgent(),
        },
      ],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(V10_TRANSPORTS)(
    'asks the page for its locale and the agent for suggestions as the user types, over %s',
    async (transportId) => {
      const { page, pageErrors } = await harness.open(
        `/?agent=city-finder&transport=${transportId}`,
      );
      await page
        .getByTestId('protocol-version')
        .and(page.locator('[data-version="v1.0"]'))
        .waitFor();
      const finder = page.getByTestId('surface-city-finder');
      expect(await finder.getAttribute('data-a2ui-version')).toBe('v1.0');
      const surface = finder.locator('.a2ui-surface');
      await surface.getByRole('heading', { name: 'Find a city' }).waitFor();
      // The agent's callRendererFunction: the page answered with the browser's locale.
      const locale = await page.evaluate(() => navigator.language);
      const region = new Intl.Locale(locale).maximize().region;
      await surface
        .getByText(`Your locale is ${locale}: cities in ${region} come first.`)
        .waitFor();
      // The page's callAgentFunction, as the user types.
      await surface.getByLabel('City').pressSequentially('Li');
      await surface.getByText('Lille', { exact: true }).waitFor();
      const names = async () =>
        (await surface.locator('[data-a2ui-id="suggestion"]').allTextContents()).map((text) =>
          text.trim(),
        );
      await expect.poll(names).toEqual(suggestCities('Li', region).map((city) => city.name));
      expect(await names()).toContain('Lisbon');
      await surface.getByLabel('City').fill('Mál');
      await expect.poll(names).toEqual(['Málaga']);
      await harness.screenshot(
        page,
        transportId === 'sse-jsonrpc' ? 'city-finder' : `city-finder-${transportId}`,
      );
      expect((await inspectorCounts(page)).errors).toBe(0);
      expect(pageErrors).toEqual([]);
      await page.close();
    },
  );

  it('says it needs v1.0 when the page offers v0.9 only, and calls nothing', async () => {
    const { page, pageErrors } = await harness.open(
      '/?agent=city-finder&transport=sse-jsonrpc&version=v0.9',
    );
    await page.getByTestId('protocol-version').and(page.locator('[data-version="v0.9"]')).waitFor();
    const surface = page.getByTestId('surface-city-finder').locator('.a2ui-surface');
    await surface.getByText(/only A2UI v1\.0 carries/).waitFor();
    expect(await page.getByTestId('version-picker').inputValue()).toBe('v0.9');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
