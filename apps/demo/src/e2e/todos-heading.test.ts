/**
 * The Todos card's title is the card's `h3`, right under the page's "Surfaces" `h2`, as every other
 * agent's title: a LAVS view titles itself with the `h1` variant (the renderer's
 * `minHeadingLevel` 3 maps it to `h3`), so a screen reader's heading list skips no level.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DemoTodoService, startDemoTodoService } from '../agents/lavs-todo-agent.js';
import { type DemoHarness, startHarness } from './demo-harness.js';

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
