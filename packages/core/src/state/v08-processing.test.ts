import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/index.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { V08_STANDARD_CATALOG_ID } from '../versions/v0-8/v08-messages.js';
import { MessageProcessor } from './message-processor.js';
import { snapshotState } from './snapshot.js';

const v08Stream = [
  {
    surfaceUpdate: {
      surfaceId: 's',
      components: [
        { id: 'main', component: { Column: { children: { explicitList: ['title', 'btn'] } } } },
      ],
    },
  },
  {
    surfaceUpdate: {
      surfaceId: 's',
      components: [
        { id: 'title', component: { Text: { text: { path: '/title' }, usageHint: 'h2' } } },
        {
          id: 'btn',
          component: {
            Button: {
              child: 'title',
              action: { name: 'go', context: [{ key: 't', value: { path: '/title' } }] },
            },
          },
        },
      ],
    },
  },
  { dataModelUpdate: { surfaceId: 's', contents: [{ key: 'title', valueString: 'Hello' }] } },
  { beginRendering: { surfaceId: 's', root: 'main', styles: { primaryColor: '#123456' } } },
];

describe('MessageProcessor reading v0.8', () => {
  it('applies a v0.8 stream once beginRendering arrives, keeping ids and the root', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    for (const message of v08Stream.slice(0, 3))
      expect(processor.process(message).errors).toEqual([]);
    expect(processor.getSurfaces()).toEqual([]);
    expect(processor.process(v08Stream[3]).errors).toEqual([]);
    const surface = processor.getSurface('s');
    expect(surface?.protocolVersion.name).toBe('v0.8');
    expect(surface?.rootId).toBe('main');
    expect(snapshotState(processor).surfaces.s).toEqual({
      catalogId: V08_STANDARD_CATALOG_ID,
      theme: { primaryColor: '#123456' },
      sendDataModel: false,
      components: {
        main: { id: 'main', component: 'Column', children: ['title', 'btn'] },
        title: { id: 'title', component: 'Text', text: { path: '/title' }, variant: 'h2' },
        btn: {
          id: 'btn',
          component: 'Button',
          child: 'title',
          action: { event: { name: 'go', context: { t: { path: '/title' } } } },
        },
      },
      dataModel: { title: 'Hello' },
    });
  });

  it('renders the same as the v0.9 stream of the same UI', () => {
    const v08 = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    v08.process([
      { beginRendering: { surfaceId: 's', root: 'root' } },
      {
        surfaceUpdate: {
          surfaceId: 's',
          components: [
            {
              id: 'root',
              component: {
                Image: {
                  url: { literalString: 'https://x.test/a.png' },
                  fit: 'scale-down',
                  altText: { literalString: 'A' },
                },
              },
            },
          ],
        },
      },
    ]);
    const v09 = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    v09.process([
      { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 's',
          components: [
            {
              id: 'root',
              component: 'Image',
              url: 'https://x.test/a.png',
              fit: 'scaleDown',
              description: 'A',
            },
          ],
        },
      },
    ]);
    // The same components and data; only the catalog's id names the version.
    const v08State = snapshotState(v08);
    expect(v08State.surfaces.s?.catalogId).toBe(V08_STANDARD_CATALOG_ID);
    v08State.surfaces.s!.catalogId = BASIC_CATALOG_ID;
    expect(v08State).toEqual(snapshotState(v09));
  });

  it('rejects what the v0.8 schema rejects, in v0.8 terms, leaving the state intact', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process({ beginRendering: { surfaceId: 's', root: 'root' } });
    const { errors } = processor.process({
      surfaceUpdate: {
        surfaceId: 's',
        components: [{ id: 'root', component: { Text: { text: 'bare string' } } }],
      },
    });
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/surfaceUpdate/components/0/component/Text/text',
      }),
    ]);
    expect(processor.getSurface('s')?.components.size).toBe(0);
    expect(processor.process({ beginRendering: { surfaceId: 123, root: 'root' } }).errors).toEqual([
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/beginRendering/surfaceId' }),
    ]);
  });

  it('does not create a surface from a v0.9 createSurface labelled v0.8', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const { errors } = processor.process({
      version: 'v0.8',
      createSurface: { surfaceId: 'x', catalogId: BASIC_CATALOG_ID },
    });
    expect(errors).toHaveLength(1);
    expect(processor.getSurface('x')).toBeUndefined();
  });

  it('forgets buffered v0.8 messages on reset', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process(v08Stream[0]);
    processor.reset();
    processor.process({ beginRendering: { surfaceId: 's', root: 'main' } });
    expect(processor.getSurface('s')?.components.size).toBe(0);
  });
});
