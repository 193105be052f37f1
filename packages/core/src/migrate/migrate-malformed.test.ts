/**
 * Malformed input to `migrateMessages` (break-core): the CLI's `a2ui migrate` feeds it files it
 * has not validated, so a message the translators cannot read is one issue, never a TypeError.
 */
import { describe, expect, it } from 'vitest';
import { migrateMessages } from './migrate-messages.js';

const V09_CREATE = {
  version: 'v0.9',
  createSurface: {
    surfaceId: 's',
    catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
  },
};
const V09_DATA = { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/a', value: 1 } };

describe('migrateMessages with a malformed message', () => {
  it.each([
    [
      'v0.8 components that are not an array',
      { surfaceUpdate: { surfaceId: 's', components: 5 } },
      'v1.0',
    ],
    ['a null v0.8 component', { surfaceUpdate: { surfaceId: 's', components: [null] } }, 'v0.9'],
    [
      'v0.9 components that are not an array (to v1.0)',
      { version: 'v0.9', updateComponents: { surfaceId: 's', components: 'x' } },
      'v1.0',
    ],
    [
      'v0.9 components that are not an array (to v0.8)',
      { version: 'v0.9', updateComponents: { surfaceId: 's', components: 'x' } },
      'v0.8',
    ],
    [
      'null v1.0 components',
      { version: 'v1.0', updateComponents: { surfaceId: 's', components: [null, 5] } },
      'v0.9',
    ],
  ] as const)('reports %s and converts the rest', (_, bad, to) => {
    const begin = { beginRendering: { surfaceId: 's', root: 'root' } };
    const input = 'surfaceUpdate' in bad ? [begin, bad, V09_DATA] : [V09_CREATE, bad, V09_DATA];
    const result = migrateMessages(input, { to });
    expect(result.issues).toContainEqual({
      index: 1,
      path: '',
      message: expect.stringContaining('dropped'),
    });
    // The message after the bad one is still converted.
    expect(JSON.stringify(result.messages.at(-1))).toContain('"surfaceId":"s"');
    expect(result.messages.length).toBeGreaterThanOrEqual(2);
  });
});

describe('migrateMessages with a message nested thousands deep', () => {
  it.each(['v0.8', 'v0.9', 'v1.0'] as const)(
    'to %s: reports it at its first too-deep container, drops it and converts the rest',
    (to) => {
      let value: unknown = 1;
      for (let level = 0; level < 10_000; level++) value = [value];
      const deep = { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/d', value } };
      const result = migrateMessages([V09_CREATE, deep, V09_DATA], { to });
      expect(result.issues).toEqual([
        {
          index: 1,
          path: `/updateDataModel/value${'/0'.repeat(62)}`,
          message: expect.stringContaining('nested more than 64 levels deep'),
        },
      ]);
      expect(JSON.stringify(result.messages)).toContain('"/a"');
      expect(result.messages.length).toBeGreaterThanOrEqual(2);
    },
  );
});

describe('migrateMessages from v1.0 in the drafted @ spelling', () => {
  it('reports each loss at the key as written: @-aliased and @@-escaped keys keep their spelling', () => {
    const create = {
      version: '1.0',
      createSurface: {
        surfaceId: 's',
        catalogId: 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json',
      },
    };
    const update = {
      version: '1.0',
      updateComponents: {
        surfaceId: 's',
        components: [
          { id: 'root', component: 'Text', text: 'x', '@metadata': { extensions: {} } },
          {
            id: 'go',
            component: 'Button',
            child: 'root',
            action: { event: { name: 'go', context: { '@@at': { '@call': '@index' } } } },
          },
        ],
      },
    };
    const { issues } = migrateMessages([create, update], { to: 'v0.9' });
    expect(issues.map((issue) => issue.path)).toEqual([
      '/updateComponents/components/0/@metadata',
      '/updateComponents/components/1/action/event/context/@@at',
    ]);
  });
});
