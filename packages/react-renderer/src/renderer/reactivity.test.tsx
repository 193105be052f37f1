/**
 * Fine-grained updates: a data change re-renders only the components bound to it, a message
 * batch is one commit, and every subscription is released (digest §5.3, a2ui-project/a2ui#963).
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Profiler, StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { createCountingRegistry } from '../../test/counting-registry.js';
import { createTestClient, setData, surface } from '../../test/test-client.js';
import { A2UIRenderer } from '../index.js';

function listSurface(count: number) {
  const items = Array.from({ length: count }, (_, index) => ({
    name: `Item ${index}`,
    done: false,
  }));
  return surface(
    [
      { id: 'root', component: 'Column', children: ['title', 'list'] },
      { id: 'title', component: 'Text', text: { path: '/title' } },
      { id: 'list', component: 'List', children: { componentId: 'row', path: '/items' } },
      { id: 'row', component: 'Row', children: ['name', 'done'] },
      { id: 'name', component: 'Text', text: { path: 'name' } },
      { id: 'done', component: 'CheckBox', label: 'Done', value: { path: 'done' } },
    ],
    { title: 'Things', items },
  );
}

function renderCounted(messages: unknown[]) {
  const test = createTestClient();
  test.client.process(messages);
  const counting = createCountingRegistry();
  let commits = 0;
  const view = render(
    <Profiler id="a2ui" onRender={() => commits++}>
      {/* Mounted in one commit: these tests count the commits of updates. */}
      <A2UIRenderer
        client={test.client}
        registry={counting.registry}
        mountSliceMs={Number.POSITIVE_INFINITY}
      />
    </Profiler>,
  );
  counting.take();
  const surfaceModel = test.client.processor.getSurfaces()[0]!;
  return {
    ...test,
    view,
    counting,
    surface: surfaceModel,
    commits: () => {
      const value = commits;
      commits = 0;
      return value;
    },
  };
}

describe('fine-grained updates', () => {
  it('a single-item update re-renders exactly the component bound to it, in one commit', () => {
    const test = renderCounted(listSurface(100));
    test.commits();
    test.process(setData('/items/50/name', 'Renamed'));
    expect(test.counting.take()).toEqual(['name@/items/50']);
    expect(test.commits()).toBe(1);
    expect(screen.getByText('Renamed')).toBeTruthy();
  });

  it('a change nobody reads re-renders nothing and commits nothing', () => {
    const test = renderCounted(listSurface(10));
    test.commits();
    test.process(setData('/unrelated', 1));
    expect(test.counting.take()).toEqual([]);
    expect(test.commits()).toBe(0);
  });

  it('a batch of messages is one commit', () => {
    const test = renderCounted(listSurface(10));
    test.commits();
    test.process([
      setData('/title', 'New title'),
      setData('/items/1/name', 'One'),
      setData('/items/2/done', true),
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'title', component: 'Text', text: { path: '/title' }, variant: 'h2' }],
        },
      },
    ]);
    expect(test.commits()).toBe(1);
    expect(test.counting.take().sort()).toEqual(['done@/items/2', 'name@/items/1', 'title']);
    expect(screen.getByRole('heading', { level: 2, name: 'New title' })).toBeTruthy();
  });

  it('appending an item renders only the new instances and the list', () => {
    const test = renderCounted(listSurface(5));
    test.process(setData('/items/5', { name: 'Six', done: false }));
    expect(test.counting.take().sort()).toEqual([
      'done@/items/5',
      'list',
      'name@/items/5',
      'row@/items/5',
    ]);
  });

  it('updating one component re-renders it alone; a type change resets its local state', () => {
    const test = renderCounted(
      surface([
        { id: 'root', component: 'Column', children: ['tabs', 'other'] },
        {
          id: 'tabs',
          component: 'Tabs',
          tabs: [
            { title: 'A', child: 'a' },
            { title: 'B', child: 'b' },
          ],
        },
        { id: 'a', component: 'Text', text: 'Panel A' },
        { id: 'b', component: 'Text', text: 'Panel B' },
        { id: 'other', component: 'Text', text: 'Other' },
      ]),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'B' }));
    expect(screen.getByText('Panel B')).toBeTruthy();
    test.counting.take();
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [
          {
            id: 'tabs',
            component: 'Tabs',
            tabs: [
              { title: 'A', child: 'a' },
              { title: 'Bee', child: 'b' },
            ],
          },
        ],
      },
    });
    expect(test.counting.take()).toEqual(['tabs']);
    // Same type: the selection survives the update.
    expect(screen.getByRole('tab', { name: 'Bee' }).getAttribute('aria-selected')).toBe('true');
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [{ id: 'tabs', component: 'Text', text: 'Gone' }],
      },
    });
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [
          {
            id: 'tabs',
            component: 'Tabs',
            tabs: [
              { title: 'A', child: 'a' },
              { title: 'B', child: 'b' },
            ],
          },
        ],
      },
    });
    // Recreated: a fresh component starts on the first tab.
    expect(screen.getByRole('tab', { name: 'A' }).getAttribute('aria-selected')).toBe('true');
  });

  it('two-way binding updates every component bound to the path, and only those', () => {
    const test = renderCounted(
      surface(
        [
          { id: 'root', component: 'Column', children: ['field', 'echo', 'static'] },
          { id: 'field', component: 'TextField', label: 'Name', value: { path: '/name' } },
          { id: 'echo', component: 'Text', text: { path: '/name' } },
          { id: 'static', component: 'Text', text: 'Static' },
        ],
        { name: '' },
      ),
    );
    test.counting.take();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    expect(test.surface.dataModel.get('/name')).toBe('Ada');
    expect(screen.getByText('Ada')).toBeTruthy();
    expect(test.counting.take().sort()).toEqual(['echo', 'field']);
  });
});

