/**
 * The example gallery end to end: every official example renders cleanly, a pasted invalid stream
 * is rejected with all its errors, and a dropped event stream recovers by itself.
 */
import { fileURLToPath } from 'node:url';
import { getServerMessageKind, getSurfaceId } from '@a2ui-ts/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExampleStream, loadExampleStreams } from '../agents/example-streams.js';
import { GALLERY_CONTROLS_SURFACE_ID, GALLERY_ERRORS_SURFACE_ID } from '../agents/gallery-agent.js';
import {
  type DemoHarness,
  galleryTestAgent,
  inspectorCounts,
  startHarness,
} from './demo-harness.js';
import { createSseFault } from './sse-fault.js';

const examples = loadExampleStreams();

/** Ids of the surfaces an example leaves on screen. */
function surfacesOf(messages: readonly unknown[]): string[] {
  const alive = new Set<string>();
  for (const message of messages) {
    const surfaceId = getSurfaceId(message);
    if (surfaceId === undefined) continue;
    if (getServerMessageKind(message) === 'createSurface') alive.add(surfaceId);
    if (getServerMessageKind(message) === 'deleteSurface') alive.delete(surfaceId);
  }
  return [...alive];
}

async function playExample(page: Page, example: ExampleStream) {
  const controls = page
    .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
    .locator('.a2ui-surface');
  await controls
    .getByRole('tab', { name: example.catalog === 'basic' ? 'Basic catalog' : 'Minimal catalog' })
    .click();
  await controls.getByRole('button', { name: `Play ${example.name}`, exact: true }).click();
  await controls
    .getByText(`Finished “${example.name}”: ${example.messages.length} messages.`)
    .waitFor();
}

const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

/** The gallery, once its controls are ready for a paste. */
async function openGallery(harness: DemoHarness) {
  const opened = await harness.open('/?agent=gallery');
  await opened.page
    .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
    .getByText('Pick an example to stream it message by message.')
    .waitFor();
  return opened;
}

