/**
 * The restaurant booking flow end to end: real server, real Chromium, over every transport the
 * demo offers (a transport added to `SERVER_TRANSPORTS` is tested here without a new line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualScheduler } from '../agents/scheduler.js';
import { SERVER_TRANSPORTS } from '../server/transports.js';
import {
  type DemoHarness,
  inspectorCounts,
  type LogRecord,
  restaurantTestAgent,
  startHarness,
} from './demo-harness.js';

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
    'searches, books with checks enforced, and confirms what was typed, over %s',
    async (transportId) => {
      const shot = (name: string) =>
        transportId === 'sse-jsonrpc' ? name : `${name}-${transportId}`;
      const ofThisRun = (record: LogRecord) => record.transport === transportId;
      const { page, pageErrors } = await harness.open(
        `/?agent=restaurant&transport=${transportId}`,
      );
      const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
      await search.getByRole('heading', { name: 'Find a table' }).waitFor();

      // Invalid input: the check message shows and the button stays disabled.
      const findTables = search.getByRole('button', { name: 'Find tables' });
      await search.getByLabel('City or restaurant').fill('L');
      await search.getByText('Use at least 2 characters.').waitFor();
      expect(await findTables.isDisabled()).toBe(true);
      await search.getByLabel('City or restaurant').fill('Lyon');
      await search.getByText('Use at least 2 characters.').waitFor({ state: 'hidden' });
      expect(await findTables.isDisabled()).toBe(true); // the date is still missing

      const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
      await search.getByLabel('Date').fill(date);
      await search.getByText('French', { exact: true }).click();
      const party = search.getByRole('slider');
      await party.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => party.inputValue()).toBe('4');
      await harness.screenshot(page, shot('booking-1-search'));
      await findTables.click();

      const results = page.getByTestId('surface-booking-results').locator('.a2ui-surface');
      await results.getByText('3 restaurants for 4 in “Lyon”').waitFor();
      await results.getByText('5 tables left').waitFor();
      // A live push from the agent: someone else takes a table at the second restaurant.
      scheduler.tick();
      await results.getByText('4 tables left').waitFor();
      // The fully booked restaurant cannot be booked.
      expect(
        await results.getByRole('button', { name: 'Book Le Bouchon Fermé' }).isDisabled(),
      ).toBe(true);
      await harness.screenshot(page, shot('booking-2-results'));
      await results.getByRole('button', { name: 'Book Le Petit Lyon' }).click();

      const form = page.getByTestId('surface-booking-form').locator('.a2ui-surface');
      await form.getByRole('heading', { name: 'Book Le Petit Lyon' }).waitFor();
      await search.waitFor({ state: 'detached' });
      await results.waitFor({ state: 'detached' });
      const confirm = form.getByRole('button', { name: 'Confirm booking' });
      await form.getByLabel('Full name').fill('A');
      await form.getByLabel('Email').fill('ada@');
      await form.getByText('Use at least 2 characters.').waitFor();
      await form.getByText('Enter a valid email address.').waitFor();
      expect(await confirm.isDisabled()).toBe(true);
      await harness.screenshot(page, shot('booking-3-form-invalid'));

      await form.getByLabel('Full name').fill('Ada Lovelace');
      await form.getByLabel('Email').fill('ada@example.com');
      await form.getByText('19:30', { exact: true }).click();
      await form.getByLabel('Special requests (optional)').fill('Window seat please');
      expect(await confirm.isDisabled()).toBe(true); // the policy is not accepted yet
      await form.getByLabel('I accept the cancellation policy').check();
      await page.waitForFunction(() => {
        const button = [...document.querySelectorAll('button')].find(
          (element) => element.textContent === 'Confirm booking',
        );
        return button !== undefined && !button.disabled;
      });
      await harness.screenshot(page, shot('booking-4-form-valid'));
      const actionsBefore = harness.logs.filter(
        (record) => record.event === 'action' && record.name === 'book' && ofThisRun(record),
      ).length;
      expect(actionsBefore).toBe(0);
      await confirm.click();

      const confirmation = page
        .getByTestId('surface-booking-confirmation')
        .locator('.a2ui-surface');
      await confirmation.getByRole('heading', { name: 'You’re booked!' }).waitFor();
      await confirmation.getByText('Table for 4 at Le Petit Lyon, Lyon').waitFor();
      await confirmation.getByText('Booked for Ada Lovelace (ada@example.com)').waitFor();
      await confirmation.getByText('Requests: Window seat please').waitFor();
      await confirmation.getByText(/ at 19:30$/).waitFor();
      await form.waitFor({ state: 'detached' });
      await harness.screenshot(page, shot('booking-5-confirmation'));

      const bookActions = harness.logs.filter(
        (record) => record.event === 'action' && record.name === 'book' && ofThisRun(record),
      );
      expect(bookActions).toHaveLength(1);
      const [book] = bookActions;
      expect(book!.surfaceId).toBe('booking-form');
      expect(book!.sourceComponentId).toBe('form-submit');
      expect(book!.context).toEqual({
        restaurantId: 'le-petit-lyon',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        date: expect.stringMatching(new RegExp(`^${date}`)),
        time: ['19:30'],
        partySize: 4,
      });
      expect(book!.dataModel).toEqual({
        'booking-form': {
          restaurant: { id: 'le-petit-lyon', name: 'Le Petit Lyon', tablesLeft: 4 }, // after the live push above
          booking: {
            date: expect.stringMatching(new RegExp(`^${date}`)),
            partySize: 4,
            time: ['19:30'],
          },
          guest: {
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            notes: 'Window seat please',
            acceptPolicy: true,
          },
        },
      });
      expect((await inspectorCounts(page)).errors).toBe(0);
      // The Errors filter says why it lists nothing (not "No messages yet").
      const inspector = page.getByRole('region', { name: 'Message inspector' });
      await inspector.getByRole('button', { name: 'Errors' }).click();
      await inspector.getByText('No message had an error.').waitFor();
      expect(pageErrors).toEqual([]);
      await page.close();
    },
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
