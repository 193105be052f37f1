/**
 * Render amplification guards: reference cycles stop at the repeated component, and a surface
 * renders at most `maxRenderedComponents` component instances (regression tests for trees that
 * double per level, `a → [a, a]` cycles and nested templates multiplying the per-list cap).
 */
import { act } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { expectErrors } from '../../test/expected-errors.js';
import { BASIC, flush, renderMessages, settle, surface } from '../../test/test-client.js';
import { DEFAULT_MAX_RENDERED_COMPONENTS } from '../provider/renderer-options.js';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { markBuiltin } from '../registry/builtin-components.js';
import { createComponentRegistry } from '../registry/create-component-registry.js';
import { A2UIRenderer } from './a2ui-renderer.js';

/** root → [c1, c1], c1 → [c2, c2], …: `levels + 1` components, `2^(levels + 1) - 1` instances. */
function fanOut(levels: number) {
  const components: Array<Record<string, unknown>> = [];
  for (let i = 0; i < levels; i++) {
    components.push({
      id: i === 0 ? 'root' : `c${i}`,
      component: 'Column',
      children: [`c${i + 1}`, `c${i + 1}`],
    });
  }
  components.push({ id: `c${levels}`, component: 'Text', text: 'x' });
  return components;
}

/** A custom component (own error boundary) whose subtree can fail after its children rendered. */
function Wrapper({ props, node }: A2uiComponentProps<{ children?: unknown }>) {
  return <div>{node.renderChildren(props.children)}</div>;
}

/** A built-in (no boundary of its own) that always throws. */
const Boom = markBuiltin((): never => {
  throw new Error('boom');
});

function limitErrors(errors: ReadonlyArray<{ code: string; message: string }>) {
  return errors.filter((error) => error.code === 'LIMIT_EXCEEDED');
}

function renderedInstances(container: HTMLElement): number {
  return container.querySelectorAll('[data-a2ui-id]').length;
}

