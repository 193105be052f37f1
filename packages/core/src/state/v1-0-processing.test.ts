/**
 * v1.0 candidate semantics in MessageProcessor (`specification/v1_0`, conformance
 * `data_deletion.yaml`, `multi_catalog.yaml`, `composition_constraints.yaml`).
 */
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog/catalog.js';
import { CatalogRegistry } from '../catalog/catalog-registry.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { V1_0_BASIC_CATALOG_ID } from '../versions/v1-0-catalogs.js';
import { MessageProcessor } from './message-processor.js';
import { snapshotState } from './snapshot.js';

const newProcessor = () => new MessageProcessor({ catalogs: createDefaultCatalogs() });
const v1 = (body: Record<string, unknown>) => ({ version: 'v1.0', ...body });

function customProcessor(components: Record<string, unknown>): MessageProcessor {
  return new MessageProcessor({
    catalogs: [
      createCatalog({
        catalogId: 'custom',
        protocolVersion: '1.0',
        schema: { catalogId: 'custom', components },
      }),
    ],
  });
}

describe('v1.0 createSurface', () => {
  it('creates components and the data model inline, with metadata and sendDataModel', () => {
    const processor = newProcessor();
    const { errors } = processor.process(
      v1({
        createSurface: {
          surfaceId: 's',
          catalogId: V1_0_BASIC_CATALOG_ID,
          sendDataModel: true,
          metadata: { extensions: { acme_streaming: { on: true } } },
          components: [
            { id: 'root', component: 'Column', children: ['b'] },
            { id: 'b', component: 'Button', child: 'l', action: { event: { name: 'go' } } },
            { id: 'l', component: 'Text', text: { path: '/label' } },
          ],
          dataModel: { label: 'Go', counter: 42 },
        },
      }),
    );
    expect(errors).toEqual([]);
    const surface = processor.getSurface('s')!;
    expect(surface.sendDataModel).toBe(true);
    expect(surface.metadata).toEqual({ extensions: { acme_streaming: { on: true } } });
    expect(surface.dataModel.getSnapshot()).toEqual({ label: 'Go', counter: 42 });
    expect([...surface.components.values()].map((record) => record.id)).toEqual(['root', 'b', 'l']);
  });

  it('accepts "1.0" and the drafted @-prefixed keys as aliases', () => {
    const processor = newProcessor();
    const { errors } = processor.process({
      version: '1.0',
      createSurface: {
        surfaceId: 's',
        catalogId: V1_0_BASIC_CATALOG_ID,
        components: [
          {
            id: 'root',
            component: 'Text',
            text: { '@path': '/name' },
            '@accessibility': { label: 'Name' },
          },
        ],
      },
    });
    expect(errors).toEqual([]);
    const root = processor.getSurface('s')!.components.get('root')!.properties;
    expect(root.text).toEqual({ path: '/name' });
    expect(root.accessibility).toEqual({ label: 'Name' });
  });

  it('points its errors at the keys as the agent wrote them: @@-escaped and @-aliased', () => {
    const processor = newProcessor();
    processor.process({
      version: '1.0',
      createSurface: { surfaceId: 's', catalogId: V1_0_BASIC_CATALOG_ID },
    });
    const pathsOf = (component: Record<string, unknown>, text = false) => {
      const message = {
        version: '1.0',
        updateComponents: { surfaceId: 's', components: [component] },
      };
      const { errors } = processor.process(text ? JSON.stringify(message) : message);
      return errors.map((error) => ('path' in error ? error.path : undefined));
    };
    const button = {
      id: 'root',
      component: 'Button',
      child: 'root',
      action: { event: { name: 'go', context: { '@@at': { '@path': 5 } } } },
    };
    const at = '/updateComponents/components/0';
    expect(pathsOf(button)).toEqual([`${at}/action/event/context/@@at/@path`]);
    expect(pathsOf(button, true)).toEqual([`${at}/action/event/context/@@at/@path`]);
    expect(pathsOf({ id: 'root', component: 'Text', text: 'x', '@@lit': 1 })).toEqual([
      `${at}/@@lit`,
    ]);
    expect(pathsOf({ id: 'root', component: 'Text', text: { '@path': 7 } })).toEqual([
      `${at}/text/@path`,
    ]);
    // A bare key stays bare; only the spelling the agent used is given back.
    expect(pathsOf({ id: 'root', component: 'Text', text: { path: 7 } })).toEqual([
      `${at}/text/path`,
    ]);
  });

  it('reads @-prefixed keys in JSON text, written plainly or as \\u0040 escapes', () => {
    const processor = newProcessor();
    // The text is searched for a possible `@` key before its messages are walked: an escaped
    // `@` (`"\u0040path"` parses to "@path") must not be missed.
    const escaped = String.raw`{"version":"v1.0","createSurface":{"surfaceId":"s","catalogId":"${V1_0_BASIC_CATALOG_ID}","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text","text":{"\u0040path":"/name"}}]}}`;
    // An `@` that starts no key (inside a value) comes before the one that does: the search
    // goes on past it.
    const plain = JSON.stringify(
      v1({
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'c', component: 'Text', text: 'mail me@example.com' },
            { id: 'b', component: 'Text', text: { '@path': '/other' } },
          ],
        },
      }),
    );
    expect(processor.process(escaped).errors).toEqual([]);
    expect(processor.process(plain).errors).toEqual([]);
    const components = processor.getSurface('s')!.components;
    expect(components.get('a')!.properties.text).toEqual({ path: '/name' });
    expect(components.get('b')!.properties.text).toEqual({ path: '/other' });
    // Text without any `@` key applies as it is.
    const bare = JSON.stringify(
      v1({
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'b', component: 'Text', text: { path: '/bare' } }],
        },
      }),
    );
    expect(processor.process(bare).errors).toEqual([]);
    expect(components.get('b')!.properties.text).toEqual({ path: '/bare' });
  });

  it('lets catalogId out: components then name their own catalog', () => {
    const processor = newProcessor();
    const { errors } = processor.process([
      v1({ createSurface: { surfaceId: 's' } }),
      v1({
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'root', component: 'Text', text: 'x', catalogId: V1_0_BASIC_CATALOG_ID },
          ],
        },
      }),
      v1({
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'other', component: 'Text', text: 'y' }],
        },
      }),
    ]);
    expect(processor.getSurface('s')!.defaultCatalogId).toBeUndefined();
    expect(processor.getSurface('s')!.components.has('root')).toBe(true);
    expect(processor.getSurface('s')!.components.has('other')).toBe(false);
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'CATALOG_NOT_FOUND',
        path: '/updateComponents/components/0/catalogId',
        message: "Component 'other' names no catalogId and surface 's' has no default catalog.",
      }),
    ]);
  });

  it('refuses theme, the reserved Surface type, and leaves no surface behind', () => {
    const processor = newProcessor();
    const { errors } = processor.process([
      v1({ createSurface: { surfaceId: 'a', catalogId: V1_0_BASIC_CATALOG_ID, theme: {} } }),
      v1({
        createSurface: {
          surfaceId: 'b',
          catalogId: V1_0_BASIC_CATALOG_ID,
          components: [{ id: 'root', component: 'Surface', child: 'root' }],
        },
      }),
    ]);
    expect(errors.map((error) => error.path)).toEqual([
      '/createSurface/theme',
      '/createSurface/components/0/component',
    ]);
    expect(processor.getSurfaces()).toEqual([]);
  });

  it('keeps accessibility live and hidden on the component', () => {
    const processor = newProcessor();
    const accessibility = { label: 'Status', live: 'polite', hidden: { path: '/hide' } };
    const { errors } = processor.process(
      v1({
        createSurface: {
          surfaceId: 's',
          catalogId: V1_0_BASIC_CATALOG_ID,
          components: [{ id: 'root', component: 'Text', text: 'ok', accessibility }],
        },
      }),
    );
    expect(errors).toEqual([]);
    expect(processor.getSurface('s')!.components.get('root')!.properties.accessibility).toEqual(
      accessibility,
    );
  });
});

