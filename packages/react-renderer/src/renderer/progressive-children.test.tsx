/**
 * A long child list mounts a slice at a time (issue 25), without losing or reordering children.
 */
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, setData, surface } from '../../test/test-client.js';
import { CHILDREN_PER_COMMIT } from './progressive-children.js';

const COUNT = CHILDREN_PER_COMMIT * 2 + 50;

const listSurface = (count: number) =>
  surface(
    [
      { id: 'root', component: 'List', children: { componentId: 't', path: '/items' } },
      { id: 't', component: 'Text', text: { path: 'name' } },
    ],
    { items: Array.from({ length: count }, (_, i) => ({ name: `item ${i}` })) },
  );

/** The list's length once its slices stopped growing: a task at a time, inside act. */
const grown = (container: HTMLElement) =>
  expect.poll(async () => {
    await flush();
    return texts(container).length;
  });

const texts = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-a2ui-id="t"]')].map((element) => element.textContent);

describe('progressive children', () => {
  it('mounts the first slice at once, then the rest, in order', async () => {
    const test = renderMessages(listSurface(COUNT));
    const { container } = test.view;
    expect(texts(container)).toEqual(
      Array.from({ length: CHILDREN_PER_COMMIT }, (_, i) => `item ${i}`),
    );
    await grown(container).toBe(COUNT);
    expect(texts(container)).toEqual(Array.from({ length: COUNT }, (_, i) => `item ${i}`));
    expect(container.querySelectorAll('li')).toHaveLength(COUNT);
  });

  it('a short list renders whole in one commit, and a list that grows later grows a slice at a time', async () => {
    const test = renderMessages(listSurface(3));
    const { container } = test.view;
    expect(texts(container)).toEqual(['item 0', 'item 1', 'item 2']);
    test.process(
      setData(
        '/items',
        Array.from({ length: COUNT }, (_, i) => ({ name: `new ${i}` })),
      ),
    );
    expect(texts(container)).toHaveLength(CHILDREN_PER_COMMIT);
    await grown(container).toBe(COUNT);
    expect(texts(container).at(-1)).toBe(`new ${COUNT - 1}`);
    expect(test.errors).toEqual([]);
  });
});
