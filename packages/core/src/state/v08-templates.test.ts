import { describe, expect, it } from 'vitest';
import { ComponentBinding } from '../binding/component-binding.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { resolveSurfaceNodes } from '../testing/conformance/resolve-nodes.js';

/** A list of people as v0.9 writes it: an array under `/people`, one Text per item. */
const v09List = [
  { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 's',
      components: [
        { id: 'root', component: 'Column', children: { componentId: 'person', path: '/people' } },
        { id: 'person', component: 'Text', text: { path: 'name' } },
      ],
    },
  },
  {
    version: 'v0.9',
    updateDataModel: {
      surfaceId: 's',
      path: '/people',
      value: [{ name: 'Ada' }, { name: 'Grace' }, { name: 'Barbara' }],
    },
  },
];

/** A v0.8 `dataModelUpdate` writing `items` (key → name) as a map at `/people`. */
function v08People(items: [string, string][]): unknown {
  return {
    dataModelUpdate: {
      surfaceId: 's',
      path: '/people',
      contents: items.map(([key, name]) => ({
        key,
        valueMap: [{ key: 'name', valueString: name }],
      })),
    },
  };
}

/** The same list UI as v0.8 sends it: a `template` child list over an index-keyed `valueMap`. */
const v08List = [
  {
    surfaceUpdate: {
      surfaceId: 's',
      components: [
        {
          id: 'root',
          component: {
            Column: { children: { template: { componentId: 'person', dataBinding: '/people' } } },
          },
        },
        { id: 'person', component: { Text: { text: { path: 'name' } } } },
      ],
    },
  },
  v08People([
    ['0', 'Ada'],
    ['1', 'Grace'],
    ['2', 'Barbara'],
  ]),
  { beginRendering: { surfaceId: 's', root: 'root' } },
];

function clientWith(messages: readonly unknown[]): A2uiClient {
  const client = new A2uiClient();
  for (const message of messages) expect(client.process(message).errors).toEqual([]);
  return client;
}

/** The root Column's binding on surface `s`, for reading its expanded children. */
function rootBinding(client: A2uiClient): ComponentBinding {
  const record = client.processor.getSurface('s')!.components.get('root')!;
  return new ComponentBinding(record, client.getDataContext('s', '/'));
}

describe('v0.8 templates over valueMap lists', () => {
  it('render the same items as the same UI sent as v0.9', () => {
    const v08 = resolveSurfaceNodes(clientWith(v08List), 's');
    const v09 = resolveSurfaceNodes(clientWith(v09List), 's');
    expect([...v08.keys()]).toEqual(['root', 'person_0', 'person_1', 'person_2']);
    expect(v08.get('person_1')?.props).toEqual({ text: 'Grace' });
    expect(v08).toEqual(v09);
  });

  it('expand to the same child references as the v0.9 array, in index order', () => {
    // Keys arriving out of order still render by index, as the array they stand for would.
    const v08 = clientWith([
      ...v08List.slice(0, 1),
      v08People([
        ['1', 'Grace'],
        ['0', 'Ada'],
        ['2', 'Barbara'],
      ]),
      v08List[2],
    ]);
    const v09 = clientWith(v09List);
    expect(rootBinding(v08).getSnapshot().props.children).toEqual(
      rootBinding(v09).getSnapshot().props.children,
    );
  });

  it('iterate a map with arbitrary keys in the order they arrived', () => {
    const client = clientWith([
      v08List[0],
      v08People([
        ['lovelace', 'Ada'],
        ['hopper', 'Grace'],
      ]),
      v08List[2],
    ]);
    expect(rootBinding(client).getSnapshot().props.children).toEqual([
      { id: 'person', scope: '/people/lovelace', key: 'person@lovelace', templateIndex: 0 },
      { id: 'person', scope: '/people/hopper', key: 'person@hopper', templateIndex: 1 },
    ]);
    const nodes = resolveSurfaceNodes(client, 's');
    const binding = new ComponentBinding(
      client.processor.getSurface('s')!.components.get('person')!,
      client.getDataContext('s', '/people/hopper'),
    );
    expect(binding.getSnapshot().props.text).toBe('Grace');
    expect(nodes.get('root')?.props.children).toEqual(['person', 'person']);
  });

  it('follow later writes into the map while subscribed', () => {
    const client = clientWith(v08List);
    const binding = rootBinding(client);
    let notified = 0;
    const unsubscribe = binding.subscribe(() => notified++);
    expect(binding.getSnapshot().props.children).toHaveLength(3);
    const write = {
      dataModelUpdate: {
        surfaceId: 's',
        path: '/people/3',
        contents: [{ key: 'name', valueString: 'Frances' }],
      },
    };
    expect(client.process(write).errors).toEqual([]);
    expect(notified).toBeGreaterThan(0);
    expect(binding.getSnapshot().props.children).toContainEqual({
      id: 'person',
      scope: '/people/3',
      key: 'person@3',
      templateIndex: 3,
    });
    // Replacing the map with one of other keys, same size, re-expands too.
    expect(
      client.process(
        v08People([
          ['a', 'A'],
          ['b', 'B'],
          ['c', 'C'],
          ['d', 'D'],
        ]),
      ).errors,
    ).toEqual([]);
    expect(
      (binding.getSnapshot().props.children as { scope: string }[]).map((child) => child.scope),
    ).toEqual(['/people/a', '/people/b', '/people/c', '/people/d']);
    unsubscribe();
  });

  it('leave v0.9 surfaces iterating arrays only (v0.9 §7.4)', () => {
    const client = clientWith([
      ...v09List.slice(0, 2),
      {
        version: 'v0.9',
        updateDataModel: { surfaceId: 's', path: '/people', value: { 0: { name: 'Ada' } } },
      },
    ]);
    expect(rootBinding(client).getSnapshot().props.children).toEqual([]);
  });
});
