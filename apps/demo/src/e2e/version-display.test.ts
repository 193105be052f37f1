/**
 * Where the page says which A2UI version is in use (issue 25, "The demo, as a user sees it"): the
 * negotiated version shows on a phone too, and the gallery's own version control starts where the
 * link's version badge is, so the two never say different versions before a user picks one.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_CONTROLS_SURFACE_ID } from '../agents/gallery-agent.js';
import {
  type DemoHarness,
  galleryTestAgent,
  restaurantTestAgent,
  startHarness,
} from './demo-harness.js';

const PHONE = { width: 390, height: 844 };

/** The badge's visible box, and whether it is inside the window and clear of its neighbours. */
async function badgeLayout(page: Page) {
  return page.getByTestId('protocol-version').evaluate((badge) => {
    const box = badge.getBoundingClientRect();
    const neighbours = [
      ...(badge.closest('.topbar')?.querySelectorAll('.status, button, .brand') ?? []),
    ]
      .filter((element) => element !== badge)
      .map((element) => element.getBoundingClientRect());
    const overlaps = neighbours.some(
      (other) =>
        box.left < other.right &&
        other.left < box.right &&
        box.top < other.bottom &&
        other.top < box.bottom,
    );
    return {
      visible: box.width > 0 && box.height > 0 && getComputedStyle(badge).visibility !== 'hidden',
      inside: box.left >= 0 && box.right <= window.innerWidth,
      overlaps,
      pageWidth: document.documentElement.scrollWidth,
      // What is painted (innerText), not the whole accessible text (textContent).
      // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked
      text: (badge as HTMLElement).innerText.trim(),
    };
  });
}

describe('the A2UI version on the page, in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({ agents: [restaurantTestAgent(), galleryTestAgent()] });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(['light', 'dark'] as const)(
    'shows the negotiated version at 390 px, compact, inside the window (%s)',
    async (colorScheme) => {
      const { page, pageErrors } = await harness.open(
        '/?agent=restaurant&transport=sse-jsonrpc&version=v1.0',
        PHONE,
        { colorScheme },
      );
      await page
        .getByTestId('protocol-version')
        .and(page.locator('[data-version="v1.0"]'))
        .waitFor({ state: 'attached' });
      const layout = await badgeLayout(page);
      expect(layout).toMatchObject({ visible: true, inside: true, overlaps: false });
      expect(layout.text).toContain('v1.0');
      expect(layout.pageWidth).toBeLessThanOrEqual(PHONE.width);
      // The accessible name stays whole where the text is compact.
      expect(await page.getByTestId('protocol-version').textContent()).toBe('A2UI v1.0');
      await harness.screenshot(page, `version-badge-390-${colorScheme}`);
      expect(pageErrors).toEqual([]);
      await page.close();
    },
  );

  it.each(['auto', 'v0.9', 'v1.0'])(
    "starts the gallery's version control at the link's negotiated version (%s)",
    async (choice) => {
      const { page, pageErrors } = await harness.open(
        `/?agent=gallery&transport=sse-jsonrpc${choice === 'auto' ? '' : `&version=${choice}`}`,
      );
      const controls = page
        .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
        .locator('.a2ui-surface');
      const picker = controls.getByRole('group', { name: 'Protocol version' });
      await picker.getByRole('radio', { checked: true }).waitFor();
      const badge = page.getByTestId('protocol-version');
      await badge.and(page.locator('[data-version^="v"]')).waitFor({ state: 'attached' });
      const negotiated = await badge.getAttribute('data-version');
      if (choice !== 'auto') expect(negotiated).toBe(choice);
      const checked = await picker.getByRole('radio', { checked: true }).getAttribute('aria-label');
      const checkedLabel =
        checked ??
        (await picker
          .getByRole('radio', { checked: true })
          .evaluate((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent?.trim()));
      expect(checkedLabel).toBe(negotiated);
      expect(await badge.textContent()).toContain(negotiated);
      expect(pageErrors).toEqual([]);
      await page.close();
    },
  );
});
