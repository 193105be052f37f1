/**
 * The page as a keyboard and screen-reader user meets it: focus follows a surface that replaces
 * the one it was in, a disabled button says what is missing, the agent's refusal shows at its
 * field, every control is reachable by Tab, the inspector can be filtered, paused and cleared,
 * an agent that is off says on the page how to turn it on, and over A2A the inspector says
 * that the canceled POSTs in the network panel are deliberate.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualScheduler } from '../agents/scheduler.js';
import {
  type DemoHarness,
  galleryTestAgent,
  inspectorCounts,
  restaurantTestAgent,
  startHarness,
} from './demo-harness.js';

const LLM_OFF = {
  id: 'llm',
  label: 'LLM (not configured)',
  description: 'Set A2UI_LLM_PROVIDER and A2UI_LLM_MODEL, then restart the demo.',
};

/** Text of the focused element and its tag. */
function focused(page: Page) {
  return page.evaluate(() => ({
    tag: document.activeElement?.tagName.toLowerCase(),
    text: document.activeElement?.textContent?.trim(),
  }));
}

/**
 * Where the focus is: the test id of the surface card holding it, its tag and text, and whether
 * a reader sees it — its middle inside the window and not under the sticky top bar.
 */
function focusPlace(page: Page) {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    const card = active?.closest<HTMLElement>('[data-surface-key]');
    const box = active?.getBoundingClientRect();
    const hit =
      box &&
      document.elementFromPoint(
        Math.min(innerWidth - 1, box.left + Math.min(box.width, innerWidth) / 2),
        box.top + box.height / 2,
      );
    return {
      surface: card?.dataset.testid,
      tag: active?.tagName.toLowerCase(),
      text: active?.textContent?.trim().slice(0, 40),
      visible:
        box !== undefined &&
        box.top >= 0 &&
        box.bottom <= innerHeight &&
        hit != null &&
        (active === hit || active!.contains(hit)),
    };
  });
}

async function searchLyon(page: Page, date: string) {
  const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
  await search.getByRole('heading', { name: 'Find a table' }).waitFor();
  await search.getByLabel('City or restaurant').fill('Lyon');
  await search.getByLabel('Date').fill(date);
  await search.getByRole('button', { name: 'Find tables' }).click();
  return search;
}

