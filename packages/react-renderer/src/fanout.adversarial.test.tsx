/**
 * Adversarial: rendering cost is not bounded by the component or template limits.
 * A handful of components referencing each other twice (a DAG, or a cycle a → [a, a]) renders
 * 2^depth nodes; nested templates multiply their 5000-item caps.
 */
import { describe, expect, it } from 'vitest';
import { renderMessages, surface } from '../test/test-client.js';

function fanOut(levels: number) {
  const components: Array<Record<string, unknown>> = [];
  for (let i = 0; i < levels; i++) {
    components.push({ id: i === 0 ? 'root' : `c${i}`, component: 'Column', children: [`c${i + 1}`, `c${i + 1}`] });
  }
  components.push({ id: `c${levels}`, component: 'Text', text: 'x' });
  return components;
}

describe('render amplification', () => {
  it('n components with two references each render 2^n nodes', () => {
    const counts: Array<[number, number, number]> = [];
    for (const levels of [8, 10, 12, 14]) {
      const start = performance.now();
      const test = renderMessages(surface(fanOut(levels)));
      const leaves = test.view.container.querySelectorAll('.a2ui-text, [data-a2ui-id]').length;
      counts.push([levels + 1, leaves, Math.round(performance.now() - start)]);
      test.view.unmount();
    }
    console.log('components, DOM nodes with data-a2ui-id, ms', counts);
    // 15 components (far under maxComponentsPerSurface = 10,000) produce > 32,000 rendered nodes.
    expect(counts.at(-1)![1]).toBeGreaterThan(30_000);
  }, 120_000);

  it('a self-referencing cycle a -> [a, a] is only stopped at depth 64, i.e. 2^64 nodes', () => {
    // Not run to completion: would never finish. Shown with depth-limited math instead.
    expect(2 ** 64).toBeGreaterThan(1e18);
  });

  it('nested templates multiply the per-list cap', () => {
    const items = Array.from({ length: 60 }, () => 0);
    const start = performance.now();
    const test = renderMessages(
      surface(
        [
          { id: 'root', component: 'Column', children: { componentId: 'l1', path: '/items' } },
          { id: 'l1', component: 'Column', children: { componentId: 'l2', path: '/items' } },
          { id: 'l2', component: 'Column', children: { componentId: 't', path: '/items' } },
          { id: 't', component: 'Text', text: 'x' },
        ],
        { items },
      ),
    );
    const n = test.view.container.querySelectorAll('[data-a2ui-id="t"]').length;
    console.log('nested templates: 60 items -> text nodes', n, 'ms', Math.round(performance.now() - start));
    expect(n).toBe(60 ** 3);
  }, 300_000);
});
