/**
 * `?agent=` and `?transport=` that cannot be honoured are said so on the page, never silently
 * replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGalleryAgent } from '../agents/gallery-agent.js';
import { createRestaurantAgent } from '../agents/restaurant-agent.js';
import { createManualScheduler } from '../agents/scheduler.js';
import { type DemoHarness, startHarness } from './demo-harness.js';

describe('page parameters in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({
      agents: [
        {
          id: 'restaurant',
          label: 'Restaurant booking',
          description: 'Booking flow.',
          agent: createRestaurantAgent({ scheduler: createManualScheduler() }),
        },
        {
          id: 'gallery',
          label: 'Example gallery',
          description: 'Every example.',
          agent: createGalleryAgent({ defaultDelayMs: 0 }),
        },
      ],
      unavailableAgents: [
        { id: 'llm', label: 'LLM (not configured)', description: 'Set A2UI_LLM_BASE_URL.' },
      ],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('says when the agent does not exist, and which one it shows instead', async () => {
    const { page, pageErrors } = await harness.open('/?agent=weather&transport=sse-jsonrpc');
    await page.getByTestId('surface-booking-search').waitFor();
    const notice = page.getByTestId('selection-notice');
    expect(await notice.textContent()).toContain(
      'There is no agent “weather” (available: Restaurant booking, Example gallery); showing Restaurant booking instead.',
    );
    expect(new URL(page.url()).searchParams.get('agent')).toBe('restaurant');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('says when the agent is not available, and why', async () => {
    const { page, pageErrors } = await harness.open('/?agent=llm');
    await page.getByTestId('surface-booking-search').waitFor();
    expect(await page.getByTestId('selection-notice').textContent()).toContain(
      'The agent “LLM (not configured)” is not available (Set A2UI_LLM_BASE_URL.); showing Restaurant booking instead.',
    );
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('says when the transport does not exist', async () => {
    const { page, pageErrors } = await harness.open('/?agent=gallery&transport=carrier-pigeon');
    await page.getByTestId('surface-gallery-controls').waitFor();
    expect(await page.getByTestId('selection-notice').textContent()).toMatch(
      /^There is no transport “carrier-pigeon” \(available: .+\); showing .+ instead\./,
    );
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('shows no notice for a valid choice or none at all', async () => {
    for (const path of ['/?agent=gallery&transport=sse-jsonrpc', '/']) {
      const { page } = await harness.open(path);
      await page.locator('[data-a2ui-surface]').first().waitFor();
      expect(await page.getByTestId('selection-notice').count()).toBe(0);
      await page.close();
    }
  });
});
