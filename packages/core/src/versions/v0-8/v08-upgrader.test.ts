import { describe, expect, it } from 'vitest';
import { BASIC_CATALOG_ID } from '../../protocol/constants.js';
import { V08Downgrader } from './v08-downgrader.js';
import { V08Upgrader } from './v08-upgrader.js';

const V = 'v0.9';

describe('V08Upgrader', () => {
  it('buffers components and data until beginRendering, then creates the surface first', () => {
    const upgrader = new V08Upgrader();
    const first = upgrader.upgrade({
      surfaceUpdate: {
        surfaceId: 's',
        components: [
          { id: 'root', component: { Text: { text: { literalString: 'Hi' }, usageHint: 'h1' } } },
        ],
      },
    });
    expect(first.messages).toEqual([]);
    const { messages, issues } = upgrader.upgrade(
      { beginRendering: { surfaceId: 's', root: 'root', styles: { primaryColor: '#00ff00' } } },
      1,
    );
    expect(issues).toEqual([]);
    expect(messages).toEqual([
      {
        version: V,
        createSurface: {
          surfaceId: 's',
          catalogId: BASIC_CATALOG_ID,
          theme: { primaryColor: '#00ff00' },
        },
      },
      {
        version: V,
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'root', component: 'Text', text: 'Hi', variant: 'h1' }],
        },
      },
    ]);
  });

  it('maps standard components, children, actions and the path+literal shorthand', () => {
    const upgrader = new V08Upgrader();
    upgrader.upgrade({ beginRendering: { surfaceId: 's', root: 'root' } });
    const { messages, issues } = upgrader.upgrade({
      surfaceUpdate: {
        surfaceId: 's',
        components: [
          {
            id: 'root',
            component: {
              Column: { children: { explicitList: ['list', 'btn'] }, distribution: 'center' },
            },
          },
          {
            id: 'list',
            component: {
              List: { children: { template: { componentId: 'item', dataBinding: '/items' } } },
            },
          },
          {
            id: 'btn',
            weight: 2,
            component: {
              Button: {
                child: 'label',
                primary: true,
                action: {
                  name: 'go',
                  context: [
                    { key: 'who', value: { path: '/name' } },
                    { key: 'n', value: { literalNumber: 3 } },
                  ],
                },
              },
            },
          },
          {
            id: 'name',
            component: {
              TextField: {
                label: { literalString: 'Name' },
                text: { path: '/name', literalString: 'Ann' },
              },
            },
          },
          {
            id: 'pick',
            component: {
              MultipleChoice: {
                selections: { literalArray: ['a'] },
                options: [{ label: { literalString: 'A' }, value: 'a' }],
                maxAllowedSelections: 1,
              },
            },
          },
        ],
      },
    });
    expect(issues).toEqual([]);
    expect(messages[0]).toEqual({
      version: V,
      updateDataModel: { surfaceId: 's', path: '/name', value: 'Ann' },
    });
    expect(messages[1]).toEqual({
      version: V,
      updateComponents: {
        surfaceId: 's',
        components: [
          { id: 'root', component: 'Column', children: ['list', 'btn'], justify: 'center' },
          { id: 'list', component: 'List', children: { componentId: 'item', path: '/items' } },
          {
            id: 'btn',
            component: 'Button',
            child: 'label',
            variant: 'primary',
            weight: 2,
            action: { event: { name: 'go', context: { who: { path: '/name' }, n: 3 } } },
          },
          { id: 'name', component: 'TextField', label: 'Name', value: { path: '/name' } },
          {
            id: 'pick',
            component: 'ChoicePicker',
            value: ['a'],
            options: [{ label: 'A', value: 'a' }],
          },
        ],
      },
    });
  });

  it('turns contents entries into values and normalises the path', () => {
    const upgrader = new V08Upgrader();
    upgrader.upgrade({ beginRendering: { surfaceId: 's', root: 'root' } });
    const { messages } = upgrader.upgrade({
      dataModelUpdate: {
        surfaceId: 's',
        path: 'user',
        contents: [
          { key: 'name', valueString: 'Bob' },
          { key: 'ok', valueBoolean: true },
          { key: 'address', valueMap: [{ key: 'zip', valueNumber: 123 }] },
        ],
      },
    });
    expect(messages).toEqual([
      {
        version: V,
        updateDataModel: {
          surfaceId: 's',
          path: '/user',
          value: { name: 'Bob', ok: true, address: { zip: 123 } },
        },
      },
    ]);
  });

  it('renames a root other than "root" and reports it', () => {
    const upgrader = new V08Upgrader();
    upgrader.upgrade({ beginRendering: { surfaceId: 's', root: 'main' } });
    const { messages } = upgrader.upgrade(
      {
        surfaceUpdate: {
          surfaceId: 's',
          components: [{ id: 'main', component: { Card: { child: 'root' } } }],
        },
      },
      1,
    );
    expect(messages[0]).toMatchObject({
      updateComponents: { components: [{ id: 'root', child: 'main' }] },
    });
    const kept = new V08Upgrader({ renameRoot: false });
    kept.upgrade({ beginRendering: { surfaceId: 's', root: 'main' } });
    expect(kept.rootIdOf('s')).toBe('main');
  });

  it('reports what v0.9 cannot express and surfaces that never began', () => {
    const upgrader = new V08Upgrader();
    upgrader.upgrade({ beginRendering: { surfaceId: 's', root: 'root' } });
    const { issues } = upgrader.upgrade(
      {
        surfaceUpdate: {
          surfaceId: 's',
          components: [
            {
              id: 'root',
              component: { TextField: { label: { literalString: 'D' }, textFieldType: 'date' } },
            },
          ],
        },
      },
      4,
    );
    expect(issues).toEqual([
      expect.objectContaining({
        index: 4,
        path: '/surfaceUpdate/components/0/component/TextField/textFieldType',
      }),
    ]);
    upgrader.upgrade({ dataModelUpdate: { surfaceId: 'never', contents: [] } }, 5);
    expect(upgrader.finish()).toEqual([expect.objectContaining({ index: 5 })]);
  });
});