describe('maxRenderedComponents', () => {
  it('defaults to 10,000 instances per surface', () => {
    expect(DEFAULT_MAX_RENDERED_COMPONENTS).toBe(10_000);
  });

  it('a tree within the budget renders in full', async () => {
    // 2^10 - 1 = 1023 instances.
    const test = renderMessages(surface(fanOut(9)), { maxRenderedComponents: 1023 });
    await settle(test.view.container);
    expect(test.view.container.querySelectorAll('[data-a2ui-id="c9"]').length).toBe(512);
    expect(test.view.container.querySelector('[data-a2ui-not-rendered]')).toBeNull();
    expect(limitErrors(test.errors)).toEqual([]);
  });

  it('stops a doubling tree at the budget with a visible note, reported once', async () => {
    // 15 components would be 32,767 instances.
    const test = renderMessages(surface(fanOut(14)), { maxRenderedComponents: 300 });
    await settle(test.view.container);
    const { container } = test.view;
    expect(renderedInstances(container)).toBe(300);
    const notes = container.querySelectorAll('[data-a2ui-not-rendered]');
    expect(notes.length).toBeGreaterThan(0);
    // Only pending siblings along one path can become notes: at most one per level.
    expect(notes.length).toBeLessThanOrEqual(15);
    expect(notes[0]?.textContent).toBe('Not rendered: too many components');
    expect(notes[0]?.getAttribute('role')).toBe('note');
    const errors = limitErrors(test.errors);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('maxRenderedComponents');
  });

  it('with the default budget, 31 doubling components (2^31 instances) stop at 10,000', async () => {
    const test = renderMessages(surface(fanOut(30)));
    await settle(test.view.container);
    expect(renderedInstances(test.view.container)).toBe(DEFAULT_MAX_RENDERED_COMPONENTS);
    expect(limitErrors(test.errors)).toHaveLength(1);
  });

  it('caps nested templates (3 levels over 60 items would be 216,000 instances)', async () => {
    const test = renderMessages(
      surface(
        [
          { id: 'root', component: 'Column', children: { componentId: 'l1', path: '/items' } },
          { id: 'l1', component: 'Column', children: { componentId: 'l2', path: '/items' } },
          { id: 'l2', component: 'Column', children: { componentId: 't', path: '/items' } },
          { id: 't', component: 'Text', text: 'x' },
        ],
        { items: Array.from({ length: 60 }, () => 0) },
      ),
      { maxRenderedComponents: 2000 },
    );
    await settle(test.view.container);
    const { container } = test.view;
    expect(renderedInstances(container)).toBe(2000);
    expect(container.querySelectorAll('[data-a2ui-not-rendered]').length).toBeLessThanOrEqual(180);
    expect(limitErrors(test.errors)).toHaveLength(1);
  });

  const listSurface = (count: number) =>
    surface(
      [
        { id: 'root', component: 'Column', children: { componentId: 't', path: '/items' } },
        { id: 't', component: 'Text', text: { path: 'name' } },
      ],
      { items: Array.from({ length: count }, (_, i) => ({ name: `item ${i}` })) },
    );

  const setItems = (count: number, prefix = 'item') => ({
    version: 'v0.9',
    updateDataModel: {
      surfaceId: 's',
      path: '/items',
      value: Array.from({ length: count }, (_, i) => ({ name: `${prefix} ${i}` })),
    },
  });

  it('counts mounted instances, not renders: updates never use up the budget', async () => {
    // root + 10 items = 11 instances, exactly the budget.
    const test = renderMessages(listSurface(10), { maxRenderedComponents: 11 });
    for (let round = 0; round < 30; round++) test.process(setItems(10, `round ${round}`));
    await flush();
    const { container } = test.view;
    expect(container.querySelectorAll('[data-a2ui-id="t"]').length).toBe(10);
    expect(container.textContent).toContain('round 29 9');
    expect(container.querySelector('[data-a2ui-not-rendered]')).toBeNull();
    // Unmounted instances give their slots back.
    test.process(setItems(3));
    test.process(setItems(10));
    await flush();
    expect(container.querySelectorAll('[data-a2ui-id="t"]').length).toBe(10);
    expect(limitErrors(test.errors)).toEqual([]);
  });

  it('renders instances that were over the budget once there is room again', async () => {
    const test = renderMessages(listSurface(20), { maxRenderedComponents: 11 });
    const { container } = test.view;
    expect(container.querySelectorAll('[data-a2ui-id="t"]').length).toBe(10);
    expect(container.querySelectorAll('[data-a2ui-not-rendered]').length).toBe(1);
    test.process(setItems(5));
    expect(container.querySelector('[data-a2ui-not-rendered]')).toBeNull();
    test.process(setItems(10));
    expect(container.querySelectorAll('[data-a2ui-id="t"]').length).toBe(10);
    expect(container.querySelector('[data-a2ui-not-rendered]')).toBeNull();
    await flush();
    expect(limitErrors(test.errors)).toHaveLength(1);
  });

  it('counts each instance once under StrictMode (double render, effects re-run)', async () => {
    const test = renderMessages(listSurface(10));
    test.view.rerender(
      <StrictMode>
        <A2UIRenderer client={test.client} maxRenderedComponents={11} />
      </StrictMode>,
    );
    const { container } = test.view;
    expect(container.querySelectorAll('[data-a2ui-id="t"]').length).toBe(10);
    test.process(setItems(4));
    test.process(setItems(10, 'again'));
    expect(container.querySelectorAll('[data-a2ui-id="t"]').length).toBe(10);
    expect(container.querySelector('[data-a2ui-not-rendered]')).toBeNull();
    await flush();
    expect(limitErrors(test.errors)).toEqual([]);
  });

  it('instances of a render React threw away do not keep their slots', async () => {
    const error = expectErrors();
    const registry = createComponentRegistry()
      .register(BASIC, 'Wrapper', Wrapper)
      .register(BASIC, 'Boom', Boom);
    const texts = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `${prefix}${i}`,
        component: 'Text',
        text: `${prefix}${i}`,
      }));
    const test = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['w'] },
        { id: 'w', component: 'Wrapper', children: ['t0', 't1', 't2', 't3', 't4', 'boom'] },
        ...texts('t', 5),
        { id: 'boom', component: 'Boom' },
      ]),
      { registry, maxRenderedComponents: 10 },
    );
    await flush();
    expect(test.view.container.textContent).toContain('"w" could not be shown.');
    // Mounted now: root and w. Eight more fit only if the discarded children gave their slots back.
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [
          {
            id: 'root',
            component: 'Column',
            children: ['w', 'x0', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7'],
          },
          ...texts('x', 8),
        ],
      },
    });
    await flush();
    expect(test.view.container.querySelectorAll('[data-a2ui-id^="x"]').length).toBe(8);
    expect(test.view.container.querySelector('[data-a2ui-not-rendered]')).toBeNull();
    expect(limitErrors(test.errors)).toEqual([]);
    error.mockRestore();
  });

  it('unmounting the renderer releases every instance', async () => {
    const test = renderMessages(listSurface(10), { maxRenderedComponents: 11 });
    act(() => test.view.unmount());
    await flush();
    expect(test.client.processor.getSurface('s')?.subscriptionCount).toBe(0);
  });
});

