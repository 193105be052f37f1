/**
 * What went wrong in a page, for a test to assert empty.
 */
import type { Page } from 'playwright-core';

/**
 * Collects, from now on, the messages of `page`'s uncaught exceptions and its `console.error`
 * lines, into the returned array (which grows as they happen).
 *
 * @example
 * ```ts
 * const pageErrors = collectPageErrors(page);
 * await page.goto(url);
 * expect(pageErrors).toEqual([]);
 * ```
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}
