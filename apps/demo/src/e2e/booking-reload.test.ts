/**
 * Reload keeps the screen (docs/session-host.md "Reload keeps the screen"): the page is reloaded
 * in the middle of a booking, over SSE + JSON-RPC, WebSocket and REST. The reloaded page resumes
 * its session from the resume token the transport kept in `sessionStorage`: the booking form is
 * back as the agent last sent it (from the server's replay log or its snapshot), the search never
 * shows again (no reset back to the start), the agent's `onConnect` does not run again, and the
 * booking completes. Real server, real Chromium.
 *
 * The client is built as the test run's `NODE_ENV` asks (`test`: React's development build), so
 * StrictMode mounts the page's connection effect twice on each load: the transport created first
 * is closed before it ever links, and must leave the token to the one created next.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualScheduler } from '../agents/scheduler.js';
import {
  type DemoHarness,
  type LogRecord,
  restaurantTestAgent,
  startHarness,
} from './demo-harness.js';

/** The `data-testid` of every surface the page has shown since it was (re)loaded, in order. */
const SURFACES_SEEN = '__surfacesSeen';

/**
 * Records every surface that is attached to the document from the first moment of each load, so
 * that a surface shown for a single frame (a reset's fresh search form) is seen too.
 */
async function recordSurfaces(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const seen: string[] = [];
    (window as unknown as Record<string, string[]>)[key] = seen;
    const note = () => {
      for (const element of document.querySelectorAll(
        '[data-testid^="surface-"][data-a2ui-version]',
      )) {
        const id = element.getAttribute('data-testid')!;
        if (!seen.includes(id)) seen.push(id);
      }
    };
    new MutationObserver(note).observe(document, { childList: true, subtree: true });
  }, SURFACES_SEEN);
}

const surfacesSeen = (page: Page) =>
  page.evaluate((key) => (window as unknown as Record<string, string[]>)[key], SURFACES_SEEN);

describe('a reloaded page resumes its booking', () => {
  let harness: DemoHarness;
  const scheduler = createManualScheduler();

  beforeAll(async () => {
    harness = await startHarness({ agents: [restaurantTestAgent(scheduler)] });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(['sse-jsonrpc', 'ws', 'rest'])(
    'over %s: the form is back after the reload, the search never shows again, and the booking completes',
    async (transportId) => {
      const ofThisRun = (record: LogRecord) => record.transport === transportId;
      const { page, pageErrors } = await harness.open(
        `/?agent=restaurant&transport=${transportId}&version=v0.9`,
      );
      await recordSurfaces(page);
      const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
      await search.getByRole('heading', { name: 'Find a table' }).waitFor();
      await search.getByLabel('City or restaurant').fill('Lyon');
      const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
      await search.getByLabel('Date').fill(date);
      await search.getByRole('button', { name: 'Find tables' }).click();
      const results = page.getByTestId('surface-booking-results').locator('.a2ui-surface');
      await results.getByText('5 tables left').waitFor();
      await results.getByRole('button', { name: 'Book Le Petit Lyon' }).click();
      const form = page.getByTestId('surface-booking-form').locator('.a2ui-surface');
      await form.getByRole('heading', { name: 'Book Le Petit Lyon' }).waitFor();
      await search.waitFor({ state: 'detached' });

      await page.reload();
      // The first booking surface the reloaded page shows: the form resumed, or a new session's
      // search (a reset back to the start).
      await page.locator('[data-testid^="surface-booking-"][data-a2ui-version]').first().waitFor();
      // The reloaded page showed the form it had, and never the search a new session starts with.
      expect(await surfacesSeen(page)).toEqual(['surface-booking-form']);
      await form.getByRole('heading', { name: 'Book Le Petit Lyon' }).waitFor();
      expect(await page.getByTestId('connection-status').getAttribute('data-resets')).toBe('0');

      await form.getByLabel('Full name').fill('Ada Lovelace');
      await form.getByLabel('Email').fill('ada@example.com');
      await form.getByText('19:30', { exact: true }).click();
      await form.getByLabel('I accept the cancellation policy').check();
      await form.getByRole('button', { name: 'Confirm booking' }).click();
      const confirmation = page
        .getByTestId('surface-booking-confirmation')
        .locator('.a2ui-surface');
      await confirmation.getByText('Table for 2 at Le Petit Lyon, Lyon').waitFor();
      await confirmation.getByText('Booked for Ada Lovelace (ada@example.com)').waitFor();
      expect(await surfacesSeen(page)).toEqual([
        'surface-booking-form',
        'surface-booking-confirmation',
      ]);

      // One session from the first load to the booking: one connect, the form the agent had.
      const opened = harness.logs.filter(
        (record) => record.event === 'connection.open' && ofThisRun(record),
      );
      expect(opened).toHaveLength(1);
      const books = harness.logs.filter(
        (record) => record.event === 'action' && record.name === 'book' && ofThisRun(record),
      );
      expect(books).toHaveLength(1);
      expect(books[0]!.connectionId).toBe(opened[0]!.connectionId);
      expect(books[0]!.context).toMatchObject({
        restaurantId: 'le-petit-lyon',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
      });
      expect(pageErrors).toEqual([]);
      await page.close();
    },
  );
});
