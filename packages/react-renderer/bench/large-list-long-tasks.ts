/**
 * `pnpm --filter @a2ui-ts/react-renderer bench:large-list` (`ROUNDS`, default 3; `SCENARIOS`, a
 * comma-separated subset of the names below): the renderer main thread's tasks, from a Chromium
 * trace, while a surface at the renderer's caps mounts, and the time until all of it is in the
 * page. The longest task is how long the page could not answer input (issue 25: at most 100 ms).
 * Each task is reported in wall time and in the thread's own CPU time (`tdur`): on a loaded
 * machine the wall time includes waiting for a core, the CPU time is what an idle machine would
 * see. A measurement, not a test: it asserts nothing.
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
  /** Longest main-thread task after the page's script, wall time, ms. */
  readonly longest: number;
  /** Longest main-thread task after the page's script, the thread's own CPU time, ms. */
  readonly longestCpu: number;
  /** The page's script task (its evaluation, and core applying the stream), wall / CPU ms. */
  readonly script: string;
  /** Core applying the streams inside the script task, wall / CPU ms (between the page's marks). */
  readonly streams: string;
  /** Main-thread tasks over 50 ms of wall time after the script. */
  readonly longTasks: number;
  /** From navigation until every instance is in the page, ms. */
  readonly allMounted: number;
  /** The five longest tasks after the script as `wall/cpu`, ms. */
  readonly tasks: string;
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  /** Start, µs on the trace clock. */
  readonly ts: number;
  /** Wall duration, µs. */
  readonly dur?: number;
  /** The thread's CPU time during the event, µs (thread timestamps, Linux). */
  readonly tdur?: number;
  /** The thread's CPU clock at the event, µs (instant events such as user timing marks). */
  readonly tts?: number;
  readonly args?: { name?: string };
}

/** The renderer main thread's top-level tasks, and the trace time of the gallery's script end. */
function mainThreadTasks(events: readonly TraceEvent[]): {
  tasks: TraceEvent[];
  scriptEnd: number;
} {
  const mark = events.find((event) => event.name === 'gallery-script-end');
  if (!mark) throw new Error('The trace has no gallery-script-end mark.');
  const main = events.find(
    (event) =>
      event.ph === 'M' &&
      event.name === 'thread_name' &&
      event.args?.name === 'CrRendererMain' &&
      event.pid === mark.pid,
  );
  if (!main) throw new Error('The trace has no renderer main thread.');
  const tasks = events.filter(
    (event) =>
      event.name === 'RunTask' &&
      event.ph === 'X' &&
      event.pid === main.pid &&
      event.tid === main.tid,
  );
  return { tasks, scriptEnd: mark.ts };
}

const ms = (microseconds = 0) => microseconds / 1000;
const pair = (task: TraceEvent) => `${ms(task.dur).toFixed(0)}/${ms(task.tdur).toFixed(0)}`;

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
      await launched.browser.startTracing(page, {
        categories: ['__metadata', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
      });
      await page.goto(`${server.url}/?only=${scenario.name}`);
      await page.waitForFunction(
        ({ name, instances }) =>
          document.querySelectorAll(`#${name} [data-a2ui-id]`).length === instances,
        scenario,
        { polling: 50, timeout: 300_000 },
      );
      const allMounted = await page.evaluate(() => performance.now());
      const trace = JSON.parse((await launched.browser.stopTracing()).toString()) as {
        traceEvents: TraceEvent[];
      };
      const { tasks, scriptEnd } = mainThreadTasks(trace.traceEvents);
      // The task that ends with the mark evaluates the page's script and applies the stream
      // (core, not rendering); a real page receives the stream over time.
      const isScript = (task: TraceEvent) => task.ts <= scriptEnd;
      const after = tasks.filter((task) => !isScript(task));
      const script = tasks.filter(isScript).sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
      const byWall = [...after].sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
      const [streamsStart, streamsApplied] = [
        'gallery-streams-start',
        'gallery-streams-applied',
      ].map((name) => trace.traceEvents.find((event) => event.name === name));
      const streams =
        streamsStart && streamsApplied
          ? `${ms(streamsApplied.ts - streamsStart.ts).toFixed(0)}/${ms((streamsApplied.tts ?? 0) - (streamsStart.tts ?? 0)).toFixed(0)}`
          : '?';
      rounds.push({
        streams,
        longest: ms(byWall[0]?.dur),
        longestCpu: Math.max(0, ...after.map((task) => ms(task.tdur))),
        script: script ? pair(script) : '0/0',
        longTasks: after.filter((task) => ms(task.dur) > 50).length,
        allMounted,
        tasks: byWall.slice(0, 5).map(pair).join(' '),
      });
      await context.close();
    }
    console.log(
      `\n${scenario.name}: ${scenario.description}; load average ${loadBefore} before, ${load()} after`,
    );
    for (const [index, round] of rounds.entries()) {
      console.log(
        `round ${index + 1}: longest task after the page's script ${round.longest.toFixed(0)} ms wall, ${round.longestCpu.toFixed(0)} ms CPU (script ${round.script} ms wall/CPU, of which core applying the streams ${round.streams}), ${round.longTasks} tasks over 50 ms, all mounted after ${round.allMounted.toFixed(0)} ms; longest tasks (wall/CPU ms) ${round.tasks}`,
      );
    }
  }
} finally {
  await launched.close();
  await server.close();
}