describe('subscriptions', () => {
  it('return to zero after unmount, also in StrictMode', () => {
    const test = createTestClient();
    test.client.process(listSurface(20));
    const model = test.client.processor.getSurfaces()[0]!;
    const view = render(
      <StrictMode>
        <A2UIRenderer client={test.client} mountSliceMs={Number.POSITIVE_INFINITY} />
      </StrictMode>,
    );
    // root + title + list + 20 × (row, name, done) records, and the bound data paths.
    expect(model.components.subscriptionCount).toBeGreaterThan(60);
    expect(model.dataModel.subscriptionCount).toBe(1 + 1 + 40);
    for (let index = 0; index < 20; index++)
      test.process(setData(`/items/${index}/name`, `N${index}`));
    expect(model.dataModel.subscriptionCount).toBe(42);
    view.unmount();
    expect(model.subscriptionCount).toBe(0);
  });

  it('are released for template items that disappear', () => {
    const test = renderCounted(listSurface(50));
    expect(test.surface.dataModel.subscriptionCount).toBe(1 + 1 + 100);
    test.process(setData('/items', [{ name: 'Only', done: true }]));
    expect(test.surface.dataModel.subscriptionCount).toBe(1 + 1 + 2);
  });

  it('return to zero on deleteSurface and the surface disappears', () => {
    const test = renderCounted(listSurface(10));
    expect(test.surface.subscriptionCount).toBeGreaterThan(0);
    test.process({ version: 'v0.9', deleteSurface: { surfaceId: 's' } });
    expect(test.surface.subscriptionCount).toBe(0);
    expect(test.view.container.querySelector('.a2ui-surface')).toBeNull();
    // Still zero after React finished unmounting.
    expect(test.surface.subscriptionCount).toBe(0);
  });

  it('follow what a binding reads: a switched formatString argument moves the subscription', () => {
    const test = renderCounted(
      surface(
        [
          {
            id: 'root',
            component: 'Text',
            text: { call: 'formatString', args: { value: 'Hi ${/who}' } },
          },
        ],
        { who: 'Ada' },
      ),
    );
    expect(screen.getByText('Hi Ada')).toBeTruthy();
    expect(test.surface.dataModel.subscriptionCount).toBe(1);
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [{ id: 'root', component: 'Text', text: { path: '/other' } }],
      },
    });
    test.process(setData('/other', 'Other'));
    expect(screen.getByText('Other')).toBeTruthy();
    expect(test.surface.dataModel.subscriptionCount).toBe(1);
    act(() => test.view.unmount());
    expect(test.surface.subscriptionCount).toBe(0);
  });
});
