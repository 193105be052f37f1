/**
 * The LAVS todos in Chromium: two pages on two transports (WebSocket and SSE + JSON-RPC) show the
 * todo-manager service's live surface; one adds, ticks and saves, deletes — and the other page
 * follows each change, as both follow a change made to the service from outside (the LLM agent's
 * tools call the same runtime).
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
