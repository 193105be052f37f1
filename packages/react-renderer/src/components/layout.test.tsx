/**
 * Row, Column, List and Card: every property of §9, templates (§7.4) and `weight`.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderMessages, setData, surface } from '../../test/test-client.js';

const JUSTIFY = ['start', 'center', 'end', 'spaceBetween', 'spaceAround', 'spaceEvenly', 'stretch'];
const ALIGN = ['start', 'center', 'end', 'stretch'];

describe.each(['Row', 'Column'])('%s', (component) => {
  it.each(JUSTIFY)('justify %s', (justify) => {
    const { view } = renderMessages(surface([{ id: 'root', component, children: [], justify }]));
    expect(view.container.querySelector('[data-a2ui-id="root"]')!.className).toContain(
      `a2ui-justify-${justify}`,
    );
  });

  it.each(ALIGN)('align %s', (align) => {
    const { view } = renderMessages(surface([{ id: 'root', component, children: [], align }]));
    expect(view.container.querySelector('[data-a2ui-id="root"]')!.className).toContain(
      `a2ui-align-${align}`,
    );
  });

  it('defaults to justify start, align stretch; children in order; weight → flex', () => {
    const { view } = renderMessages(
      surface([
        { id: 'root', component, children: ['a', 'b'] },
        { id: 'a', component: 'Text', text: 'A', weight: 2 },
        { id: 'b', component: 'Text', text: 'B' },
      ]),
    );
    const root = view.container.querySelector<HTMLElement>('[data-a2ui-id="root"]')!;
    expect(root.className).toContain(`a2ui-${component.toLowerCase()}`);
    expect(root.className).toContain('a2ui-justify-start');
    expect(root.className).toContain('a2ui-align-stretch');
    expect(root.textContent).toBe('AB');
    const a = view.container.querySelector<HTMLElement>('[data-a2ui-id="a"]')!;
    expect(a.style.flex).toBe('2 1 0%');
    expect(a.classList.contains('a2ui-weighted')).toBe(true);
    expect(view.container.querySelector<HTMLElement>('[data-a2ui-id="b"]')!.style.flex).toBe('');
  });

  it('expands a template child list with per-item scopes', () => {
    const test = renderMessages(
      surface(
        [
          { id: 'root', component, children: { componentId: 'item', path: '/names' } },
          { id: 'item', component: 'Text', text: { path: '.' } },
        ],
        { names: ['x', 'y'] },
      ),
    );
    expect(test.view.container.querySelector('[data-a2ui-id="root"]')!.textContent).toBe('xy');
    test.process(setData('/names/0', 'z'));
    expect(test.view.container.querySelector('[data-a2ui-id="root"]')!.textContent).toBe('zy');
  });

  it('becomes a labelled group only when the agent names it', () => {
    const { view } = renderMessages(
      surface([{ id: 'root', component, children: [], accessibility: { label: 'Actions' } }]),
    );
    expect(screen.getByRole('group', { name: 'Actions' })).toBe(
      view.container.querySelector('[data-a2ui-id="root"]'),
    );
  });
});

describe('List', () => {
  it('is a list of items, vertical by default, with align', () => {
    const { view } = renderMessages(
      surface([
        { id: 'root', component: 'List', children: ['a', 'b'], align: 'center' },
        { id: 'a', component: 'Text', text: 'A' },
        { id: 'b', component: 'Text', text: 'B' },
      ]),
    );
    const list = screen.getByRole('list');
    expect(list.className).toContain('a2ui-list-vertical');
    expect(list.className).toContain('a2ui-align-center');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['A', 'B']);
    expect(list.hasAttribute('tabindex')).toBe(false);
    expect(view.container.querySelector('[data-a2ui-id="root"]')).toBe(list);
  });

  it('horizontal lists scroll and can be focused for keyboard scrolling', () => {
    renderMessages(
      surface([
        {
          id: 'root',
          component: 'List',
          children: [],
          direction: 'horizontal',
          accessibility: { label: 'Photos' },
        },
      ]),
    );
    const list = screen.getByRole('list', { name: 'Photos' });
    expect(list.className).toContain('a2ui-list-horizontal');
    expect(list.getAttribute('tabindex')).toBe('0');
  });

  it('renders a template over a relative path inside another template (nested scopes)', () => {
    renderMessages(
      surface(
        [
          { id: 'root', component: 'List', children: { componentId: 'group', path: '/groups' } },
          { id: 'group', component: 'Column', children: ['group-name', 'members'] },
          { id: 'group-name', component: 'Text', text: { path: 'name' }, variant: 'h3' },
          {
            id: 'members',
            component: 'List',
            children: { componentId: 'member', path: 'members' },
          },
          {
            id: 'member',
            component: 'Text',
            text: { call: 'formatString', args: { value: '${name} (${/org})' } },
          },
        ],
        {
          org: 'ACME',
          groups: [
            { name: 'Team A', members: [{ name: 'Ada' }, { name: 'Alan' }] },
            { name: 'Team B', members: [{ name: 'Grace' }] },
          ],
        },
      ),
    );
    expect(screen.getByRole('heading', { name: 'Team B' })).toBeTruthy();
    expect(screen.getByText('Alan (ACME)')).toBeTruthy();
    expect(screen.getByText('Grace (ACME)')).toBeTruthy();
  });

  it('renders nothing for a template over a non-array and caps huge templates', () => {
    const test = renderMessages(
      surface(
        [
          { id: 'root', component: 'List', children: { componentId: 'item', path: '/items' } },
          { id: 'item', component: 'Text', text: 'x' },
        ],
        { items: { a: 1 } },
      ),
      { maxTemplateItems: 3 },
    );
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    test.process(setData('/items', [1, 2, 3, 4, 5]));
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });
});

describe('Card', () => {
  it('renders its one child; a labelled card is a group', () => {
    renderMessages(
      surface([
        {
          id: 'root',
          component: 'Card',
          child: 'inner',
          accessibility: { label: 'Summary', description: 'Order total' },
        },
        { id: 'inner', component: 'Text', text: 'Inside' },
      ]),
    );
    const card = screen.getByRole('group', { name: 'Summary' });
    expect(card.className).toContain('a2ui-card');
    expect(card.textContent).toContain('Inside');
    expect(document.getElementById(card.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Order total',
    );
  });
});
