// @vitest-environment node
/**
 * The gallery of every example in real Chromium (Debian `chromium` via playwright-core): inputs,
 * keyboard, axe-core, XSS vectors, strict CSP, screenshots under artifacts/react-renderer/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AxeViolation,
  artifactsDir,
  type LaunchedBrowser,
  launchChromium,
  runAxe,
} from '@a2ui-ts/test-browser';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MIN_CHILDREN_PER_COMMIT } from '../../src/renderer/mount-scheduler.js';
import { XSS_BUTTON_IDS } from '../xss-vectors.js';
import { type GalleryServer, startGalleryServer } from './gallery-server.js';

const ARTIFACTS = artifactsDir('react-renderer');

/** Media URLs the examples themselves reference; the only hosts a page may ask for. */
const EXAMPLE_MEDIA_HOSTS = new Set(['images.unsplash.com', 'www.w3schools.com']);

const PLACEHOLDER_IMAGE = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="240"><rect width="400" height="240" fill="#9aa6b2"/></svg>`;

let launched: LaunchedBrowser;
let server: GalleryServer;

interface Session {
  context: BrowserContext;
  page: Page;
  /** Non-local requests, console errors, page errors, dialogs and popups seen so far. */
  external: string[];
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  popups: number;
}

async function open(
  path = '/',
  options: { colorScheme?: 'light' | 'dark'; width?: number } = {},
): Promise<Session> {
  const context = await launched.browser.newContext({
    viewport: { width: options.width ?? 900, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const session: Session = {
    context,
    page: await context.newPage(),
    external: [],
    consoleErrors: [],
    pageErrors: [],
    dialogs: [],
    popups: 0,
  };
  const { page } = session;
  page.setDefaultTimeout(10_000);
  context.on('page', () => {
    session.popups++;
  });
  // The sandbox has no network: answer example images with a placeholder, refuse the rest.
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    session.external.push(url.href);
    if (url.hostname === 'images.unsplash.com')
      return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PLACEHOLDER_IMAGE });
    return route.abort();
  });
  page.on('console', (message) => {
    // Media the sandbox cannot fetch (the trailer video) is not a renderer error.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text()))
      session.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => session.pageErrors.push(String(error)));
  page.on('dialog', async (dialog) => {
    session.dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => window.__gallery?.ready === true);
  // `marked` loads on the first Text holding markdown: until it has, such a Text keeps its place
  // invisibly. Layout and outline checks look at the rendered markdown.
  await page.waitForFunction(() => document.querySelector('.a2ui-markdown-pending') === null);
  return session;
}

/** Serious and critical violations only: the bar this suite has held since it was written. */
function seriousViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  return runAxe(page, { include, impacts: ['serious', 'critical'] });
}

/** The colour of one pixel of `png` (a screenshot), decoded by the page's own canvas. */
function pixelAt(page: Page, png: Buffer, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    async ({ data, x, y }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return [...context.getImageData(x, y, 1, 1).data.slice(0, 3)];
    },
    { data: png.toString('base64'), x, y },
  );
}

/** WCAG relative luminance of an sRGB colour given as 0–255 channels. */
function luminance([red = 0, green = 0, blue = 0]: readonly number[]): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}

beforeAll(async () => {
  [launched, server] = await Promise.all([launchChromium(), startGalleryServer()]);
  await mkdir(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await launched?.close();
  await server?.close();
});

describe('gallery in Chromium', () => {
  it('renders every example with zero errors and asks the network only for example media', async () => {
    const session = await open();
    const { page } = session;
    const state = await page.evaluate(() => window.__gallery);
    expect(state.errors.filter((error) => !error.surfaceId?.startsWith('xss'))).toEqual([]);
    const surfaces = await page.locator('.a2ui-surface').count();
    expect(surfaces).toBe(16);
    expect(await page.locator('.a2ui-placeholder, .a2ui-fallback, .a2ui-diagnostic').count()).toBe(
      0,
    );
    // Icons are bundled: every drawn icon has path data, none came from the network.
    expect(await page.locator('svg.a2ui-icon path').count()).toBeGreaterThan(5);
    for (const url of session.external)
      expect(EXAMPLE_MEDIA_HOSTS.has(new URL(url).hostname), url).toBe(true);
    expect(session.pageErrors).toEqual([]);
    expect(session.consoleErrors).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'gallery-light.png'), fullPage: true });
    await session.context.close();
  });

  it('at 390 px no word or number is split across lines and nothing overflows sideways', async () => {
    const session = await open('/', { width: 390 });
    const { page } = session;
    // Every pair of neighbouring word characters (letters, digits, and the , . of a number
    // between digits) must sit on one line: a line break between them split a word or number.
    const splits = await page.evaluate(() => {
      const word = /[\p{L}\p{N}]/u;
      const found: string[] = [];
      const walker = document.createTreeWalker(
        document.getElementById('app')!,
        NodeFilter.SHOW_TEXT,
      );
      const range = document.createRange();
      const topOf = (node: Text, index: number) => {
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        return range.getClientRects()[0]?.top;
      };
      for (
        let node = walker.nextNode() as Text | null;
        node;
        node = walker.nextNode() as Text | null
      ) {
        if (node.parentElement?.closest('.a2ui-sr-only, script, style')) continue;
        const text = node.data;
        for (let index = 0; index + 1 < text.length; index++) {
          const here = text[index]!;
          const next = text[index + 1]!;
          const inNumber = /[,.]/.test(next) && /\d/.test(here) && /\d/.test(text[index + 2] ?? '');
          if (!(word.test(here) && (word.test(next) || inNumber))) continue;
          const a = topOf(node, index);
          const b = topOf(node, inNumber ? index + 2 : index + 1);
          if (a !== undefined && b !== undefined && Math.abs(a - b) > 2) {
            const start = text.lastIndexOf(' ', index) + 1;
            const end = text.indexOf(' ', index + 1);
            found.push(text.slice(start, end === -1 ? undefined : end));
          }
        }
      }
      return found;
    });
    await page.screenshot({ path: join(ARTIFACTS, 'gallery-390.png'), fullPage: true });
    expect(splits).toEqual([]);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await session.context.close();
  });

  it('interacts: login validation, tabs by keyboard, chips, slider-free examples, modal focus', async () => {
    const session = await open();
    const { page } = session;
    const login = page.locator('#ex-09_login-form');
    const email = login.getByLabel('Email');
    const signIn = login.getByRole('button', { name: 'Sign in' });
    await expect.poll(() => signIn.isDisabled()).toBe(true);
    await email.fill('not-an-email');
    await login.getByText('Please enter a valid email address').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({
      path: join(ARTIFACTS, 'login-invalid.png'),
      clip: (await login.boundingBox())!,
    });
    await email.fill('ada@example.com');
    await login.getByLabel('Password').fill('correct horse');
    await signIn.click();
    await page.waitForFunction(() =>
      window.__gallery.sent.some(
        (message) => 'action' in message && message.action.name === 'login',
      ),
    );

    const recipe = page.locator('#ex-24_recipe-card');
    await recipe.getByRole('tab', { name: 'Overview' }).focus();
    await page.keyboard.press('ArrowRight');
    await recipe.getByText('1 cup quinoa').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Ingredients');
    await page.keyboard.press('End');
    await recipe.getByText('Fluff with a fork and let cool.', { exact: false }).waitFor();

    const purchase = page.locator('#ex-19_software-purchase');
    await purchase.getByText('Monthly').click();
    expect(await purchase.getByRole('radio', { name: 'Monthly' }).isChecked()).toBe(true);

    const modal = page.locator('#ex-36_modal');
    const trigger = modal.getByRole('button', { name: 'Open Modal' });
    await trigger.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'modal-open.png') });
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Open Modal');

    const task = page.locator('#ex-07_task-card');
    await task.getByRole('checkbox').check();
    const due = task.getByLabel('Due');
    await due.fill('2026-01-02T03:04');
    expect(await due.inputValue()).toBe('2026-01-02T03:04');
    expect(session.pageErrors).toEqual([]);
    await session.context.close();
  });

  it('axe-core finds no serious or critical violation, light and dark, with the modal open', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const session = await open('/', { colorScheme });
      const { page } = session;
      expect(JSON.stringify(await seriousViolations(page), null, 1), `${colorScheme} gallery`).toBe(
        '[]',
      );
      await page.locator('#ex-36_modal').getByRole('button', { name: 'Open Modal' }).click();
      await page.getByRole('dialog').waitFor();
      expect(await seriousViolations(page, '.a2ui-modal-layer'), `${colorScheme} dialog`).toEqual(
        [],
      );
      await page.keyboard.press('Escape');
      // Validation messages shown and a second tab selected.
      await page.locator('#ex-09_login-form').getByLabel('Email').fill('x');
      await page.locator('#ex-24_recipe-card').getByRole('tab', { name: 'Instructions' }).click();
      expect(await seriousViolations(page), `${colorScheme} after interaction`).toEqual([]);
      if (colorScheme === 'dark')
        await page.screenshot({ path: join(ARTIFACTS, 'gallery-dark.png'), fullPage: true });
      await session.context.close();
    }
  });

  it('v1.0: live, hidden, a ValidationResult warning, placeholder and steps are accessible, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const session = await open('/?only=v1-accessibility', { colorScheme });
      const { page } = session;
      const section = page.locator('#v1-accessibility');
      const part = (id: string) => section.locator(`[data-a2ui-id="${id}"]`);
      expect(await page.evaluate(() => window.__gallery.errors)).toEqual([]);
      // Explicit label and description win over the visible "Mute".
      const mute = section.getByRole('button', { name: 'Mute Notifications' });
      const describedBy = (await mute.getAttribute('aria-describedby'))!;
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(
        'Silences notifications about this conversation',
      );
      expect(await part('status_text').getAttribute('aria-live')).toBe('polite');
      expect(await part('alert_box').getAttribute('aria-live')).toBe('assertive');
      expect(await section.getByText('Critical Alert').count()).toBe(1);
      // The hidden group: in the page, out of the accessibility tree and the tab order.
      expect(await part('hidden_group').getAttribute('aria-hidden')).toBe('true');
      expect(await section.getByText('Visible Content').isVisible()).toBe(true);
      expect(await section.getByRole('img', { name: 'star' }).count()).toBe(0);
      expect(await section.getByRole('button', { name: 'Decorate' }).count()).toBe(0);
      await mute.focus();
      const focused: string[] = [];
      for (let step = 0; step < 6; step++) {
        await page.keyboard.press('Tab');
        focused.push(
          await page.evaluate(
            () =>
              document.activeElement?.closest('[data-a2ui-id]')?.getAttribute('data-a2ui-id') ?? '',
          ),
        );
      }
      expect(focused).not.toContain('hidden_button');
      // A named separator and a described Text: label and description reach ARIA.
      const rule = section.getByRole('separator', { name: 'Payment' });
      expect(await rule.getAttribute('aria-describedby')).toBeTruthy();
      expect(
        await page.locator(`[id="${await rule.getAttribute('aria-describedby')}"]`).textContent(),
      ).toBe('Card details follow');
      const note = part('note');
      expect(
        await page.locator(`[id="${await note.getAttribute('aria-describedby')}"]`).textContent(),
      ).toBe('In euros');
      expect(focused).toContain('card');
      // A ValidationResult warning is shown with its severity, not as invalid.
      const card = section.getByRole('textbox', { name: 'Card number' });
      expect(await card.getAttribute('placeholder')).toBe('e.g. 4111 1111 1111 1111');
      expect(await card.getAttribute('aria-invalid')).toBeNull();
      expect(await section.locator('[data-a2ui-severity="warning"]').textContent()).toBe(
        'Warning: Unusual card number.',
      );
      expect(await section.getByRole('slider', { name: 'Volume' }).getAttribute('step')).toBe('2');
      const violations = await runAxe(page, { include: '#v1-accessibility' });
      expect(JSON.stringify(violations, null, 1), colorScheme).toBe('[]');
      await page.screenshot({
        path: join(ARTIFACTS, `v1-accessibility-${colorScheme}.png`),
        clip: (await section.boundingBox())!,
      });
      expect(session.pageErrors).toEqual([]);
      expect(session.consoleErrors).toEqual([]);
      await session.context.close();
    }
  });

  it("minHeadingLevel 3: the page's h1 stays the only one, agent headings sit under the sections' h2s and keep their look", async () => {
    // Without it, the examples' h1 variants and markdown `#` lines add h1s to the page.
    const plain = await open('/');
    const levels = (page: Page) =>
      page.evaluate(() =>
        [...document.querySelectorAll('.a2ui-surface :is(h1, h2, h3, h4, h5, h6)')].map(
          (heading) => heading.tagName,
        ),
      );
    // A Text of variant h1 and a markdown `# Heading 1`: element and font size.
    const sizeOf = (page: Page) =>
      Promise.all(
        ['#ex-03_calendar-day .a2ui-text-h1', '#ex-35_markdown-text .a2ui-markdown-h1'].map(
          (selector) =>
            page
              .locator(selector)
              .evaluate((heading) => [heading.tagName, getComputedStyle(heading).fontSize]),
        ),
      );
    const before = await levels(plain.page);
    expect(before.filter((tag) => tag === 'H1').length).toBeGreaterThanOrEqual(3);
    const plainSizes = await sizeOf(plain.page);
    expect(plainSizes.map(([tag]) => tag)).toEqual(['H1', 'H1']);
    await plain.context.close();

    const session = await open('/?headings=3');
    const { page } = session;
    expect(await page.locator('h1').allTextContents()).toEqual(['A2UI gallery']);
    const after = await levels(page);
    expect(after).toHaveLength(before.length);
    expect(after.filter((tag) => tag === 'H1' || tag === 'H2')).toEqual([]);
    // Every agent heading moved down by two levels (h5 and h6 stay h6).
    expect(after).toEqual(before.map((tag) => `H${Math.min(6, Number(tag.slice(1)) + 2)}`));
    expect(await sizeOf(page)).toEqual(plainSizes.map(([, size]) => ['H3', size]));
    await page.getByRole('heading', { level: 3, name: 'Invitation Builder' }).waitFor();
    await page.getByRole('heading', { level: 3, name: 'Heading 1' }).waitFor();
    expect(session.pageErrors).toEqual([]);
    await session.context.close();
  });

  it("a Slider's unfilled track follows the theme: dark on a dark surface, even under a dark agent colour", async () => {
    for (const colorScheme of ['dark', 'light'] as const) {
      const session = await open('/?only=slider-theme', { colorScheme });
      const { page } = session;
      const slider = page.getByRole('slider', { name: 'Party size' });
      expect(await slider.inputValue()).toBe('3');
      const track = await slider.evaluate((input) =>
        getComputedStyle(input).getPropertyValue('--a2ui-color-slider-track').trim(),
      );
      expect(track).toBe(colorScheme === 'dark' ? '#5c5f61' : '#c4c7c5');
      // What is painted: the track right of the thumb (value 3 of 10), at the input's middle.
      const box = (await slider.boundingBox())!;
      const shot = await slider.screenshot();
      const scale = (await page.evaluate(() => devicePixelRatio)) || 1;
      const unfilled = await pixelAt(
        page,
        shot,
        Math.round((box.width - 12) * scale),
        Math.round((box.height / 2) * scale),
      );
      if (colorScheme === 'dark') expect(luminance(unfilled)).toBeLessThan(0.2);
      else expect(luminance(unfilled)).toBeGreaterThan(0.4);
      expect(session.pageErrors).toEqual([]);
      await session.context.close();
    }
  });

  it('5,000 template items mount a slice at a time: a click beside the list is handled while it grows, and all appear', async () => {
    // Held after its first commit (32 items at mountSliceMs 0) until the click was handled.
    const session = await open('/?only=large-list&hold');
    const { page } = session;
    const rows = page.locator('#large-list [data-a2ui-id="row"]');
    const surface = page.locator('#large-list .a2ui-surface');
    expect(await rows.count()).toBe(MIN_CHILDREN_PER_COMMIT);
    expect(await surface.getAttribute('aria-busy')).toBe('true');
    await page.getByRole('button', { name: 'Clicked 0' }).click();
    // The click's handler ran while the list was still growing, and its update reached the screen.
    await page.getByRole('button', { name: 'Clicked 1' }).waitFor();
    expect(await page.evaluate(() => window.__gallery.itemsAtClick)).toEqual([
      MIN_CHILDREN_PER_COMMIT,
    ]);
    await page.evaluate(() => window.__gallery.releaseMounts());
    await expect.poll(() => rows.count()).toBe(5000);
    expect(await page.locator('#large-list li').count()).toBe(5000);
    expect(await rows.nth(4999).textContent()).toBe('Item 5000');
    await expect.poll(() => surface.getAttribute('aria-busy')).toBeNull();
    // Mounting in slices keeps the list accessible and the page's tab order intact.
    expect(await seriousViolations(page, '#large-list')).toEqual([]);
    await page.getByRole('button', { name: 'Clicked 1' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Clicked 2' }).waitFor();
    expect(await page.evaluate(() => window.__gallery.errors)).toEqual([]);
    expect(session.pageErrors).toEqual([]);
    expect(session.consoleErrors).toEqual([]);
    await session.context.close();
  });

  it('100 × 100 nested lists and a 10,000-instance static tree mount in slices up to maxRenderedComponents', async () => {
    for (const [section, ids] of [
      ['nested-list', ['group', 'cell']],
      ['fan-out', ['a', 'b', 'c', 'leaf']],
    ] as const) {
      const session = await open(`/?only=${section}&hold`);
      const { page } = session;
      const instances = page.locator(`#${section} [data-a2ui-id]`);
      // root and the first 32 children of the whole surface, not 32 per container.
      expect(await instances.count()).toBe(1 + MIN_CHILDREN_PER_COMMIT);
      await page.evaluate(() => window.__gallery.releaseMounts());
      await expect.poll(() => instances.count()).toBe(10_000);
      await expect
        .poll(() => page.locator(`#${section} .a2ui-surface`).getAttribute('aria-busy'))
        .toBeNull();
      const counts = await Promise.all(
        ids.map((id) => page.locator(`#${section} [data-a2ui-id="${id}"]`).count()),
      );
      expect(counts.reduce((sum, count) => sum + count, 1)).toBe(10_000);
      expect(await page.locator(`#${section} [data-a2ui-not-rendered]`).count()).toBeGreaterThan(0);
      const errors = await page.evaluate(() => window.__gallery.errors);
      expect(errors.map((error) => error.code)).toEqual(['LIMIT_EXCEEDED']);
      expect(session.pageErrors).toEqual([]);
      await session.context.close();
    }
  });

  it('with the default pacing, the first commit of a large surface mounts 32 children, and every child follows', async () => {
    for (const [section, total] of [
      ['large-list', 5001],
      ['nested-list', 10_000],
      ['fan-out', 10_000],
    ] as const) {
      // Held after the first commit: what the first paint shows, on any machine.
      const session = await open(`/?only=${section}&hold=default`);
      const { page } = session;
      const instances = page.locator(`#${section} [data-a2ui-id]`);
      expect(await instances.count(), section).toBe(1 + MIN_CHILDREN_PER_COMMIT);
      await page.evaluate(() => window.__gallery.releaseMounts());
      await expect.poll(() => instances.count()).toBe(total);
      await expect
        .poll(() => page.locator(`#${section} .a2ui-surface`).getAttribute('aria-busy'))
        .toBeNull();
      // None of them is kept from assistive technology.
      expect(await page.locator(`#${section} [aria-hidden="true"] [data-a2ui-id]`).count()).toBe(0);
      expect(session.pageErrors).toEqual([]);
      await session.context.close();
    }
  });

  it('XSS vectors execute nothing: no script, no dialog, no popup, no hostile navigation', async () => {
    const session = await open('/?only=xss');
    const { page } = session;
    const xss = page.locator('#xss');
    // Activate everything that could carry a payload.
    for (const id of XSS_BUTTON_IDS) await xss.locator(`[data-a2ui-id="${id}"]`).click();
    await xss.locator('[data-a2ui-id="md-6"]').hover();
    await xss.getByRole('tab').first().click();
    await xss.getByRole('textbox').fill('<img src=x onerror=window.__xss=1>');
    // Give any scheduled payload (image error handlers, navigations) a frame to run.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
    );
    const result = await page.evaluate(() => ({
      xss: (window as { __xss?: unknown }).__xss,
      opened: window.__gallery.opened,
      scripts: document.querySelectorAll(
        '#app script, #app iframe, #app object, #app embed, #app a',
      ).length,
      handlers: [...document.querySelectorAll('#app *')].flatMap((element) =>
        [...element.attributes]
          .filter((attribute) => attribute.name.startsWith('on'))
          .map((attribute) => attribute.name),
      ),
      urls: [...document.querySelectorAll('#app [src], #app [href]')].map(
        (element) => element.getAttribute('src') ?? element.getAttribute('href'),
      ),
      blocked: window.__gallery.errors.filter((error) => error.code === 'URL_BLOCKED').length,
      location: location.href,
    }));
    expect(result.xss).toBeUndefined();
    expect(result.opened).toEqual([]);
    expect(result.scripts).toBe(0);
    expect(result.handlers).toEqual([]);
    for (const url of result.urls) expect(url).toMatch(/^https?:/);
    expect(result.blocked).toBeGreaterThan(0);
    expect(result.location).toBe(`${server.url}/?only=xss`);
    expect(session.dialogs).toEqual([]);
    expect(session.popups).toBe(0);
    expect(session.pageErrors).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'xss.png'), fullPage: true });
    await session.context.close();
  });

  it('runs under a strict Content-Security-Policy (no eval, no inline script)', async () => {
    const session = await open('/csp');
    const { page } = session;
    const violations = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const seen: string[] = [];
          document.addEventListener('securitypolicyviolation', (event) =>
            seen.push(`${event.violatedDirective} ${event.blockedURI}`),
          );
          requestAnimationFrame(() => setTimeout(() => resolve(seen), 0));
        }),
    );
    expect(violations.filter((violation) => !violation.includes('xss'))).toEqual([]);
    expect(await page.locator('.a2ui-surface').count()).toBe(16);
    const errors = await page.evaluate(() =>
      window.__gallery.errors.filter((error) => !error.surfaceId?.startsWith('xss')),
    );
    expect(errors).toEqual([]);
    expect(session.pageErrors).toEqual([]);
    await session.context.close();
  });
});
