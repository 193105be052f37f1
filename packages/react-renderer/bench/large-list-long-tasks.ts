/**
 * `pnpm --filter @a2ui-ts/react-renderer bench:large-list` (`ROUNDS`, default 3): the main-thread long tasks
 * (`PerformanceObserver('longtask')`, tasks over 50 ms) while the browser gallery's 5,000-item
 * List (the `maxTemplateItems` cap) mounts in Chromium, and the time until every item is in the
 * page. The longest task is how long the page could not answer input (issue 25). A measurement,
 * not a test: it asserts nothing.
 */
import { cpus } from 'node:os';
import { launchChromium } from '@a2ui-ts/test-browser';
import { startGalleryServer } from '../test/browser/gallery-server.js';

const ITEMS = 5000;
const ROUNDS = Number(process.env.ROUNDS ?? 3);

interface Round {
  /** Longest task, ms. */
  readonly longest: number;
  readonly longTasks: number;
  /** From navigation start until all items are in the page, ms. */
  readonly allMounted: number;
  /** Each long task as `duration@start`, ms from navigation start. */
  readonly tasks: string;
}

const [launched, server] = await Promise.all([launchChromium(), startGalleryServer()]);
try {
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const context = await launched.browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const tasks: Array<[number, number]> = [];
      (window as unknown as { __longTasks: Array<[number, number]> }).__longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${server.url}/?only=large-list`);
    await page.waitForFunction(
      (items) => document.querySelectorAll('[data-a2ui-id="row"]').length === items,
      ITEMS,
      { polling: 50, timeout: 120_000 },
    );
    const allMounted = await page.evaluate(() => performance.now());
    // Let the observer deliver the last entries.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    const tasks = await page.evaluate(
      () => (window as unknown as { __longTasks: Array<[number, number]> }).__longTasks,
    );
    // The first task evaluates the page's script and applies the stream (core, not rendering).
    const durations = tasks.map(([, duration]) => duration);
    rounds.push({
      longest: Math.max(0, ...durations),
      longTasks: tasks.length,
      allMounted,
      tasks: tasks
        .map(([start, duration]) => `${duration.toFixed(0)}@${start.toFixed(0)}`)
        .join(' '),
    });
    await context.close();
  }
  console.log(`Chromium, ${ITEMS} template items, ${cpus().length} CPUs, ${ROUNDS} rounds`);
  for (const [index, round] of rounds.entries()) {
    console.log(
      `round ${index + 1}: longest task ${round.longest.toFixed(0)} ms, ${round.longTasks} long tasks, all items after ${round.allMounted.toFixed(0)} ms; tasks ${round.tasks}`,
    );
  }
} finally {
  await launched.close();
  await server.close();
}