describe('reference cycles', () => {
  it('a → [a, a] renders `a` once and a fallback for each repeated reference', async () => {
    const test = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['a'] },
        { id: 'a', component: 'Column', children: ['a', 'a'] },
      ]),
    );
    await flush();
    const { container } = test.view;
    expect(container.querySelectorAll('[data-a2ui-id="a"]').length).toBe(3);
    const cycles = container.querySelectorAll('[data-a2ui-cycle]');
    expect(cycles.length).toBe(2);
    expect(cycles[0]?.textContent).toBe('"a" contains itself and is not rendered.');
    const errors = limitErrors(test.errors);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('reference cycle');
  });

  it('stops longer cycles, and a cycle back to root, at the first repetition', async () => {
    const test = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['a', 'root'] },
        { id: 'a', component: 'Column', children: ['b', 'b'] },
        { id: 'b', component: 'Card', child: 'a' },
      ]),
    );
    await flush();
    const { container } = test.view;
    expect(container.querySelectorAll('[data-a2ui-cycle]').length).toBe(3);
    expect(container.querySelectorAll('.a2ui-card').length).toBe(2);
    expect(limitErrors(test.errors)).toHaveLength(2);
  });

  it('a template over an absolute path that renders its own ancestor is a cycle', async () => {
    const test = renderMessages(
      surface(
        [
          { id: 'root', component: 'Column', children: ['l'] },
          { id: 'l', component: 'Column', children: { componentId: 'l', path: '/items' } },
        ],
        { items: [1, 2] },
      ),
    );
    await flush();
    // Under l@/items/0: l@/items/0 repeats (stopped), l@/items/1 renders once and both of its
    // children repeat an ancestor (stopped): 3 fallbacks per item, never a deeper level.
    expect(test.view.container.querySelectorAll('[data-a2ui-cycle]').length).toBe(6);
    expect(limitErrors(test.errors)).toHaveLength(1);
  });

  it('the same component in another data scope is not a cycle (a recursive tree)', async () => {
    const test = renderMessages(
      surface(
        [
          { id: 'root', component: 'Column', children: { componentId: 'n', path: '/tree' } },
          { id: 'n', component: 'Column', children: ['label', 'kids'] },
          { id: 'label', component: 'Text', text: { path: 'name' } },
          { id: 'kids', component: 'Column', children: { componentId: 'n', path: 'children' } },
        ],
        {
          tree: [
            {
              name: 'a',
              children: [{ name: 'a.1', children: [{ name: 'a.1.1', children: [] }] }],
            },
            { name: 'b', children: [] },
          ],
        },
      ),
    );
    await flush();
    const labels = [...test.view.container.querySelectorAll('[data-a2ui-id="label"]')];
    expect(labels.map((label) => label.textContent)).toEqual(['a', 'a.1', 'a.1.1', 'b']);
    expect(test.view.container.querySelector('[data-a2ui-cycle]')).toBeNull();
    expect(limitErrors(test.errors)).toEqual([]);
  });
});
