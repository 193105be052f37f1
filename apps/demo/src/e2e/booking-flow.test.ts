/**
 * The restaurant booking flow end to end: real server, real Chromium, over every transport the
 * demo offers (a transport added to `SERVER_TRANSPORTS` is tested here without a new line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualScheduler } from '../agents/scheduler.js';
import { SERVER_TRANSPORTS } from '../server/transports.js';
import { runBookingFlow } from './booking-flow-run.js';
import { type DemoHarness, restaurantTestAgent, startHarness } from './demo-harness.js';

describe('booking flow in Chromium', () => {
  let harness: DemoHarness;
  const scheduler = createManualScheduler();

  beforeAll(async () => {
    harness = await startHarness({
      agents: [restaurantTestAgent(scheduler)],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(SERVER_TRANSPORTS.map((transport) => transport.id))(
    'searches, books with checks enforced, and confirms what was typed, over %s (v0.9)',
    // MCP does not negotiate an A2UI version yet: the page cannot ask it for one, and the
    // agent's own (v0.9) is what it gets.
    (transportId) =>
      runBookingFlow(harness, scheduler, transportId, transportId === 'mcp' ? 'auto' : 'v0.9'),
  );

  it('stays usable on a narrow window', async () => {
    const { page, pageErrors } = await harness.open('/?agent=restaurant', {
      width: 390,
      height: 844,
    });
    const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
    await search.getByRole('heading', { name: 'Find a table' }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The top bar: the brand and the theme toggle on one row, the pickers full width below.
    const box = async (locator: ReturnType<typeof page.locator>) => (await locator.boundingBox())!;
    const brand = await box(page.locator('.brand'));
    const toggle = await box(page.getByRole('button', { name: /Switch to (dark|light) theme/ }));
    const agentPicker = await box(page.getByTestId('agent-picker'));
    const transportPicker = await box(page.getByTestId('transport-picker'));
    expect(toggle.y).toBeLessThan(brand.y + brand.height);
    expect(toggle.y + toggle.height).toBeGreaterThan(brand.y);
    expect(toggle.x).toBeGreaterThan(brand.x + brand.width);
    for (const picker of [agentPicker, transportPicker]) {
      expect(picker.y).toBeGreaterThanOrEqual(brand.y + brand.height);
      expect(picker.width).toBeGreaterThan(390 - 2 * 12 - 2);
    }
    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
    await harness.screenshot(page, 'booking-narrow-dark');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
