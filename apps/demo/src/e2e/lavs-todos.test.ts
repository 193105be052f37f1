/**
 * The LAVS todos in Chromium: two pages on two transports (WebSocket and SSE + JSON-RPC) show the
 * todo-manager service's live surface; one adds, ticks and saves, deletes — and the other page
 * follows each change, as both follow a change made to the service from outside (the LLM agent's
 * tools call the same runtime). First, how it looks to a new user at 1280 and 390 px, light and
 * dark: an empty list says so, columns and fields carry human labels, a disabled button's label
 * keeps 3:1 against its fill (WCAG 1.4.11), and every badge keeps a visible outline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DemoTodoService, startDemoTodoService } from '../agents/lavs-todo-agent.js';
import { type DemoHarness, inspectorCounts, startHarness } from './demo-harness.js';

let harness: DemoHarness;
let todos: DemoTodoService;

beforeAll(async () => {
  todos = startDemoTodoService();
  harness = await startHarness({
    agents: [{ id: 'todos', label: 'Todos', description: 'LAVS.', agent: todos.agent }],
  });
});
afterAll(async () => {
  await harness?.close();
  await todos?.close();
});

const surface = (page: Page) =>
  page.getByTestId('surface-lavs-todo-manager').locator('.a2ui-surface');

/**
 * The contrast ratio (WCAG 2.x) of `element`'s label against its own fill, as painted: the fill
 * over the first opaque background behind it, the label over the fill, and both faded by the
 * element's `opacity` onto what is behind it.
 */
