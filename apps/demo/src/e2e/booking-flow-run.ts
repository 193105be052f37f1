/**
 * The restaurant booking flow, shared by the tests of each A2UI version: searches, books with
 * checks enforced, and confirms what was typed, over one transport in one version.
 */
import { INVALID_EMAIL_MESSAGE } from '@a2ui-ts/core';
import { expect } from 'vitest';
import type { ManualScheduler } from '../agents/scheduler.js';
import { type DemoHarness, inspectorCounts, type LogRecord } from './demo-harness.js';

/** Which version the page asks for (`?version=`); `auto` leaves the choice to the server. */
export type BookingFlowVersion = 'auto' | 'v0.9' | 'v1.0';

/**
 * Runs the whole flow in a fresh page and closes it. The titles are headings in every version
 * (v1.0, which removed Text's heading variants, carries them as Markdown `#` lines).
 */
export async function runBookingFlow(
  harness: DemoHarness,
  scheduler: ManualScheduler,
  transportId: string,
  version: BookingFlowVersion = 'auto',
): Promise<void> {
  const shot = (name: string) => {
    const suffix = `${transportId === 'sse-jsonrpc' ? '' : `-${transportId}`}${version === 'v1.0' ? '-v1.0' : ''}`;
    return `${name}${suffix}`;
  };
  const ofThisRun = (record: LogRecord) => record.transport === transportId;
  const { page, pageErrors } = await harness.open(
    `/?agent=restaurant&transport=${transportId}${version === 'auto' ? '' : `&version=${version}`}`,
  );
  const title = (scope: ReturnType<typeof page.locator>, name: string) =>
    scope.getByRole('heading', { name });
  if (version !== 'auto')
    await page
      .getByTestId('protocol-version')
      .and(page.locator(`[data-version="${version}"]`))
      .waitFor();
  const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
  await title(search, 'Find a table').waitFor();
  // Every surface is in the version the link negotiated (auto: the agent's own, v0.9).
  const surfaceVersion = version === 'v1.0' ? 'v1.0' : 'v0.9';
  expect(await page.getByTestId('surface-booking-search').getAttribute('data-a2ui-version')).toBe(
    surfaceVersion,
  );

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
  expect(await results.getByRole('button', { name: 'Book Le Bouchon Fermé' }).isDisabled()).toBe(
    true,
  );
  await harness.screenshot(page, shot('booking-2-results'));
  await results.getByRole('button', { name: 'Book Le Petit Lyon' }).click();

  const form = page.getByTestId('surface-booking-form').locator('.a2ui-surface');
  await title(form, 'Book Le Petit Lyon').waitFor();
  await search.waitFor({ state: 'detached' });
  await results.waitFor({ state: 'detached' });
  const confirm = form.getByRole('button', { name: 'Confirm booking' });
  await form.getByLabel('Full name').fill('A');
  await form.getByLabel('Email').fill('ada@');
  await form.getByText('Use at least 2 characters.').waitFor();
  // v1.0's `email` returns a ValidationResult whose own message wins over the check's fallback.
  await form
    .getByText(version === 'v1.0' ? INVALID_EMAIL_MESSAGE : 'Enter a valid email address.')
    .first() // in v1.0 the field and the confirm button show the function's one message
    .waitFor();
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

  const confirmation = page.getByTestId('surface-booking-confirmation').locator('.a2ui-surface');
  await title(confirmation, 'You’re booked!').waitFor();
  await confirmation.getByText('Table for 4 at Le Petit Lyon, Lyon').waitFor();
  expect(
    await page.getByTestId('surface-booking-confirmation').getAttribute('data-a2ui-version'),
  ).toBe(surfaceVersion);
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
}