describe('page usability in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({
      agents: [restaurantTestAgent(createManualScheduler()), galleryTestAgent()],
      unavailableAgents: [LLM_OFF],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('moves focus to the heading of a surface that replaces the focused one, and announces it', async () => {
    const { page, pageErrors } = await harness.open('/?agent=restaurant&transport=sse-jsonrpc');
    const inTwoWeeks = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    await searchLyon(page, inTwoWeeks);
    const results = page.getByTestId('surface-booking-results').locator('.a2ui-surface');
    const book = results.getByRole('button', { name: 'Book Le Petit Lyon' });
    await book.focus();
    await page.keyboard.press('Enter');

    const form = page.getByTestId('surface-booking-form').locator('.a2ui-surface');
    await form.getByRole('heading', { name: 'Book Le Petit Lyon' }).waitFor();
    await results.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toEqual({ tag: 'h3', text: 'Book Le Petit Lyon' });
    await expect
      .poll(() => page.getByTestId('surface-announcer').textContent())
      .toBe('Now showing: Book Le Petit Lyon');

    // A disabled Confirm names every field still missing.
    const reasons = form.locator('.a2ui-button-reason');
    await expect
      .poll(() => reasons.textContent())
      .toBe('Enter your name.Enter a valid email.Pick a time.Accept the policy.');
    // Typed key by key: the handoff is over once the user moves on, so no keystroke is lost to
    // a heading taking the focus back while the form re-renders.
    const name = form.getByLabel('Full name');
    await name.focus();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ada@example.com');
    expect(await name.inputValue()).toBe('Ada Lovelace');
    expect(await form.getByLabel('Email').inputValue()).toBe('ada@example.com');
    expect(await focused(page)).toMatchObject({ tag: 'input' });
    await expect.poll(() => reasons.textContent()).toBe('Pick a time.Accept the policy.');
    await form.getByText('19:30', { exact: true }).click();
    await form.getByLabel('I accept the cancellation policy').check();
    await reasons.waitFor({ state: 'detached' });

    const confirm = form.getByRole('button', { name: 'Confirm booking' });
    await confirm.focus();
    await page.keyboard.press('Enter');
    const confirmation = page.getByTestId('surface-booking-confirmation').locator('.a2ui-surface');
    await confirmation.getByRole('heading', { name: 'You’re booked!' }).waitFor();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toEqual({ tag: 'h3', text: 'You’re booked!' });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('at 390 px, keyboard only: a surface created by Find tables or Play takes the focus, in view', async () => {
    const phone = { width: 390, height: 844 };
    {
      const { page, pageErrors } = await harness.open('/?agent=restaurant', phone);
      const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
      await search.getByLabel('City or restaurant').focus();
      await page.keyboard.type('Lyon');
      await search
        .getByLabel('Date')
        .fill(new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10));
      await search.getByRole('button', { name: 'Find tables' }).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('surface-booking-results').getByText('6 restaurants').waitFor();
      await expect
        .poll(() => focusPlace(page))
        .toEqual({
          surface: 'surface-booking-results',
          // The results surface's own h1 (its summary), at the page's h3 (minHeadingLevel 3).
          tag: 'h3',
          text: '6 restaurants for 2 in “Lyon”',
          visible: true,
        });
      expect(pageErrors).toEqual([]);
      await page.close();
    }
    {
      const { page, pageErrors } = await harness.open('/?agent=gallery', phone);
      const controls = page.getByTestId('surface-gallery-controls').locator('.a2ui-surface');
      await controls.getByRole('button', { name: 'Play Calendar Day', exact: true }).focus();
      await page.keyboard.press('Enter');
      await controls.getByText('Finished “Calendar Day”').waitFor();
      await expect
        .poll(() => focusPlace(page))
        .toMatchObject({
          surface: 'surface-gallery-calendar-day',
          visible: true,
        });
      // The example's h1 is the card's h3: the page keeps its one h1 (minHeadingLevel 3).
      expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([
        'a2ui-ts demo',
      ]);
      const card = page.getByTestId('surface-gallery-calendar-day');
      expect(await card.locator('h3.a2ui-text-h1').count()).toBe(1);
      expect(pageErrors).toEqual([]);
      await page.close();
    }
  });

  it('shows the agent’s refusal of a past date at the date field, invalid and announced', async () => {
    const { page, pageErrors } = await harness.open('/?agent=restaurant&transport=rest');
    const search = await searchLyon(page, '2020-01-01');
    const date = search.getByLabel('Date');
    await expect.poll(() => date.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await date.getAttribute('aria-describedby')) ?? '';
    const message = page.locator(`[id="${describedBy.split(' ').at(-1)}"]`);
    await expect
      .poll(() => message.textContent())
      .toBe('That date has passed: pick today or a later date.');
    expect(await message.getAttribute('aria-live')).toBe('polite');
    // A date the agent accepts clears it.
    await date.fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
    await search.getByRole('button', { name: 'Find tables' }).click();
    await page.getByTestId('surface-booking-results').waitFor();
    await expect.poll(() => date.getAttribute('aria-invalid')).not.toBe('true');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('shows a focus outline at every Tab stop of the search form, the date field’s calendar button included', async () => {
    const { page } = await harness.open('/?agent=restaurant&transport=sse-jsonrpc');
    const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
    await search.getByRole('heading', { name: 'Find a table' }).waitFor();
    await search.getByLabel('City or restaurant').focus();
    const unmarked: string[] = [];
    // City, one cuisine chip, the date's month, day and year and its calendar button, party size.
    for (let stop = 0; stop < 7; stop += 1) {
      const seen = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement;
        const style = getComputedStyle(active);
        const chip = active.closest<HTMLElement>('.a2ui-choice-option');
        const chipStyle = chip ? getComputedStyle(chip) : undefined;
        const marked = (s: CSSStyleDeclaration | undefined) =>
          s !== undefined && s.outlineStyle !== 'none' && s.outlineWidth !== '0px';
        return {
          name:
            active.getAttribute('aria-label') ??
            (active as HTMLInputElement).labels?.[0]?.textContent ??
            active.tagName,
          marked: marked(style) || marked(chipStyle),
        };
      });
      if (!seen.marked) unmarked.push(`stop ${stop}: ${seen.name}`);
      await page.keyboard.press('Tab');
    }
    expect(unmarked).toEqual([]);
    await page.close();
  });

  it('reaches "Upload file" by Tab from the paste box', async () => {
    const { page } = await harness.open('/?agent=gallery&transport=sse-jsonrpc');
    await page.getByTestId('stream-input').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ tag: 'button', text: 'Upload file' });
    await page.close();
  });

  it('filters the inspector by surface, pauses it, and clears it', async () => {
    const { page } = await harness.open('/?agent=restaurant&transport=sse-jsonrpc');
    await page
      .getByTestId('surface-booking-search')
      .getByRole('heading', { name: 'Find a table' })
      .waitFor();
    const filter = page.getByTestId('inspector-surface-filter');
    await expect.poll(() => filter.locator('option').allTextContents()).toContain('booking-search');
    await filter.selectOption('booking-search');
    const entries = page.getByTestId('inspector-entry');
    const surfaces = await entries.locator('.log-surface').allTextContents();
    expect(surfaces.length).toBeGreaterThan(0);
    expect(new Set(surfaces)).toEqual(new Set(['booking-search']));
    await filter.selectOption('');

    const pause = page.getByTestId('inspector-pause');
    await pause.click();
    expect(await pause.getAttribute('aria-pressed')).toBe('true');
    const listed = await entries.count();
    await searchLyon(page, new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
    await page.getByTestId('surface-booking-results').waitFor();
    await page
      .getByTestId('inspector-paused')
      .getByText(/new entr(y|ies) waiting/)
      .waitFor();
    expect(await entries.count()).toBe(listed);
    await pause.click();
    await expect.poll(() => entries.count()).toBeGreaterThan(listed);

    await page.getByTestId('inspector-clear').click();
    expect(await entries.count()).toBe(0);
    expect(await inspectorCounts(page)).toEqual({ received: 0, sent: 0, errors: 0 });
    await page.close();
  });

  it('says on the page how to turn on an agent that is off', async () => {
    const { page } = await harness.open('/?agent=restaurant');
    const notice = page.getByTestId('unavailable-agents');
    await notice.getByText('LLM (not configured): how to turn it on').click();
    await notice.getByText(LLM_OFF.description).waitFor();
    await page.close();
  });

  it('says in the inspector, over A2A, that the POSTs the network panel shows as canceled are deliberate', async () => {
    const { page, pageErrors } = await harness.open('/?agent=restaurant&transport=a2a');
    const failed: string[] = [];
    // The note is about the transport's requests (under /a2ui/), not the page's own.
    page.on('requestfailed', (request) =>
      failed.push(
        `${request.method()} ${new URL(request.url()).pathname} ${request.failure()?.errorText}`,
      ),
    );
    const inTwoWeeks = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    await searchLyon(page, inTwoWeeks);
    await page
      .getByTestId('surface-booking-results')
      .getByText('6 restaurants for 2 in “Lyon”')
      .waitFor();
    // The turn is over: its streamed call was ended by the page.
    await expect.poll(() => failed.length).toBeGreaterThan(0);
    expect([...new Set(failed.filter((line) => line.includes(' /a2ui/')))]).toEqual([
      'POST /a2ui/restaurant/a2a net::ERR_ABORTED',
    ]);
    const note = page.getByTestId('inspector-network-note');
    expect(await note.textContent()).toMatch(/canceled, in red\. They are deliberate/);
    expect((await inspectorCounts(page)).errors).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();

    // Other transports have nothing to explain.
    const other = await harness.open('/?agent=restaurant&transport=sse-jsonrpc');
    await other.page.getByTestId('surface-booking-search').waitFor();
    expect(await other.page.getByTestId('inspector-network-note').count()).toBe(0);
    await other.page.close();
  });
});
