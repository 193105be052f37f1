/**
 * v0.8 surfaces (issue 19, "the same UI sent as v0.8 and as v0.9 must render the same"): core's
 * v0.8 reader upgrades standard-catalog components to the basic ones, and the default registry
 * renders them under the v0.8 standard catalog's id.
 */
import { migrateMessages } from '@a2ui-ts/core';
import { describe, expect, it } from 'vitest';
import { renderMessages, surface } from '../../test/test-client.js';

const components = [
  { id: 'root', component: 'Column', children: ['title', 'go'] },
  { id: 'title', component: 'Text', text: { path: '/title' } },
  { id: 'go', component: 'Button', child: 'go-label', action: { event: { name: 'go' } } },
  { id: 'go-label', component: 'Text', text: 'Go' },
];

describe('v0.8 surfaces', () => {
  it('render with the built-in components, as the same UI in v0.9 does', () => {
    const v09 = surface(components, { title: 'Hello' });
    const { messages: v08 } = migrateMessages(v09, { to: 'v0.8' });
    expect(v08.every((message) => !('version' in message))).toBe(true);
    const expected = renderMessages(v09);
    const actual = renderMessages(v08);
    expect(actual.errors).toEqual([]);
    expect(actual.client.processor.getSurface('s')?.protocolVersion.name).toBe('v0.8');
    const root = actual.view.container.querySelector('[data-a2ui-surface], .a2ui-surface');
    expect(actual.view.container.querySelector('[data-a2ui-unknown]')).toBeNull();
    expect(root?.textContent).toBe('HelloGo');
    expect(actual.view.container.textContent).toBe(expected.view.container.textContent);
  });

  it('render a template over a list, which v0.8 data holds as an index-keyed map', () => {
    const v09 = surface(
      [
        { id: 'root', component: 'List', children: { componentId: 'item', path: '/tasks' } },
        { id: 'item', component: 'Text', text: { path: 'title' } },
      ],
      { tasks: [{ title: 'Write' }, { title: 'Test' }, { title: 'Ship' }] },
    );
    // migrateMessages writes the array as a valueMap keyed "0", "1", "2" (v0.8 has no arrays).
    const { messages: v08 } = migrateMessages(v09, { to: 'v0.8' });
    expect(JSON.stringify(v08)).toContain('"valueMap"');
    const expected = renderMessages(v09);
    const actual = renderMessages(v08);
    expect(actual.errors).toEqual([]);
    const texts = (view: typeof actual.view) =>
      [...view.container.querySelectorAll('.a2ui-text, [data-a2ui-component="Text"]')].map(
        (node) => node.textContent,
      );
    expect(actual.view.container.textContent).toBe('WriteTestShip');
    expect(texts(actual.view)).toEqual(texts(expected.view));
    expect(actual.view.container.innerHTML).toBe(expected.view.container.innerHTML);
  });
});
