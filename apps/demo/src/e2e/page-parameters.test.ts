/**
 * `?agent=` and `?transport=` that cannot be honoured are said so on the page, never silently
 * replaced.
 */
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TRANSPORTS } from '../server/transports.js';
import {
  type DemoHarness,
  galleryTestAgent,
  restaurantTestAgent,
  startHarness,
} from './demo-harness.js';

describe('page parameters in Chromium', () => {
  let harness: DemoHarness;
  /** While set, the transports' chunks (`assets/src-*.js`, one per transport package) are 404. */
  let transportChunksGone = false;

  beforeAll(async () => {
    harness = await startHarness({
      agents: [restaurantTestAgent(), galleryTestAgent()],
      unavailableAgents: [
        { id: 'llm', label: 'LLM (not configured)', description: 'Set A2UI_LLM_BASE_URL.' },
      ],
      configure: (app) => {
        app.use('/assets/*', async (c, next) => {
          if (transportChunksGone && /\/assets\/src-[\w-]+\.js$/.test(c.req.path)) {
            return c.text('gone', 404);
          }
          await next();
        });
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('says when the agent does not exist, and which one it shows instead', async () => {
    const { page, pageErrors } = await harness.open('/?agent=weather&transport=sse-jsonrpc');
    await page.getByTestId('surface-booking-search').waitFor();
    const notice = page.getByTestId('selection-notice');
    expect(await notice.textContent()).toContain(
      'There is no agent “weather” (available: Restaurant booking, Example gallery); showing Restaurant booking instead.',
    );
    expect(new URL(page.url()).searchParams.get('agent')).toBe('restaurant');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('says when the agent is not available, and why', async () => {
    const { page, pageErrors } = await harness.open('/?agent=llm');
    await page.getByTestId('surface-booking-search').waitFor();
    expect(await page.getByTestId('selection-notice').textContent()).toContain(
      // What and instead first, then what to do: each a sentence of its own.
      'The agent “LLM (not configured)” is not available; showing Restaurant booking instead. Set A2UI_LLM_BASE_URL.',
    );
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('says so when the chosen transport cannot be loaded (a deploy replaced its chunk)', async () => {
    transportChunksGone = true;
    try {
      const { page } = await harness.open('/?agent=restaurant&transport=rest');
      const alert = page.getByTestId('transport-load-error');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /^Could not load the rest transport \(.+\)\. Reload the page to try again\.$/,
      );
      expect(await page.getByRole('alert').count()).toBe(1);
      expect(await page.getByTestId('surface-booking-search').count()).toBe(0);
      await page.close();
    } finally {
      transportChunksGone = false;
    }
    // The chunks back, the same page address connects.
    const { page, pageErrors } = await harness.open('/?agent=restaurant&transport=rest');
    await page.getByTestId('surface-booking-search').waitFor();
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('says when the transport does not exist', async () => {
    const { page, pageErrors } = await harness.open('/?agent=gallery&transport=carrier-pigeon');
    await page.getByTestId('surface-gallery-controls').waitFor();
    expect(await page.getByTestId('selection-notice').textContent()).toMatch(
      /^There is no transport “carrier-pigeon” \(available: .+\); showing .+ instead\./,
    );
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('switches through every transport with nothing in the console, each link left cleanly', async () => {
    const { page, pageErrors } = await harness.open('/?agent=restaurant&transport=sse-jsonrpc');
    const failures: string[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/a2ui/') && response.status() >= 400)
        failures.push(`${response.status()} ${pathname}`);
    });
    // The REST requests, to see how each ended once the page left REST (aborted: no response).
    const rest: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/a2ui/restaurant/rest/')) rest.push(request);
    });
    const open = page.locator('[data-testid="connection-status"][data-status="open"]');
    const search = page.getByTestId('surface-booking-search').locator('.a2ui-surface');
    await open.waitFor();
    // Every transport the server mounts, back to the first (the one the page opened with).
    const [first, ...others] = SERVER_TRANSPORTS.map((transport) => transport.id);
    expect(first).toBe('sse-jsonrpc');
    for (const transport of [...others, first!]) {
      await page.getByTestId('transport-picker').selectOption(transport);
      await page.waitForURL((url) => url.searchParams.get('transport') === transport);
      await open.waitFor();
      await search.getByRole('heading', { name: 'Find a table' }).waitFor();
    }
    const polls = rest.filter((request) => request.url().includes('/messages?'));
    expect(polls.length).toBeGreaterThan(0);
    // The poll waiting when the page left was ended by the page, not answered 404 by the server.
    const ended = await Promise.all(
      rest.map(async (request) => (await request.response())?.status() ?? 'aborted'),
    );
    expect(ended).not.toContain(404);
    expect(failures).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('shows no notice for a valid choice or none at all', async () => {
    for (const path of ['/?agent=gallery&transport=sse-jsonrpc', '/']) {
      const { page } = await harness.open(path);
      await page.locator('[data-a2ui-surface]').first().waitFor();
      expect(await page.getByTestId('selection-notice').count()).toBe(0);
      await page.close();
    }
  });
});