describe('example gallery in Chromium', () => {
  let harness: DemoHarness;
  const fault = createSseFault();

  beforeAll(async () => {
    harness = await startHarness({
      agents: [galleryTestAgent(), galleryTestAgent({ defaultDelayMs: 40 }, 'gallery-slow')],
      configure: (app) => fault.install(app),
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('renders every official example with no error in the inspector', async () => {
    const { page, pageErrors } = await harness.open('/?agent=gallery');
    await page
      .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
      .getByText('Pick an example to stream it message by message.')
      .waitFor();
    for (const example of examples) {
      await playExample(page, example);
      const surfaces = surfacesOf(example.messages);
      expect(surfaces.length).toBeGreaterThan(0);
      for (const surfaceId of surfaces) {
        const card = page.getByTestId(`surface-${surfaceId}`);
        await card.waitFor();
        // Rendered completely: the root exists, no child is still pending, no unknown-type fallback.
        await card.locator('[data-a2ui-id="root"]').first().waitFor();
        expect(await card.locator('[data-a2ui-pending]').count()).toBe(0);
        expect(await card.locator('[data-a2ui-unknown]').count()).toBe(0);
      }
      await harness.screenshot(
        page.getByTestId(`surface-${surfaces[0]}`),
        `gallery-${example.file.replace(/\.json$/, '')}`,
      );
      const counts = await inspectorCounts(page);
      expect(counts.errors, `inspector errors after ${example.file}`).toBe(0);
    }
    await harness.screenshot(page, 'gallery-page');
    expect(await page.getByTestId('inspector-log').locator('[data-valid="false"]').count()).toBe(0);
    // The examples show images and videos from the web; test machines are offline.
    expect(
      pageErrors.filter((error) => !error.startsWith('Failed to load resource: net::')),
    ).toEqual([]);
    await page.close();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`brings a newly created surface into view at ${viewport.width} px`, async () => {
      const { page, pageErrors } = await harness.open('/?agent=gallery', viewport);
      const example = examples.find((entry) => entry.file === '36_modal.json')!;
      // The last example of the list: playing it leaves the window scrolled down to its button.
      await playExample(page, example);
      const [surfaceId] = surfacesOf(example.messages);
      await page.getByTestId(`surface-${surfaceId}`).waitFor();
      await page.waitForFunction((id) => {
        const card = document.querySelector(`[data-testid="surface-${id}"]`);
        const top = card?.getBoundingClientRect().top;
        return top !== undefined && top >= 0 && top < window.innerHeight / 2;
      }, surfaceId);
      await harness.screenshot(page, `gallery-revealed-${viewport.width}`);
      expect(pageErrors).toEqual([]);
      await page.close();
    });
  }

  it('keeps a disabled Button in a Row its own size, its reason beneath it, not stretched to the reason', async () => {
    const { page, pageErrors } = await openGallery(harness);
    const reason = 'Type your full name in the field above before sending this form.';
    const button = (id: string, checks?: unknown[]) => [
      {
        id,
        component: 'Button',
        child: `${id}-label`,
        action: { event: { name: id } },
        ...(checks ? { checks } : {}),
      },
      { id: `${id}-label`, component: 'Text', text: 'Send' },
    ];
    const stream = [
      { version: 'v0.9', createSurface: { surfaceId: 'row-buttons', catalogId: BASIC } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'row-buttons',
          components: [
            { id: 'root', component: 'Row', children: ['title', 'enabled', 'disabled'] },
            { id: 'title', component: 'Text', text: 'Your order', weight: 1 },
            ...button('enabled'),
            ...button('disabled', [
              {
                condition: { call: 'required', args: { value: { path: '/name' } } },
                message: reason,
              },
            ]),
          ],
        },
      },
    ];
    await page.getByTestId('stream-input').fill(JSON.stringify(stream));
    await page.getByTestId('stream-submit').click();
    const surface = page.getByTestId('surface-row-buttons').locator('.a2ui-surface');
    await surface.getByText(reason).waitFor();
    const boxOf = async (id: string) =>
      (await surface.locator(`[data-a2ui-id="${id}"] > button`).boundingBox())!;
    const enabled = await boxOf('enabled');
    const disabled = await boxOf('disabled');
    expect(disabled.width).toBeCloseTo(enabled.width, 0);
    expect(disabled.height).toBeCloseTo(enabled.height, 0);
    // The reason wraps rather than crowding the weighted title out of the row.
    const title = (await surface.locator('[data-a2ui-id="title"]').boundingBox())!;
    expect(title.width).toBeGreaterThan(disabled.width);
    await harness.screenshot(page, 'gallery-row-disabled-button');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('rejects a pasted invalid stream, lists every error by its line, marks the lines and renders nothing broken', async () => {
    const { page, pageErrors } = await openGallery(harness);
    const stream = [
      { version: 'v0.9', createSurface: { surfaceId: 'pasted', catalogId: BASIC } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'pasted',
          components: [{ id: 'root', component: 'Text', variant: 'h1' }],
        },
      },
      {
        version: 'v0.9',
        updateComponents: { surfaceId: 'pasted', components: [{ id: 'x', component: 'Blink' }] },
      },
      { version: 'v0.9', updateDataModel: { surfaceId: 'nowhere', path: '/x', value: 1 } },
      { version: '0.8', deleteSurface: { surfaceId: 'pasted' } },
    ]
      .map((message) => JSON.stringify(message))
      .join('\n');
    const receivedBefore = (await inspectorCounts(page)).received;
    const input = page.getByTestId('stream-input');
    await input.fill(stream);
    await page.getByTestId('stream-submit').click();

    const errors = page
      .getByTestId(`surface-${GALLERY_ERRORS_SURFACE_ID}`)
      .locator('.a2ui-surface');
    await errors.getByText('“Pasted stream” has 4 problems; nothing was streamed.').waitFor();
    // One numbering, the line of the text: where (line, code, pointer), then what is wrong.
    await errors
      .getByText('Line 2 · VALIDATION_FAILED at /updateComponents/components/0/text')
      .waitFor();
    await errors.getByText(/^Line 3 · /).waitFor();
    await errors.getByText(/^Unknown component type "Blink"/).waitFor();
    await errors.getByText(/^Line 4 · /).waitFor();
    await errors.getByText('Line 5 · VALIDATION_FAILED at /version').waitFor();
    await errors.getByText(/^Unsupported protocol version '0.8'/).waitFor();
    const listed = (await errors.textContent()) ?? '';
    expect(listed).not.toMatch(/pasted message|pasted:\d|fallback/);
    // The text field says which lines, and the first one is selected in it.
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await input.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain(
      'problems on lines 2, 3, 4 and 5 (the first is selected)',
    );
    expect(
      await input.evaluate((area: HTMLTextAreaElement) =>
        area.value.slice(area.selectionStart, area.selectionEnd),
      ),
    ).toBe(stream.split('\n')[1]);
    await harness.screenshot(page, 'gallery-invalid-stream');

    expect(await page.getByTestId('surface-pasted').count()).toBe(0);
    const counts = await inspectorCounts(page);
    expect(counts.errors).toBe(0);
    expect(counts.received).toBeGreaterThan(receivedBefore);
    expect(await page.locator('[data-a2ui-unknown], [data-a2ui-pending]').count()).toBe(0);
    // Edited, the text is no longer the one the lines are about.
    await input.press('End');
    await input.type(' ');
    expect(await input.getAttribute('aria-invalid')).toBeNull();
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('says an uploaded stream is too large before sending it', async () => {
    const { page, pageErrors } = await harness.open('/?agent=gallery');
    await page
      .getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`)
      .getByText('Pick an example to stream it message by message.')
      .waitFor();
    const sentBefore = (await inspectorCounts(page)).sent;
    const line = JSON.stringify({ version: 'v0.9', deleteSurface: { surfaceId: 'x' } });
    await page.locator('input[type="file"]').setInputFiles({
      name: 'big.jsonl',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${line}\n`.repeat(12_000)),
    });
    await page.getByText('big.jsonl', { exact: true }).waitFor();
    await page.getByTestId('stream-submit').click();
    await page
      .getByTestId('stream-problem')
      .getByText(/^“big\.jsonl” is 6\d\d(\.\d)? KB; the gallery takes streams up to 512 KB\./)
      .waitFor();
    expect((await inspectorCounts(page)).sent).toBe(sentBefore);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('streams an uploaded sample file', async () => {
    const { page, pageErrors } = await harness.open('/?agent=gallery');
    const controls = page.getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`);
    await controls.getByText('Pick an example to stream it message by message.').waitFor();
    await page
      .locator('input[type="file"]')
      .setInputFiles(
        fileURLToPath(
          new URL(
            '../../../../packages/core/src/testing/fixtures/basic/09_login-form.json',
            import.meta.url,
          ),
        ),
      );
    await page.getByText('09_login-form.json', { exact: true }).waitFor();
    await page.getByTestId('stream-submit').click();
    await controls.getByText('Finished “09_login-form.json”: 3 messages.').waitFor();
    await page
      .getByTestId('surface-gallery-login-form')
      .locator('[data-a2ui-id="root"]')
      .first()
      .waitFor();
    expect((await inspectorCounts(page)).errors).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('recovers from an event stream dropped mid-stream with no lost or repeated message', async () => {
    const example = examples.find((entry) => entry.file === '31_incremental-dashboard.json')!;
    const { page, pageErrors } = await harness.open('/?agent=gallery-slow');
    const controls = page.getByTestId(`surface-${GALLERY_CONTROLS_SURFACE_ID}`);
    await controls.getByText('Pick an example to stream it message by message.').waitFor();
    const before = await inspectorCounts(page);

    // The status update and two of the example's messages get through, then the link is cut.
    fault.dropAfter(3);
    await playExample(page, example);
    expect(fault.drops).toBe(1);

    const status = page.getByTestId('connection-status');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="connection-status"]')?.getAttribute('data-status') ===
        'open',
    );
    expect(await status.getAttribute('data-reconnects')).toBe('1');
    expect(await status.getAttribute('data-resets')).toBe('0');

    // Exactly the messages the agent sent, once each and in order: two status updates around the stream.
    const after = await inspectorCounts(page);
    expect(after.received - before.received).toBe(example.messages.length + 2);
    const kinds = await page
      .getByTestId('inspector-log')
      .locator('[data-direction="in"]')
      .evaluateAll((entries) => entries.map((entry) => entry.getAttribute('data-kind')).reverse());
    const expected = [
      'updateDataModel',
      ...example.messages.map((message) => getServerMessageKind(message)),
      'updateDataModel',
    ];
    expect(kinds.slice(-expected.length)).toEqual(expected);
    expect(after.errors).toBe(0);
    for (const surfaceId of surfacesOf(example.messages))
      await page.getByTestId(`surface-${surfaceId}`).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await harness.screenshot(page, 'gallery-after-reconnect');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
