import { describe, expect, it } from 'vitest';
import { hoistInlineTemplates, INLINE_TEMPLATE_ID_SUFFIX } from './hoist-inline-templates.js';

describe('hoistInlineTemplates', () => {
  it('turns an inline template into a ChildList template and hoists it with its components', () => {
    const input = [
      {
        id: 'list',
        component: 'Collection',
        items: '/tasks',
        template: {
          component: 'Row',
          children: ['cell'],
          components: [{ id: 'cell', component: 'Text', text: { path: '' } }],
        },
      },
    ];
    const templateId = `list${INLINE_TEMPLATE_ID_SUFFIX}`;
    expect(hoistInlineTemplates(input)).toEqual([
      {
        id: 'list',
        component: 'Collection',
        items: '/tasks',
        template: { componentId: templateId, path: '/tasks' },
      },
      { id: templateId, component: 'Row', children: ['cell'] },
      { id: 'cell', component: 'Text', text: { path: '' } },
    ]);
    expect(input[0]!.template).toHaveProperty('components');
  });

  it('keeps a named template id, hoists nested collections, and leaves other components alone', () => {
    const out = hoistInlineTemplates([
      {
        id: 'outer',
        component: 'Collection',
        items: '/groups',
        template: {
          id: 'inner',
          component: 'Collection',
          items: 'members',
          template: { id: 'name', component: 'Text', text: { path: 'name' } },
        },
      },
      { id: 'plain', component: 'Text', text: 'hi', template: 'not a component' },
    ]);
    expect(out.map((component) => component.id)).toEqual(['outer', 'inner', 'name', 'plain']);
    expect(out[1]!.template).toEqual({ componentId: 'name', path: 'members' });
    expect(out[3]!.template).toBe('not a component');
  });
});