describe('v1.0 updateDataModel', () => {
  const start = () => {
    const processor = newProcessor();
    processor.process(
      v1({
        createSurface: {
          surfaceId: 's',
          catalogId: V1_0_BASIC_CATALOG_ID,
          dataModel: { user: { name: 'Alice', token: 'abc' }, keep: 1 },
        },
      }),
    );
    return processor;
  };

  it('deletes the key at path when value is null, keeping siblings', () => {
    const processor = start();
    expect(
      processor.process(
        v1({ updateDataModel: { surfaceId: 's', path: '/user/token', value: null } }),
      ).errors,
    ).toEqual([]);
    expect(processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({
      user: { name: 'Alice' },
      keep: 1,
    });
    processor.process(v1({ updateDataModel: { surfaceId: 's', path: '/user', value: null } }));
    expect(processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({ keep: 1 });
  });

  it('requires value (omitting it no longer deletes)', () => {
    const processor = start();
    const before = snapshotState(processor);
    const { errors } = processor.process(
      v1({ updateDataModel: { surfaceId: 's', path: '/keep' } }),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateDataModel/value',
      }),
    ]);
    expect(snapshotState(processor)).toEqual(before);
  });
});

describe('v1.0 mixed catalogs', () => {
  const catalogs = () =>
    new CatalogRegistry([
      createCatalog({ catalogId: 'main', protocolVersion: 'v1.0', components: ['Column'] }),
      createCatalog({ catalogId: 'charts', protocolVersion: 'v1.0', components: ['PieChart'] }),
      createCatalog({ catalogId: 'legacy', components: ['Old'] }),
    ]);

  it('resolves a component by its own catalogId, then the surface default', () => {
    const processor = new MessageProcessor({ catalogs: catalogs() });
    const { errors } = processor.process([
      v1({ createSurface: { surfaceId: 's', catalogId: 'main' } }),
      v1({
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'root', component: 'Column', children: ['c1'] },
            { id: 'c1', component: 'PieChart', catalogId: 'charts', data: [10, 20] },
          ],
        },
      }),
    ]);
    expect(errors).toEqual([]);
    const surface = processor.getSurface('s')!;
    expect(surface.catalogFor(surface.components.get('c1')!.properties).catalogId).toBe('charts');
    expect(surface.catalogFor(surface.components.get('root')!.properties).catalogId).toBe('main');
    expect(surface.catalogs.map((catalog) => catalog.catalogId)).toEqual(['main', 'charts']);
  });

  it('refuses an unsupported catalog and a catalog of another version', () => {
    const processor = new MessageProcessor({ catalogs: catalogs() });
    processor.process(v1({ createSurface: { surfaceId: 's', catalogId: 'main' } }));
    const { errors } = processor.process([
      v1({
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'x', component: 'W', catalogId: 'vendor' }],
        },
      }),
      v1({
        updateComponents: {
          surfaceId: 's',
          components: [{ id: 'y', component: 'Old', catalogId: 'legacy' }],
        },
      }),
    ]);
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      ['CATALOG_NOT_FOUND', "Catalog 'vendor' is not supported by surface 's'."],
      [
        'CATALOG_VERSION_MISMATCH',
        "Protocol version mismatch: cannot mix catalog 'legacy' (v0.9) with surface version v1.0.",
      ],
    ]);
    expect(processor.getSurface('s')!.components.size).toBe(0);
  });
});

