/**
 * A surface mounts its children a slice per commit, one budget for the whole surface (issue 25):
 * long lists, nested lists and static trees alike, without losing or reordering children. With
 * `mountSliceMs: 0` a commit mounts exactly MIN_CHILDREN_PER_COMMIT children, and a held
 * `scheduleMount` runs each further slice when the test says so: no assertion depends on speed.
 */
import { act, render } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import {
  createTestClient,
  renderMessages,
  setData,
  settle,
  surface,
} from '../../test/test-client.js';
import { A2UIRenderer } from './a2ui-renderer.js';
import { MIN_CHILDREN_PER_COMMIT } from './mount-scheduler.js';

const SLICE = MIN_CHILDREN_PER_COMMIT;

/** A `scheduleMount` that keeps each slice until {@link step} runs it. */
function heldSlices() {
  const queue: Array<() => void> = [];
  return {
    options: { mountSliceMs: 0, scheduleMount: (mount: () => void) => queue.push(mount) },
    get queued() {
      return queue.length;
    },
    /** Runs the slices queued so far: the next commit of every waiting container. */
    step() {
      act(() => {
        for (const mount of queue.splice(0)) mount();
      });
    },
  };
}

const listSurface = (count: number, prefix = 'item') =>
  surface(
    [
      { id: 'root', component: 'List', children: { componentId: 't', path: '/items' } },
      { id: 't', component: 'Text', text: { path: 'name' } },
    ],
    { items: Array.from({ length: count }, (_, i) => ({ name: `${prefix} ${i}` })) },
  );

