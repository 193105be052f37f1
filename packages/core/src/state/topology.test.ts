import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import type { ComponentInstance } from '../protocol/messages.js';
import { MessageProcessor } from './message-processor.js';
import { findTopologyProblems } from './topology.js';

const tree = (...components: ComponentInstance[]) =>
  new Map(components.map((component) => [component.id, component]));
const card = (id: string, child: string): ComponentInstance => ({ id, component: 'Card', child });
const text = (id: string): ComponentInstance => ({ id, component: 'Text', text: id });

describe('findTopologyProblems', () => {
  it('accepts a tree under root, with lists, templates and tabs', () => {
    const problems = findTopologyProblems(
      tree(
        { id: 'root', component: 'Column', children: ['a', 'list'] },
        text('a'),
        { id: 'list', component: 'List', children: { componentId: 'item', path: '/items' } },
        { id: 'item', component: 'Tabs', tabs: [{ title: 't', child: 'b' }] },
        text('b'),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('reports a missing root and the dangling reference beside it', () => {
    const kinds = findTopologyProblems(tree(card('c1', 'c2'))).map((problem) => problem.kind);
    expect(kinds).toEqual(['missing-root', 'dangling-reference']);
  });

  it.each([
    ['self', [card('root', 'root')], 'lists itself'],
    ['direct', [card('root', 'c1'), card('c1', 'root')], '"root" → "c1" → "root"'],
    ['indirect', [card('root', 'c1'), card('c1', 'c2'), card('c2', 'root')], '"c2" → "root"'],
  ])('reports a %s cycle once', (_, components, words) => {
    const problems = findTopologyProblems(tree(...components));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toContain('Circular reference detected');
    expect(problems[0]!.message).toContain(words);
  });

  it('reports an orphan, and a cycle among orphans', () => {
    const problems = findTopologyProblems(tree(text('root'), card('x', 'y'), card('y', 'x')));
    expect(problems.map((problem) => problem.kind)).toEqual([
      'circular-reference',
      'orphaned-component',
      'orphaned-component',
    ]);
  });

  it('walks a deep chain without recursion', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) =>
      card(i === 0 ? 'root' : `c${i}`, `c${i + 1}`),
    );
    const problems = findTopologyProblems(tree(...chain, text('c20000')));
    expect(problems).toEqual([]);
  });
});

describe('MessageProcessor strict', () => {
  const create = {
    version: 'v0.9',
    createSurface: {
      surfaceId: 's',
      catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
    },
  };
  const update = (components: ComponentInstance[]) => ({
    version: 'v0.9',
    updateComponents: { surfaceId: 's', components },
  });

  it('rejects an update that leaves the tree broken and keeps the previous components', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs(), strict: true });
    processor.process([create, update([{ id: 'root', component: 'Card', child: 'a' }, text('a')])]);
    const { errors } = processor.process(update([{ id: 'a', component: 'Card', child: 'root' }]));
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components',
      }),
    ]);
    expect(errors[0]!.message).toMatch(/^Circular reference detected/);
    expect(processor.getSurface('s')!.components.get('a')!.type).toBe('Text');
  });

  it('is off by default: a parent may arrive before its children', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const { errors } = processor.process([
      create,
      update([{ id: 'root', component: 'Card', child: 'later' }]),
    ]);
    expect(errors).toEqual([]);
  });
});
