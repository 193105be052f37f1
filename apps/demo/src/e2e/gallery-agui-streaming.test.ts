/**
 * The gallery over AG-UI in Chromium, both output modes: each message reaches the page as the
 * agent sends it, in the run already open (a long poll), not with a later run. The agent is paced
 * by a gate the test opens, so nothing here depends on timing.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExampleStreams } from '../agents/example-streams.js';
import { GALLERY_CONTROLS_SURFACE_ID } from '../agents/gallery-agent.js';
import type { Scheduler } from '../agents/scheduler.js';
import { type DemoHarness, galleryTestAgent, startHarness } from './demo-harness.js';

/** A scheduler whose sleeps end only when the test lets them, one per `release`. */
function createGate(): Scheduler & { release(count: number): void; readonly waiting: number } {
  let allowed = 0;
  const waiters: Array<() => void> = [];
  return {
    every: () => () => {},
    sleep(_delayMs, signal) {
      if (allowed > 0) {
        allowed--;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        waiters.push(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
    release(count) {
      for (let index = 0; index < count; index++) {
        const next = waiters.shift();
        if (next) next();
        else allowed++;
      }
    },
    get waiting() {
      return waiters.length;
    },
  };
}

// Its first two messages create the surface and its components; more follow.
const example = loadExampleStreams().find(
  (entry) =>
    entry.catalog === 'basic' &&
    entry.messages.length >= 3 &&
    'createSurface' in (entry.messages[0] as object) &&
    'updateComponents' in (entry.messages[1] as object),
)!;
const surfaceId = (example.messages[0] as { createSurface: { surfaceId: string } }).createSurface
  .surfaceId;

/** Runs of the page's AG-UI client, in the order it started them, and whether each ended. */
function recordRuns(page: Page): Array<{ request: Request; finished: boolean }> {
  const runs: Array<{ request: Request; finished: boolean }> = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/a2ui\/gallery\/agui-/.test(request.url()))
      runs.push({ request, finished: false });
  });
  const end = (request: Request) => {
    const run = runs.find((entry) => entry.request === request);
    if (run) run.finished = true;
  };
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return runs;
}

describe('the gallery over AG-UI in Chromium', () => {
  let harness: DemoHarness;
  const gate = createGate();

  beforeAll(async () => {
    harness = await startHarness({
      agents: [galleryTestAgent({ scheduler: gate })],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  for (const transport of ['agui-state', 'agui-activity']) {
    it(`shows each message of an example as the agent sends it (${transport})`, async () => {
      const { page, pageErrors } = await harness.open(`/?agent=gallery&transport=${transport}`);
      const runs = recordRuns(page);
      const controls = page.getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`);
      await controls.getByText('Pick an example to stream it message by message.').waitFor();
      await controls.getByRole('button', { name: `Play ${example.name}`, exact: true }).click();
      await controls.getByText(`Streaming “${example.name}”`, { exact: false }).waitFor();
      // The agent waits before its first message; the page waits in an open run.
      await expect.poll(() => gate.waiting).toBe(1);
      await expect.poll(() => runs.filter((run) => !run.finished).length).toBe(1);
      const started = runs.length;
      gate.release(2);
      const card = page.getByTestId(`surface-${surfaceId}`);
      await card.locator('[data-a2ui-id="root"]').first().waitFor();
      // The rest is still held back by the gate, and no run was started to fetch what arrived.
      expect(gate.waiting).toBe(1);
      expect(runs.length).toBe(started);
      gate.release(example.messages.length - 2);
      await controls
        .getByText(`Finished “${example.name}”: ${example.messages.length} messages.`)
        .waitFor();
      expect(pageErrors).toEqual([]);
      await page.close();
    });
  }
});
