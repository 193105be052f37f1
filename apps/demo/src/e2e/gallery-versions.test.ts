/**
 * The gallery streams one official example in v0.8, v0.9 and v1.0 (issue 19, "Everywhere the
 * version shows"): the client renders each surface in the version it was created in, and a
 * person reads the same text whichever version carried it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExampleStreams } from '../agents/example-streams.js';
import { GALLERY_CONTROLS_SURFACE_ID, GALLERY_ECHO_SURFACE_ID } from '../agents/gallery-agent.js';
import {
  type DemoHarness,
  galleryTestAgent,
  inspectorCounts,
  startHarness,
} from './demo-harness.js';

// No templated list (v0.8 has no arrays: a migrated list is a map the template does not iterate)
// and nothing v0.8 or v1.0 drops but heading variants, which change no text.
const example = loadExampleStreams().find((entry) => entry.file === '29_movie-card.json')!;
const SURFACE_ID = 'gallery-movie-card';
const minimal = loadExampleStreams().filter((entry) => entry.catalog === 'minimal');
const basic = loadExampleStreams().filter((entry) => entry.catalog === 'basic');

/** Picks `version` in the gallery's "Protocol version" picker, plays the example, waits for its end. */
async function playIn(page: Page, version: string): Promise<string> {
  const controls = page
    .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
    .locator('.a2ui-surface');
  await controls
    .getByRole('group', { name: 'Protocol version' })
    .getByRole('radio', { name: version, exact: true })
    .check();
  await controls.getByRole('button', { name: `Play ${example.name}`, exact: true }).click();
  const title = version === 'v0.9' ? example.name : `${example.name} (${version})`;
  await controls.getByText(`Finished “${title}”`).waitFor();
  const card = page.getByTestId(`surface-${SURFACE_ID}`);
  await card.locator('[data-a2ui-id="root"]').first().waitFor();
  expect(await card.locator('[data-a2ui-pending]').count(), `pending in ${version}`).toBe(0);
  expect(
    await card.locator('[data-a2ui-unknown]').count(),
    `unknown components in ${version}`,
  ).toBe(0);
  // The catalog badge names the catalog, never its raw id (which overflowed the card at 390 px).
  expect(await card.locator('.badge').first().textContent(), `catalog badge in ${version}`).toMatch(
    /^(basic|standard)$/,
  );
  return ((await card.locator('.a2ui-surface').textContent()) ?? '').trim();
}

/**
 * Plays the login form in `version` over `transport`, signs in, and resolves with the echo
 * surface's text: the action went from a surface of that version through the transport to the
 * agent and back.
 */
async function signInOver(harness: DemoHarness, transport: string, version: string) {
  const { page, pageErrors } = await harness.open(`/?agent=gallery&transport=${transport}`);
  const controls = page
    .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
    .locator('.a2ui-surface');
  await controls.getByText('Pick an example to stream it message by message.').waitFor();
  await controls
    .getByRole('group', { name: 'Protocol version' })
    .getByRole('radio', { name: version, exact: true })
    .check();
  await controls
    .getByRole('button', { name: 'Play Login Form with Validation', exact: true })
    .click();
  await controls.getByText(`Finished “Login Form with Validation (${version})”`).waitFor();
  const form = page.getByTestId('surface-gallery-login-form');
  await form.getByLabel('Email').fill('ada@example.com');
  await form.getByLabel('Password').fill('correct horse battery');
  await form.getByRole('button', { name: 'Sign in' }).click();
  const echo = page.getByTestId(`surface-${GALLERY_ECHO_SURFACE_ID}`);
  await echo.getByText('Action “login” received').waitFor();
  const text = (await echo.textContent()) ?? '';
  const errors = pageErrors.filter((error) => !error.startsWith('Failed to load resource: net::'));
  await page.close();
  return { text, errors };
}

describe('gallery versions in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({ agents: [galleryTestAgent()] });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('streams the movie card in v0.8, v0.9 and v1.0 and shows the same text', async () => {
    const { page, pageErrors } = await harness.open('/?agent=gallery');
    await page
      .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
      .getByText('Pick an example to stream it message by message.')
      .waitFor();
    const texts: Record<string, string> = {};
    for (const version of ['v0.9', 'v0.8', 'v1.0']) {
      texts[version] = await playIn(page, version);
      await harness.screenshot(
        page.getByTestId(`surface-${SURFACE_ID}`),
        `gallery-movie-${version}`,
      );
      expect((await inspectorCounts(page)).errors, `inspector errors in ${version}`).toBe(0);
    }
    expect(texts['v0.9']).toContain('Interstellar');
    expect(texts['v0.8']).toBe(texts['v0.9']);
    expect(texts['v1.0']).toBe(texts['v0.9']);
    // The surface was streamed three times and deleted twice, each time in its own version.
    expect(await page.getByTestId(`surface-${SURFACE_ID}`).count()).toBe(1);
    expect(await page.getByTestId('inspector-log').locator('[data-valid="false"]').count()).toBe(0);
    // The example shows a poster from the web; test machines are offline.
    expect(
      pageErrors.filter((error) => !error.startsWith('Failed to load resource: net::')),
    ).toEqual([]);
    await page.close();
  });

  // Actions on converted surfaces travel in v0.9's shape over the bindings, which carry v0.9
  // client messages (the v0.8 userAction and the v1.0 envelope were refused, silently).
  it.each([
    ['ws', 'v0.8'],
    ['rest', 'v0.8'],
    ['a2a', 'v1.0'],
    ['ws', 'v1.0'],
  ])('echoes a sign-in over %s from the login form in %s', async (transport, version) => {
    const { text, errors } = await signInOver(harness, transport, version);
    expect(text).toContain('ada@example.com');
    expect(errors).toEqual([]);
  });

  it('disables the minimal-catalog Play buttons, with the reason beneath them, outside v0.9', async () => {
    const { page, pageErrors } = await harness.open('/?agent=gallery');
    const controls = page
      .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
      .locator('.a2ui-surface');
    await controls.getByText('Pick an example to stream it message by message.').waitFor();
    await controls.getByRole('tab', { name: 'Minimal catalog' }).click();
    const plays = minimal.map((entry) =>
      controls.getByRole('button', { name: `Play ${entry.name}`, exact: true }),
    );
    const reason = 'v0.9 only';
    // An enabled Play of the basic catalog: a disabled one keeps its size, not its reason's.
    const basicPlay = controls.getByRole('button', { name: `Play ${basic[0]!.name}`, exact: true });
    for (const version of ['v1.0', 'v0.8', 'v0.9']) {
      await controls
        .getByRole('group', { name: 'Protocol version' })
        .getByRole('radio', { name: version, exact: true })
        .check();
      for (const play of plays) {
        if (version === 'v0.9') {
          await expect.poll(() => play.isEnabled(), { message: `Play in ${version}` }).toBe(true);
        } else {
          await expect.poll(() => play.isDisabled(), { message: `Play in ${version}` }).toBe(true);
        }
      }
      const reasons = controls.getByText(reason, { exact: true });
      expect(await reasons.count(), `reasons in ${version}`).toBe(
        version === 'v0.9' ? 0 : minimal.length,
      );
      if (version === 'v0.8') {
        await harness.screenshot(page, 'gallery-minimal-v0.8');
        await controls.getByRole('tab', { name: 'Basic catalog' }).click();
        const enabledWidth = (await basicPlay.boundingBox())!.width;
        await controls.getByRole('tab', { name: 'Minimal catalog' }).click();
        for (const play of plays) {
          expect((await play.boundingBox())!.width).toBeCloseTo(enabledWidth, 0);
        }
      }
    }
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
