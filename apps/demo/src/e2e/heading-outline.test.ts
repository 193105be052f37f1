/**
 * The booking flow's heading outline, as a screen reader's heading list reads it (issue 25, "The
 * demo, as a user sees it"): one h1 (the page), section h2s, each surface's headings below its
 * section without a skipped level, the restaurants nested under the results' summary — in v0.9
 * and in v1.0, whose basic catalog writes a heading as a Markdown `#` line instead of a variant.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoHarness, restaurantTestAgent, startHarness } from './demo-harness.js';

/** One heading of the page: its level and text. */
interface OutlineEntry {
  level: number;
  text: string;
}

/**
 * Every heading of the page in document order (elements `h1`–`h6` and `role="heading"`), and the
 * headings of each surface card apart: a surface stands on its own (it can be the only one shown,
 * or another can replace the one above it), so its outline starts below its section's h2.
 */
function outlinesOf(page: Page): Promise<{ page: OutlineEntry[]; surfaces: OutlineEntry[][] }> {
  return page.evaluate(() => {
    const selector = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
    const read = (root: ParentNode) =>
      [...root.querySelectorAll(selector)].map((element) => ({
        level: Number(element.getAttribute('aria-level') ?? element.tagName.slice(1)),
        text: (element.textContent ?? '').trim(),
      }));
    return {
      page: read(document),
      surfaces: [...document.querySelectorAll('.surface-card')].map((card) => [
        { level: 1, text: 'a2ui-ts demo' },
        { level: 2, text: 'Surfaces' },
        ...read(card),
      ]),
    };
  });
}

/** The page's outline, checked whole and surface by surface. */
async function outlineOf(page: Page): Promise<OutlineEntry[]> {
  const outlines = await outlinesOf(page);
  for (const surface of outlines.surfaces)
    expect(skippedLevels(surface), JSON.stringify(surface)).toEqual([]);
  return outlines.page;
}

/** The headings that go deeper than one level below the heading before them. */
function skippedLevels(outline: readonly OutlineEntry[]): string[] {
  return outline.flatMap((entry, index) => {
    const previous = index === 0 ? 0 : outline[index - 1]!.level;
    return entry.level > previous + 1 ? [`h${entry.level} “${entry.text}” after h${previous}`] : [];
  });
}

const levelOf = (outline: readonly OutlineEntry[], text: string) =>
  outline.find((entry) => entry.text === text)?.level;

describe('heading outline of the booking flow in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({ agents: [restaurantTestAgent()] });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(['v0.9', 'v1.0'])(
    'has no skipped level and nests the restaurants under the results summary (%s)',
    async (version) => {
      const { page, pageErrors } = await harness.open(
        `/?agent=restaurant&transport=sse-jsonrpc&version=${version}`,
      );
      const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
      await search.getByLabel('City or restaurant').waitFor();
      expect(
        await page.getByTestId('surface-booking-search').getAttribute('data-a2ui-version'),
      ).toBe(version);
      let outline = await outlineOf(page);
      expect(levelOf(outline, 'Find a table'), JSON.stringify(outline)).toBe(3);
      expect(skippedLevels(outline)).toEqual([]);

      await search.getByLabel('City or restaurant').fill('Lyon');
      const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
      await search.getByLabel('Date').fill(date);
      await search.getByRole('button', { name: 'Find tables' }).click();
      const results = page.getByTestId('surface-booking-results').locator('.a2ui-surface');
      await results.getByRole('heading', { name: 'Le Petit Lyon' }).waitFor();
      outline = await outlineOf(page);
      expect(skippedLevels(outline), JSON.stringify(outline)).toEqual([]);
      const summary = outline.find((entry) => entry.text.startsWith('6 restaurants for 2'));
      expect(summary?.level, JSON.stringify(outline)).toBe(3);
      expect(levelOf(outline, 'Le Petit Lyon')).toBe(4);

      await results.getByRole('button', { name: 'Book Le Petit Lyon' }).click();
      const form = page.getByTestId('surface-booking-form').locator('.a2ui-surface');
      await form.getByRole('heading', { name: 'Book Le Petit Lyon' }).waitFor();
      outline = await outlineOf(page);
      expect(skippedLevels(outline), JSON.stringify(outline)).toEqual([]);
      expect(levelOf(outline, 'Book Le Petit Lyon')).toBe(3);
      expect(pageErrors).toEqual([]);
      await page.close();
    },
  );
});
