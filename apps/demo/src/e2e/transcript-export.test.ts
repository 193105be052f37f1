/**
 * The inspector's transcript export: the JSONL it saves is what `a2ui replay` reads (giving the
 * state the page shows) and what the gallery's upload streams again.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@a2ui-ts/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_CONTROLS_SURFACE_ID } from '../agents/gallery-agent.js';
import {
  type DemoHarness,
  galleryTestAgent,
  restaurantTestAgent,
  startHarness,
} from './demo-harness.js';

describe('transcript export in Chromium', () => {
  let harness: DemoHarness;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'a2ui-transcript-'));
    harness = await startHarness({
      agents: [restaurantTestAgent(), galleryTestAgent()],
    });
  });
  afterAll(async () => {
    await harness?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exports JSONL that a2ui replay rebuilds and the gallery streams again', async () => {
    const { page, pageErrors } = await harness.open('/?agent=restaurant');
    const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
    await search.getByRole('textbox', { name: 'City or restaurant' }).fill('Lyon');
    const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    await search.getByLabel('Date').fill(date);
    await search.getByRole('button', { name: 'Find tables' }).click();
    const summary = '6 restaurants for 2 in “Lyon”';
    await page.getByTestId('surface-booking-results').getByText(summary).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-transcript').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^a2ui-transcript-.+\.jsonl$/);
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const received = Number(await page.getByTestId('received-count').textContent());
    // One line per message; a batch of several messages is several lines, and counts as many.
    expect(lines.length).toBe(received);
    await page.close();

    // a2ui replay: the state the page showed, with no error.
    let out = '';
    const code = await runCli(['replay', file], {
      stdout: (text) => {
        out += text;
      },
      stderr: () => {},
      readStdin: async () => '',
    });
    expect(code).toBe(0);
    const state = JSON.parse(out) as {
      surfaces: Record<string, { dataModel: Record<string, unknown> }>;
      errors: unknown[];
    };
    expect(state.errors).toEqual([]);
    expect(Object.keys(state.surfaces)).toEqual(['booking-search', 'booking-results']);
    expect(state.surfaces['booking-results']!.dataModel.summary).toBe(summary);
    // What the agent sent; the user's typing lives in the client (and in the action it sent).
    expect(state.surfaces['booking-search']!.dataModel.search).toMatchObject({ query: '' });

    // The gallery: upload the export and it streams the same surfaces again.
    const gallery = await harness.open('/?agent=gallery');
    const controls = gallery.page.getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`);
    await controls.getByText('Pick an example to stream it message by message.').waitFor();
    await gallery.page.locator('input[type="file"]').setInputFiles(file);
    await gallery.page.getByTestId('stream-submit').click();
    await controls
      .getByText(`Finished “${download.suggestedFilename()}”: ${lines.length} messages.`)
      .waitFor();
    await gallery.page.getByTestId('surface-booking-results').getByText(summary).waitFor();
    await harness.screenshot(gallery.page, 'transcript-reimported');
    expect(pageErrors).toEqual([]);
    expect(gallery.pageErrors).toEqual([]);
    await gallery.page.close();
  });
});