const names = (count: number, prefix = 'item') =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i}`);

const textsOf = (container: HTMLElement, id = 't') =>
  [...container.querySelectorAll(`[data-a2ui-id="${id}"]`)].map((element) => element.textContent);

const busy = (container: HTMLElement) =>
  container.querySelector('.a2ui-surface')?.getAttribute('aria-busy') ?? null;

describe('progressive mounting', () => {
  it('mounts a slice per commit, each from a scheduled task, in order, busy until the last', () => {
    const slices = heldSlices();
    const { view } = renderMessages(listSurface(100), slices.options);
    const { container } = view;
    expect(textsOf(container)).toEqual(names(SLICE));
    expect(busy(container)).toBe('true');
    slices.step();
    expect(textsOf(container)).toEqual(names(2 * SLICE));
    slices.step();
    slices.step();
    expect(textsOf(container)).toEqual(names(100));
    expect(container.querySelectorAll('li')).toHaveLength(100);
    expect(busy(container)).toBeNull();
    expect(slices.queued).toBe(0);
  });

  it('nested lists share one budget per commit and fill from the top', () => {
    const slices = heldSlices();
    const groups = Array.from({ length: 10 }, (_, group) => ({
      cells: Array.from({ length: 10 }, (_, cell) => ({ name: `${group}.${cell}` })),
    }));
    const all = groups.flatMap((group) => group.cells.map((cell) => cell.name));
    const { view } = renderMessages(
      surface(
        [
          { id: 'root', component: 'List', children: { componentId: 'group', path: '/groups' } },
          { id: 'group', component: 'List', children: { componentId: 'cell', path: 'cells' } },
          { id: 'cell', component: 'Text', text: { path: 'name' } },
        ],
        { groups },
      ),
      slices.options,
    );
    const { container } = view;
    // The 10 groups and the first 22 cells: 32 children in the whole surface, not 32 per list.
    expect(container.querySelectorAll('[data-a2ui-id="group"]')).toHaveLength(10);
    expect(textsOf(container, 'cell')).toEqual(all.slice(0, SLICE - 10));
    slices.step();
    expect(textsOf(container, 'cell')).toEqual(all.slice(0, 2 * SLICE - 10));
    while (slices.queued > 0) slices.step();
    expect(textsOf(container, 'cell')).toEqual(all);
    expect(busy(container)).toBeNull();
  });

  it('a static tree without templates mounts a slice per commit too', () => {
    const slices = heldSlices();
    // root → 5 × a → 5 × b → 5 × leaf: 1 + 5 + 25 + 125 = 156 instances.
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['a', 'a', 'a', 'a', 'a'] },
        { id: 'a', component: 'Column', children: ['b', 'b', 'b', 'b', 'b'] },
        { id: 'b', component: 'Row', children: ['leaf', 'leaf', 'leaf', 'leaf', 'leaf'] },
        { id: 'leaf', component: 'Text', text: 'Leaf' },
      ]),
      slices.options,
    );
    const { container } = view;
    const instances = () => container.querySelectorAll('[data-a2ui-id]').length;
    expect(instances()).toBe(1 + SLICE);
    slices.step();
    expect(instances()).toBe(1 + 2 * SLICE);
    while (slices.queued > 0) slices.step();
    expect(instances()).toBe(156);
    expect(busy(container)).toBeNull();
  });

  it('while held, updates of mounted children still render; released, the rest mounts', () => {
    const slices = heldSlices();
    const test = renderMessages(listSurface(100), slices.options);
    const { container } = test.view;
    test.process(setData('/items/0/name', 'renamed'));
    expect(textsOf(container)).toEqual(['renamed', ...names(SLICE).slice(1)]);
    expect(busy(container)).toBe('true');
    while (slices.queued > 0) slices.step();
    expect(textsOf(container)).toEqual(['renamed', ...names(100).slice(1)]);
  });

  it('a short list renders whole in one commit; one that grows later grows a slice at a time', () => {
    const slices = heldSlices();
    const test = renderMessages(listSurface(3), slices.options);
    const { container } = test.view;
    expect(textsOf(container)).toEqual(names(3));
    expect(busy(container)).toBeNull();
    test.process(
      setData(
        '/items',
        names(100, 'new').map((name) => ({ name })),
      ),
    );
    // The three mounted items keep their place, and the slice adds 32 more.
    expect(textsOf(container)).toHaveLength(3 + SLICE);
    while (slices.queued > 0) slices.step();
    expect(textsOf(container)).toEqual(names(100, 'new'));
    expect(test.errors).toEqual([]);
  });

  it('Strict Mode (every render twice) mounts the same slices', () => {
    const slices = heldSlices();
    const test = createTestClient();
    test.client.process(listSurface(100));
    const { container } = render(
      <StrictMode>
        <A2UIRenderer client={test.client} {...slices.options} />
      </StrictMode>,
    );
    expect(textsOf(container)).toEqual(names(SLICE));
    slices.step();
    expect(textsOf(container)).toEqual(names(2 * SLICE));
    while (slices.queued > 0) slices.step();
    expect(textsOf(container)).toEqual(names(100));
  });

  it.each([
    [100, 50],
    [200, 40],
  ])(
    'a list of %i cut by maxRenderedComponents %i stops with one note instead of waiting forever',
    async (count, max) => {
      const slices = heldSlices();
      const test = renderMessages(listSurface(count), {
        ...slices.options,
        maxRenderedComponents: max,
      });
      const { container } = test.view;
      while (slices.queued > 0) slices.step();
      // The root takes one instance; the items fill the rest, and the first item left out is the note.
      expect(textsOf(container)).toEqual(names(max - 1));
      expect(container.querySelectorAll('[data-a2ui-not-rendered]')).toHaveLength(1);
      expect(container.querySelectorAll('li')).toHaveLength(max);
      expect(busy(container)).toBeNull();
      await settle(container);
      expect(test.errors.filter((error) => error.code === 'LIMIT_EXCEEDED')).toHaveLength(1);
    },
  );

  it('by default the rest mounts in later tasks on its own; mountSliceMs Infinity mounts all at once', async () => {
    const paced = renderMessages(listSurface(300));
    expect(textsOf(paced.view.container).length).toBeGreaterThanOrEqual(SLICE);
    await settle(paced.view.container);
    expect(textsOf(paced.view.container)).toEqual(names(300));

    const whole = renderMessages(listSurface(300), { mountSliceMs: Number.POSITIVE_INFINITY });
    expect(textsOf(whole.view.container)).toEqual(names(300));
    expect(busy(whole.view.container)).toBeNull();
  });
});
