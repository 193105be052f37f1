/**
 * `pnpm --filter @a2ui-ts/react-renderer bench:large-list` (`ROUNDS`, default 3; `SCENARIOS`, a
 * comma-separated subset of the names below): the main-thread long tasks
 * (`PerformanceObserver('longtask')`, tasks over 50 ms) while a surface at the renderer's caps
 * mounts in Chromium, and the time until all of it is in the page. The longest task is how long
 * the page could not answer input (issue 25). A measurement, not a test: it asserts nothing.
 */
import { cpus, loadavg } from 'node:os';
import { launchChromium } from '@a2ui-ts/test-browser';
import { startGalleryServer } from '../test/browser/gallery-server.js';

interface Scenario {
  /** The gallery section (`?only=`). */
  readonly name: string;
  readonly description: string;
  /** Component instances rendered in full once it has mounted (`[data-a2ui-id]` elements). */
  readonly instances: number;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'large-list',
    description: 'one List of 5,000 template items (maxTemplateItems)',
    instances: 5001,
  },
  {
    name: 'nested-list',
    description: '100 Lists of 100 template items, stopped at maxRenderedComponents',
    instances: 10_000,
  },
  {
    name: 'fan-out',
    description: 'static Columns 10 × 10 × 10 × 10, stopped at maxRenderedComponents',
    instances: 10_000,
  },
];
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const selected = process.env.SCENARIOS?.split(',') ?? SCENARIOS.map((scenario) => scenario.name);

interface Round {
  /** Longest task after the page's first (its script, and core applying the stream), ms. */
  readonly longest: number;
  /** The page's first task, ms (0 when it was shorter than 50 ms). */
  readonly script: number;
  readonly longTasks: number;
  /** From navigation start until every instance is in the page, ms. */
  readonly allMounted: number;
  /** Each long task as `duration@start`, ms from navigation start. */
  readonly tasks: string;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const [launched, server] = await Promise.all([launchChromium(), startGalleryServer()]);
try {
  console.log(`Chromium, ${cpus().length} CPUs, ${ROUNDS} rounds per scenario`);
  for (const scenario of SCENARIOS.filter((candidate) => selected.includes(candidate.name))) {
    const loadBefore = load();
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
      await page.goto(`${server.url}/?only=${scenario.name}`);
      await page.waitForFunction(
        ({ name, instances }) =>
          document.querySelectorAll(`#${name} [data-a2ui-id]`).length === instances,
        scenario,
        { polling: 50, timeout: 300_000 },
      );
      const allMounted = await page.evaluate(() => performance.now());
      // Let the observer deliver the last entries.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
      const tasks = await page.evaluate(
        () => (window as unknown as { __longTasks: Array<[number, number]> }).__longTasks,
      );
      // The first task evaluates the page's script and applies the stream (core, not rendering).
      const scriptEnd = await page.evaluate(
        () => performance.getEntriesByName('gallery-script-end')[0]?.startTime ?? 0,
      );
      const isScript = ([start]: [number, number]) => start <= scriptEnd;
      rounds.push({
        longest: Math.max(
          0,
          ...tasks.filter((task) => !isScript(task)).map(([, duration]) => duration),
        ),
        script: Math.max(0, ...tasks.filter(isScript).map(([, duration]) => duration)),
        longTasks: tasks.length,
        allMounted,
        tasks: tasks
          .map(([start, duration]) => `${duration.toFixed(0)}@${start.toFixed(0)}`)
          .join(' '),
      });
      await context.close();
    }
    console.log(
      `\n${scenario.name}: ${scenario.description}; load average ${loadBefore} before, ${load()} after`,
    );
    for (const [index, round] of rounds.entries()) {
      console.log(
        `round ${index + 1}: longest task ${round.longest.toFixed(0)} ms after the page's script (${round.script.toFixed(0)} ms), ${round.longTasks} long tasks, all mounted after ${round.allMounted.toFixed(0)} ms; tasks ${round.tasks}`,
      );
    }
  }
} finally {
  await launched.close();
  await server.close();
}