describe('V08Downgrader', () => {
  it('inverts the upgrade for the basic catalog', () => {
    const downgrader = new V08Downgrader();
    expect(
      downgrader.downgrade({
        version: V,
        createSurface: {
          surfaceId: 's',
          catalogId: BASIC_CATALOG_ID,
          theme: { primaryColor: '#112233' },
        },
      }).messages,
    ).toEqual([
      { beginRendering: { surfaceId: 's', root: 'root', styles: { primaryColor: '#112233' } } },
    ]);
    const { messages, issues } = downgrader.downgrade({
      version: V,
      updateComponents: {
        surfaceId: 's',
        components: [
          { id: 'root', component: 'Text', text: { path: '/t' }, variant: 'h2' },
          { id: 'img', component: 'Image', url: 'u', fit: 'scaleDown' },
          {
            id: 'c',
            component: 'ChoicePicker',
            value: ['x'],
            options: [{ label: 'X', value: 'x' }],
          },
        ],
      },
    });
    expect(issues).toEqual([]);
    expect(messages).toEqual([
      {
        surfaceUpdate: {
          surfaceId: 's',
          components: [
            { id: 'root', component: { Text: { text: { path: '/t' }, usageHint: 'h2' } } },
            { id: 'img', component: { Image: { url: { literalString: 'u' }, fit: 'scale-down' } } },
            {
              id: 'c',
              component: {
                MultipleChoice: {
                  selections: { literalArray: ['x'] },
                  options: [{ label: { literalString: 'X' }, value: 'x' }],
                  maxAllowedSelections: 1,
                },
              },
            },
          ],
        },
      },
    ]);
  });

  it('splits nested data into valueMaps a level deep and reports arrays, nulls and deletions', () => {
    const downgrader = new V08Downgrader();
    const { messages, issues } = downgrader.downgrade(
      {
        version: V,
        updateDataModel: {
          surfaceId: 's',
          value: { a: 1, b: { c: 'x', d: { e: true } }, f: null },
        },
      },
      3,
    );
    expect(messages).toEqual([
      {
        dataModelUpdate: {
          surfaceId: 's',
          contents: [
            { key: 'a', valueNumber: 1 },
            { key: 'b', valueMap: [{ key: 'c', valueString: 'x' }] },
          ],
        },
      },
      {
        dataModelUpdate: {
          surfaceId: 's',
          path: '/b/d',
          contents: [{ key: 'e', valueBoolean: true }],
        },
      },
    ]);
    expect(issues).toEqual([
      expect.objectContaining({ index: 3, path: '/updateDataModel/value/f' }),
    ]);
    expect(
      downgrader.downgrade({ version: V, updateDataModel: { surfaceId: 's', path: '/x' } }).issues,
    ).toHaveLength(1);
    expect(
      downgrader.downgrade({
        version: V,
        updateDataModel: { surfaceId: 's', path: '/x', value: 'v' },
      }).messages,
    ).toEqual([
      {
        dataModelUpdate: { surfaceId: 's', path: '/x', contents: [{ key: '.', valueString: 'v' }] },
      },
    ]);
  });

  it('reports function calls, checks and accessibility', () => {
    const { issues } = new V08Downgrader().downgrade({
      version: V,
      updateComponents: {
        surfaceId: 's',
        components: [
          {
            id: 'root',
            component: 'Text',
            text: { call: 'formatString', args: { value: '${/a}' } },
            accessibility: { label: 'x' },
          },
        ],
      },
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      '/updateComponents/components/0/text',
      // Text.text is required in v0.8: an empty literal stands in, and that is reported too.
      '/updateComponents/components/0/text',
      '/updateComponents/components/0/accessibility',
    ]);
  });
});