describe('v1.0 composition constraints', () => {
  it('accepts a root allowed under the implicit Surface container', () => {
    const processor = customProcessor({ Frame: { allowedParents: ['Surface'] }, Text: {} });
    const { errors } = processor.process(
      v1({
        createSurface: {
          surfaceId: 's',
          catalogId: 'custom',
          components: [
            { id: 'root', component: 'Frame', children: ['t'] },
            { id: 't', component: 'Text' },
          ],
        },
      }),
    );
    expect(errors).toEqual([]);
  });

  it('reports UNALLOWED_PARENT with the spec wording and creates nothing', () => {
    const processor = customProcessor({
      ColumnHeader: { allowedParents: ['Column'] },
      Row: { type: 'object' },
    });
    const { errors } = processor.process(
      v1({
        createSurface: {
          surfaceId: 's1',
          catalogId: 'custom',
          components: [
            { id: 'root', component: 'Row', children: ['invalid_header'] },
            { id: 'invalid_header', component: 'ColumnHeader' },
          ],
        },
      }),
    );
    expect(errors).toEqual([
      {
        code: 'UNALLOWED_PARENT',
        surfaceId: 's1',
        path: '/createSurface/components/1',
        message:
          "Component 'invalid_header' (ColumnHeader) cannot be placed under parent 'root' (Row). Allowed parents: ['Column'].",
      },
    ]);
    expect(processor.getSurface('s1')).toBeUndefined();
  });

  it('reports UNALLOWED_CHILD, also when the child arrives after its container', () => {
    const processor = customProcessor({
      RestrictedBox: { allowedChildren: ['Text', 'Button'] },
      Video: {},
    });
    processor.process(
      v1({
        createSurface: {
          surfaceId: 's1',
          catalogId: 'custom',
          components: [{ id: 'root', component: 'RestrictedBox', children: ['v1'] }],
        },
      }),
    );
    const before = snapshotState(processor);
    const { errors } = processor.process(
      v1({ updateComponents: { surfaceId: 's1', components: [{ id: 'v1', component: 'Video' }] } }),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'UNALLOWED_CHILD',
        path: '/updateComponents/components',
        message:
          "Container 'root' (RestrictedBox) cannot contain child 'v1' (Video). Allowed children: ['Text', 'Button'].",
      }),
    ]);
    expect(snapshotState(processor)).toEqual(before);
  });

  it('reports a root that may not sit under the Surface', () => {
    const processor = customProcessor({ MenuItem: { allowedParents: ['Menu'] } });
    const { errors } = processor.process(
      v1({
        createSurface: {
          surfaceId: 's',
          catalogId: 'custom',
          components: [{ id: 'root', component: 'MenuItem' }],
        },
      }),
    );
    expect(errors).toEqual([expect.objectContaining({ code: 'UNALLOWED_PARENT' })]);
  });
});

describe('v1.0 function-call messages', () => {
  it('hands callRendererFunction and agentFunctionResponse to the function layer', () => {
    const processor = newProcessor();
    const seen: string[] = [];
    processor.onFunctionMessage((message, version) =>
      seen.push(`${message.kind}:${message.functionCallId}:${version.name}`),
    );
    const { errors } = processor.process([
      v1({
        callRendererFunction: {
          functionCallId: 'f1',
          callFunction: { call: 'now', catalogId: V1_0_BASIC_CATALOG_ID },
        },
      }),
      v1({ agentFunctionResponse: { functionCallId: 'f2', value: 3 } }),
      v1({
        agentFunctionResponse: {
          functionCallId: 'f3',
          value: 3,
          error: { code: 'X', message: 'y' },
        },
      }),
    ]);
    expect(seen).toEqual(['callRendererFunction:f1:v1.0', 'agentFunctionResponse:f2:v1.0']);
    expect(errors).toEqual([expect.objectContaining({ path: '/agentFunctionResponse' })]);
  });
});