function labelContrast(element: Element): number {
  type Rgb = { r: number; g: number; b: number };
  const parse = (value: string) => {
    const [r = 0, g = 0, b = 0, a = 1] = (value.match(/[\d.]+/g) ?? []).map(Number);
    return { r, g, b, a: value.startsWith('rgba') ? a : 1 };
  };
  const over = (top: Rgb, alpha: number, under: Rgb): Rgb => ({
    r: top.r * alpha + under.r * (1 - alpha),
    g: top.g * alpha + under.g * (1 - alpha),
    b: top.b * alpha + under.b * (1 - alpha),
  });
  const translucent: Array<Rgb & { a: number }> = [];
  let behind: Rgb = { r: 255, g: 255, b: 255 };
  for (let node = element.parentElement; node !== null; node = node.parentElement) {
    const background = parse(getComputedStyle(node).backgroundColor);
    if (background.a === 1) {
      behind = background;
      break;
    }
    if (background.a > 0) translucent.push(background);
  }
  for (const layer of translucent.reverse()) behind = over(layer, layer.a, behind);
  const style = getComputedStyle(element);
  const opacity = Number(style.opacity);
  const fillColor = parse(style.backgroundColor);
  const fill = over(fillColor, fillColor.a, behind);
  const textColor = parse(style.color);
  const label = over(over(textColor, textColor.a, fill), opacity, behind);
  const shownFill = over(fill, opacity, behind);
  const luminance = ({ r, g, b }: Rgb) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const [light, dark] = [luminance(label), luminance(shownFill)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

for (const colorScheme of ['light', 'dark'] as const)
  for (const width of [1280, 390])
    it(`shows an empty state, human labels, readable disabled buttons and outlined badges (${colorScheme}, ${width} px)`, async () => {
      const { page, pageErrors } = await harness.open(
        '/?agent=todos&transport=ws',
        { width, height: 900 },
        { colorScheme },
      );
      const view = surface(page);
      await view.getByText('No todos yet. Add one below.').waitFor();
      await view.getByRole('textbox', { name: 'Text' }).waitFor();
      expect(await view.getByText('Created at', { exact: true }).count()).toBe(1);
      expect(await view.getByText('createdAt', { exact: true }).count()).toBe(0);

      // Disabled, a surface button and a page button stay readable.
      const add = view.getByRole('button', { name: 'Add' });
      const pause = page.getByRole('button', { name: 'Pause' });
      for (const button of [add, pause]) {
        await button.evaluate((element) => element.setAttribute('disabled', ''));
        expect(await button.evaluate(labelContrast)).toBeGreaterThanOrEqual(3);
      }
      await harness.screenshot(page, `lavs-todos-empty-${colorScheme}-${width}`);
      for (const button of [add, pause])
        await button.evaluate((element) => element.removeAttribute('disabled'));

      // Every badge has an outline (a coloured one used to have none).
      const borders = await page
        .locator('.badge')
        .evaluateAll((badges) => badges.map((badge) => getComputedStyle(badge).borderTopColor));
      expect(borders.length).toBeGreaterThan(0);
      for (const color of borders) expect(color).not.toMatch(/^rgba\(.*, 0\)$|transparent/);

      // Nothing to save on an empty list: "Save changes" is there but disabled.
      const save = view.getByRole('button', { name: 'Save changes' });
      expect(await save.isDisabled()).toBe(true);

      await todos.runtime.call('addTodo', { text: `Look ${colorScheme} ${width}` });
      await view.getByRole('checkbox', { name: `Look ${colorScheme} ${width}` }).waitFor();
      await view.getByText('No todos yet. Add one below.').waitFor({ state: 'detached' });
      await expect.poll(() => save.isDisabled()).toBe(false);
      // The creation time reads as a date in the page's locale, never as ISO 8601 text.
      const created = view.locator('[data-a2ui-id="cell-createdAt"]').first();
      const shown = (await created.textContent()) ?? '';
      expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      const [createdAt] = (
        (await todos.runtime.call('listTodos')) as Array<{ createdAt: string }>
      ).map((todo) => todo.createdAt);
      const month = await page.evaluate(
        (iso) =>
          new Intl.DateTimeFormat(navigator.language, { month: 'short' }).format(new Date(iso)),
        createdAt!,
      );
      expect(shown).toContain(month);
      expect(shown).toContain(String(new Date(createdAt!).getFullYear()));
      await harness.screenshot(page, `lavs-todos-one-${colorScheme}-${width}`);
      for (const todo of (await todos.runtime.call('listTodos')) as Array<{ id: number }>)
        await todos.runtime.call('deleteTodo', { id: todo.id });
      expect(pageErrors).toEqual([]);
      await page.close();
    });

it('adds, toggles and deletes todos on one page and sees them on a second page', async () => {
  const first = await harness.open('/?agent=todos&transport=ws');
  const second = await harness.open('/?agent=todos&transport=sse-jsonrpc');
  const [one, two] = [surface(first.page), surface(second.page)];
  await one.getByRole('button', { name: 'Add' }).waitFor();
  await two.getByRole('button', { name: 'Add' }).waitFor();

  await one.getByRole('textbox', { name: 'Text' }).fill('Buy milk');
  await one.getByRole('button', { name: 'Add' }).click();
  const milkOnTwo = two.getByRole('checkbox', { name: 'Buy milk' });
  await milkOnTwo.waitFor();
  expect(await milkOnTwo.isChecked()).toBe(false);

  await milkOnTwo.check();
  await two.getByRole('button', { name: 'Save changes' }).click();
  const milkOnOne = one.getByRole('checkbox', { name: 'Buy milk' });
  await expect.poll(() => milkOnOne.isChecked()).toBe(true);

  // A change from outside the pages (the LLM agent's tools call this runtime) reaches both.
  await todos.runtime.call('addTodo', { text: 'Call mum' });
  await one.getByRole('checkbox', { name: 'Call mum' }).waitFor();
  await two.getByRole('checkbox', { name: 'Call mum' }).waitFor();

  await one.getByRole('button', { name: 'Delete Buy milk' }).click();
  await two.getByRole('checkbox', { name: 'Buy milk' }).waitFor({ state: 'detached' });
  expect(JSON.parse(readFileSync(join(todos.dir, 'data/todos.json'), 'utf8'))).toEqual([
    expect.objectContaining({ text: 'Call mum', done: false }),
  ]);

  await harness.screenshot(second.page, 'lavs-todos');
  for (const { page, pageErrors } of [first, second]) {
    expect((await inspectorCounts(page)).errors).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  }
});

/**
 * The card's title is its h3, right under the page's "Surfaces" h2 as every other agent's title
 * (a LAVS view titles itself with the h1 variant; `minHeadingLevel` 3 maps it), skipping no level.
 */
it('the todos title is an h3 under the Surfaces h2', async () => {
  const { page, pageErrors } = await harness.open('/?agent=todos&transport=ws');
  const card = page.getByTestId('surface-lavs-todo-manager');
  await card.getByRole('button', { name: 'Add' }).waitFor();
  const surfaces = page.getByRole('region', { name: 'Surfaces' });
  const outline = await surfaces.evaluate((region) =>
    [...region.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')].map(
      (heading) =>
        `h${heading.getAttribute('aria-level') ?? heading.tagName.slice(1)} ${heading.textContent?.trim()}`,
    ),
  );
  expect(outline.slice(0, 2)).toEqual([
    'h2 Surfaces',
    'h3 Todo management service with AI assistance',
  ]);
  expect(pageErrors).toEqual([]);
  await page.close();
});
