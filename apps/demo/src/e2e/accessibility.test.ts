/**
 * axe-core (WCAG 2.1 A and AA rules) over the whole demo page — top bar, surfaces, data model,
 * inspector with a message opened, the paste panel — light and dark, at 1280 and 390 px. Any
 * violation fails, whatever its impact. The heading outline is checked too: one h1, no level
 * skipped.
 */
import { type AxeViolation, runAxe, WCAG21_AA_TAGS } from '@a2ui-ts/test-browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DemoHarness,
  galleryTestAgent,
  restaurantTestAgent,
  startHarness,
} from './demo-harness.js';

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** One line per offending element, so a failure says what to fix. */
function describeViolations(violations: readonly AxeViolation[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}): ${JSON.stringify(node.target)} ${node.summary}`,
    ),
  );
}

/** Opens a message in the inspector and the first surface's data model, as a user exploring would. */
async function openDetails(page: Page) {
  await page.getByTestId('inspector-entry').first().locator('summary').click();
  await page.locator('.surface-data > summary').first().click();
  await page.locator('.surface-data .json-view').first().waitFor();
}

/**
 * JSON views and inspector rows that stick out of their panel (and are cut off by it), and
 * inspector rows whose status badge wrapped onto a line of its own.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(
      '.json-view, .log-entry > summary',
    )) {
      const frame = element.closest<HTMLElement>('.surface-card, .panel');
      if (!frame) continue;
      const box = element.getBoundingClientRect();
      const outer = frame.getBoundingClientRect();
      if (box.right > outer.right + 1 || box.left < outer.left - 1)
        problems.push(
          `${element.className} overflows its panel by ${Math.round(box.right - outer.right)} px`,
        );
    }
    for (const summary of document.querySelectorAll<HTMLElement>('.log-entry > summary')) {
      const badge = summary.querySelector('.badge');
      const time = summary.querySelector('.log-time');
      if (
        badge &&
        time &&
        Math.abs(badge.getBoundingClientRect().top - time.getBoundingClientRect().top) > 4
      )
        problems.push(`badge "${badge.textContent}" wrapped below "${summary.textContent}"`);
    }
    return problems;
  });
}

/**
 * The page's heading outline, one `h<level> text` per heading in document order (visually hidden
 * ones included: a screen reader lists them).
 */
async function headingOutline(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')].map(
      (heading) =>
        `h${heading.getAttribute('aria-level') ?? heading.tagName.slice(1)} ${heading.textContent?.trim()}`,
    ),
  );
}

/**
 * What is wrong with an outline: not exactly one h1, the h1 not first, or a heading more than one
 * level below the one before it (h2 → h4). axe's `heading-order` is a best-practice rule outside
 * the WCAG tags the audit runs, so it is checked here.
 */
function outlineProblems(outline: readonly string[]): string[] {
  const levels = outline.map((entry) => Number(entry.slice(1, 2)));
  const problems: string[] = [];
  if (levels.filter((level) => level === 1).length !== 1 || levels[0] !== 1)
    problems.push(`one h1, first: ${JSON.stringify(outline)}`);
  levels.forEach((level, index) => {
    if (index > 0 && level > levels[index - 1]! + 1)
      problems.push(`skips a level: ${outline[index - 1]} → ${outline[index]}`);
  });
  return problems;
}

/** Expects the page's one h1, named after the demo, and an outline that skips no level. */
async function expectHeadingStructure(page: Page): Promise<void> {
  expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['a2ui-ts demo']);
  expect(outlineProblems(await headingOutline(page))).toEqual([]);
}

describe('accessibility of the demo page (axe, WCAG 2.1 AA)', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({
      agents: [restaurantTestAgent(), galleryTestAgent()],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  /**
   * Opens the details, saves a screenshot as `name`, then expects no axe violation, no layout
   * problem and no page error, and closes the page.
   */
  async function audit(page: Page, pageErrors: readonly string[], name: string): Promise<void> {
    await openDetails(page);
    await harness.screenshot(page, name);
    expect(describeViolations(await runAxe(page, { tags: WCAG21_AA_TAGS }))).toEqual([]);
    await expectHeadingStructure(page);
    expect(await layoutProblems(page)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  }

  for (const viewport of VIEWPORTS) {
    for (const theme of THEMES) {
      it(`booking search, results and form, ${theme}, ${viewport.width} px`, async () => {
        const { page, pageErrors } = await harness.open('/?agent=restaurant', viewport, {
          colorScheme: theme,
        });
        const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
        await search.getByRole('heading', { name: 'Find a table' }).waitFor();
        await search.getByRole('textbox', { name: 'City or restaurant' }).fill('Lyon');
        const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
        await search.getByLabel('Date').fill(date);
        await search.getByRole('button', { name: 'Find tables' }).click();
        const results = page.getByTestId('surface-booking-results');
        await results.getByText('6 restaurants for 2 in “Lyon”').waitFor();
        await harness.screenshot(page, `a11y-booking-${viewport.width}-${theme}`);
        expect(describeViolations(await runAxe(page, { tags: WCAG21_AA_TAGS }))).toEqual([]);
        await expectHeadingStructure(page);
        // The booking form: its "Back to results" is a link-style Button in the agent's orange.
        await results.getByRole('button', { name: 'Book Le Petit Lyon' }).click();
        const form = page.getByTestId('surface-booking-form').locator('.a2ui-surface');
        await form.getByRole('button', { name: 'Back to results' }).waitFor();
        await audit(page, pageErrors, `a11y-booking-form-${viewport.width}-${theme}`);
      });

      it(`gallery with the paste panel, ${theme}, ${viewport.width} px`, async () => {
        const { page, pageErrors } = await harness.open('/?agent=gallery', viewport, {
          colorScheme: theme,
        });
        await page
          .getByTestId('surface-gallery-controls')
          .getByText('Pick an example to stream it message by message.')
          .waitFor();
        await page.getByTestId('stream-input').waitFor();
        await audit(page, pageErrors, `a11y-gallery-${viewport.width}-${theme}`);
      });
    }
  }
});
