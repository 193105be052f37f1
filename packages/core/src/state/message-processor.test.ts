import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import type { ServerMessage } from '../protocol/messages.js';
import { EXAMPLE_STREAMS } from '../testing/example-streams.js';
import { MessageProcessor } from './message-processor.js';
import { snapshotState } from './snapshot.js';

const create = (surfaceId = 's', extra: Record<string, unknown> = {}): ServerMessage =>
  ({
    version: 'v0.9',
    createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID, ...extra },
  }) as ServerMessage;
const components = (list: Record<string, unknown>[], surfaceId = 's'): ServerMessage =>
  ({ version: 'v0.9', updateComponents: { surfaceId, components: list } }) as ServerMessage;
const data = (body: Record<string, unknown>, surfaceId = 's'): ServerMessage =>
  ({ version: 'v0.9', updateDataModel: { surfaceId, ...body } }) as ServerMessage;
const text = (id: string, value: unknown = 'hi') => ({ id, component: 'Text', text: value });

const newProcessor = () => new MessageProcessor({ catalogs: createDefaultCatalogs() });

describe('MessageProcessor with the official examples', () => {
  it.each(EXAMPLE_STREAMS.map((stream) => [stream.file, stream] as const))(
    'replays %s with zero errors',
    (_file, stream) => {
      const processor = newProcessor();
      const { errors, applied } = processor.process([...stream.messages]);
      expect(errors).toEqual([]);
      expect(applied).toBe(stream.messages.length);
    },
  );
});

describe('MessageProcessor semantics (spec §2, digest §5, §7)', () => {
  it('creates a surface with its catalog, theme and sendDataModel, in creation order', () => {
    const processor = newProcessor();
    processor.process([
      create('b', { theme: { primaryColor: '#112233' }, sendDataModel: true }),
      { version: 'v0.9', createSurface: { surfaceId: 'a', catalogId: MINIMAL_CATALOG_ID } },
    ]);
    expect(processor.getSurfaces().map((surface) => surface.surfaceId)).toEqual(['b', 'a']);
    const b = processor.getSurface('b')!;
    expect(b.theme).toEqual({ primaryColor: '#112233' });
    expect(b.sendDataModel).toBe(true);
    expect(processor.getSurface('a')!.catalogId).toBe(MINIMAL_CATALOG_ID);
  });

  it('reports a duplicate createSurface and keeps the existing surface', () => {
    const processor = newProcessor();
    processor.process([create(), components([text('root', 'kept')])]);
    const { errors } = processor.process(create());
    expect(errors).toEqual([expect.objectContaining({ code: 'SURFACE_EXISTS', surfaceId: 's' })]);
    expect(processor.getSurface('s')!.components.get('root')!.properties.text).toBe('kept');
  });

  it('reports an unknown catalog', () => {
    const { errors } = newProcessor().process({
      version: 'v0.9',
      createSurface: { surfaceId: 's', catalogId: 'https://example.com/nope' },
    });
    expect(errors).toEqual([
      expect.objectContaining({ code: 'CATALOG_NOT_FOUND', surfaceId: 's' }),
    ]);
  });

  it('reports updates to an unknown surface, and ignores deleting one', () => {
    const processor = newProcessor();
    expect(processor.process(components([text('root')], 'ghost')).errors).toEqual([
      expect.objectContaining({ code: 'SURFACE_NOT_FOUND', surfaceId: 'ghost' }),
    ]);
    expect(processor.process(data({ path: '/x', value: 1 }, 'ghost')).errors[0]?.code).toBe(
      'SURFACE_NOT_FOUND',
    );
    expect(
      processor.process({ version: 'v0.9', deleteSurface: { surfaceId: 'ghost' } }).errors,
    ).toEqual([]);
  });

  it('upserts components by id, replacing the whole property set', () => {
    const processor = newProcessor();
    processor.process([
      create(),
      components([{ id: 'root', component: 'Text', text: 'a', variant: 'h1' }]),
    ]);
    processor.process(components([{ id: 'root', component: 'Text', text: 'b' }]));
    expect(processor.getSurface('s')!.components.get('root')!.properties).toEqual({
      id: 'root',
      component: 'Text',
      text: 'b',
    });
  });

  it('recreates a component whose type changes (new generation), and keeps it for same-type updates', () => {
    const processor = newProcessor();
    processor.process([create(), components([text('root')])]);
    const store = processor.getSurface('s')!.components;
    const first = store.get('root')!.generation;
    processor.process(components([text('root', 'again')]));
    expect(store.get('root')!.generation).toBe(first);
    processor.process(components([{ id: 'root', component: 'Divider' }]));
    expect(store.get('root')!.generation).not.toBe(first);
    expect(store.get('root')!.type).toBe('Divider');
  });

  it('upserts, deletes and replaces the data model', () => {
    const processor = newProcessor();
    processor.process([
      create(),
      data({ value: { user: { a: 1, b: 2 } } }),
      data({ path: '/user/c', value: 3 }),
      data({ path: '/user/a' }),
    ]);
    expect(processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({ user: { b: 2, c: 3 } });
    processor.process(data({ path: '/', value: { fresh: true } }));
    expect(processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({ fresh: true });
  });

  it('deleteSurface disposes components, data and every subscription', () => {
    const processor = newProcessor();
    processor.process([create(), components([text('root')]), data({ path: '/x', value: 1 })]);
    const surface = processor.getSurface('s')!;
    surface.dataModel.subscribe('/x', () => {});
    surface.components.subscribe('root', () => {});
    expect(surface.subscriptionCount).toBe(2);
    processor.process({ version: 'v0.9', deleteSurface: { surfaceId: 's' } });
    expect(processor.getSurface('s')).toBeUndefined();
    expect(surface.disposed).toBe(true);
    expect(surface.subscriptionCount).toBe(0);
    expect(surface.components.size).toBe(0);
    expect(processor.process(create()).errors).toEqual([]);
  });

  it('accepts an array, {messages} and a sample file, and JSON text of each', () => {
    for (const input of [
      [create(), components([text('root')])],
      { messages: [create(), components([text('root')])] },
      { name: 'n', description: 'd', messages: [create(), components([text('root')])] },
    ]) {
      for (const form of [input, JSON.stringify(input)]) {
        const processor = newProcessor();
        expect(processor.process(form)).toEqual({ applied: 2, errors: [] });
      }
    }
  });

  it('applies a batch non-transactionally and notifies subscribers once', () => {
    const processor = newProcessor();
    processor.process(create());
    const surface = processor.getSurface('s')!;
    const listener = vi.fn();
    surface.dataModel.subscribe('/', listener);
    const surfacesListener = vi.fn();
    processor.subscribe(surfacesListener);
    const result = processor.process([
      data({ path: '/a', value: 1 }),
      data({ path: 'no-slash', value: 2 }),
      data({ path: '/b', value: 3 }),
      create('t'),
      create('u'),
    ]);
    expect(result.applied).toBe(4);
    expect(result.errors).toHaveLength(1);
    expect(surface.dataModel.getSnapshot()).toEqual({ a: 1, b: 3 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(surfacesListener).toHaveBeenCalledTimes(1);
  });
});

describe('graceful degradation (ARCHITECTURE §2)', () => {
  it('keeps a component of unknown type, applies the rest, and reports it once', () => {
    const processor = newProcessor();
    processor.process(create());
    const first = processor.process(
      components([{ id: 'root', component: 'Sparkline', points: [1, 2] }, text('t')]),
    );
    expect(first.applied).toBe(1);
    expect(first.errors).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/0/component',
        message: expect.stringContaining('Sparkline'),
      },
    ]);
    expect(processor.getSurface('s')!.components.get('root')!.type).toBe('Sparkline');
    expect(processor.getSurface('s')!.components.get('t')).toBeDefined();
    expect(processor.process(components([{ id: 'root', component: 'Sparkline' }])).errors).toEqual(
      [],
    );
  });

  it('drops an unknown property, applies the component, and reports it once', () => {
    const processor = newProcessor();
    processor.process(create());
    const { errors } = processor.process(
      components([{ id: 'root', component: 'Text', text: 'x', sparkle: true }]),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        path: '/updateComponents/components/0/sparkle',
      }),
    ]);
    expect(processor.getSurface('s')!.components.get('root')!.properties).toEqual({
      id: 'root',
      component: 'Text',
      text: 'x',
    });
    expect(
      processor.process(components([{ id: 'root', component: 'Text', text: 'y', sparkle: 1 }]))
        .errors,
    ).toEqual([]);
  });

  it('rejects a wrongly typed required property and keeps the previous state', () => {
    const processor = newProcessor();
    processor.process([create(), components([text('root', 'before')])]);
    const { errors, applied } = processor.process(components([text('root', 42), text('other')]));
    expect(applied).toBe(0);
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/0/text',
      }),
    ]);
    const store = processor.getSurface('s')!.components;
    expect(store.get('root')!.properties.text).toBe('before');
    expect(store.get('other')).toBeUndefined();
  });
});

describe('bad input never escapes the processor', () => {
  it('reports malformed JSON', () => {
    expect(newProcessor().process('{"version": "v0.9", ').errors).toEqual([
      expect.objectContaining({ code: 'INVALID_JSON' }),
    ]);
  });

  it('reports a wrong or missing version at /version', () => {
    const processor = newProcessor();
    expect(
      processor.process({
        version: 'v0.8',
        createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
      }).errors,
    ).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/version',
        message: expect.stringContaining('v0.9'),
      },
    ]);
    expect(
      processor.process({ createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } })
        .errors[0],
    ).toMatchObject({ path: '/version' });
    expect(processor.getSurfaces()).toEqual([]);
  });

  it('reports a message with two kinds, none, or a wrong shape', () => {
    const processor = newProcessor();
    for (const bad of [
      { version: 'v0.9' },
      {
        version: 'v0.9',
        createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
        deleteSurface: { surfaceId: 's' },
      },
      { version: 'v0.9', createSurface: 'nope' },
      { version: 'v0.9', createSurface: { catalogId: BASIC_CATALOG_ID } },
      42,
      null,
    ]) {
      const { errors } = processor.process(bad);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.code).toBe('VALIDATION_FAILED');
    }
    expect(processor.getSurfaces()).toEqual([]);
  });

  it('refuses a 10 MB message without parsing it', () => {
    const huge = JSON.stringify(data({ path: '/x', value: 'x'.repeat(10 * 1024 * 1024) }));
    expect(newProcessor().process(huge).errors).toEqual([
      expect.objectContaining({ code: 'MESSAGE_TOO_LARGE' }),
    ]);
  });

  it('refuses very deep nesting without overflowing the stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const processor = newProcessor();
    processor.process(create());
    const result = processor.process(
      `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":${deep}}}`,
    );
    expect(result.errors).toEqual([expect.objectContaining({ code: 'VALIDATION_FAILED' })]);
    expect(processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({});
  });

  it('enforces the components-per-surface limit', () => {
    const processor = new MessageProcessor({
      catalogs: createDefaultCatalogs(),
      limits: { maxComponentsPerSurface: 2 },
    });
    processor.process(create());
    const { errors } = processor.process(components([text('a'), text('b'), text('c')]));
    expect(errors).toEqual([expect.objectContaining({ code: 'LIMIT_EXCEEDED' })]);
    expect(processor.getSurface('s')!.components.size).toBe(0);
  });

  it('reports data-model errors with the path and keeps the model', () => {
    const processor = newProcessor();
    processor.process([create(), data({ path: '/s', value: 'text' })]);
    expect(processor.process(data({ path: '/s/deeper', value: 1 })).errors).toEqual([
      expect.objectContaining({ code: 'DATA_ERROR', path: '/s' }),
    ]);
    expect(processor.process(data({ path: '/__proto__/x', value: 1 })).errors[0]).toMatchObject({
      code: 'INVALID_PATH',
    });
    expect(processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({ s: 'text' });
  });

  it('never throws, whatever JSON it is given, and errors are well-formed', () => {
    const processor = newProcessor();
    processor.process([create(), components([text('root', 'stable')])]);
    const before = JSON.stringify(snapshotState(processor).surfaces.s!.components);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const { errors } = processor.process(value);
        for (const error of errors) {
          expect(typeof error.code).toBe('string');
          expect(typeof error.message).toBe('string');
          // Left out when no surface is concerned, never an empty placeholder.
          if ('surfaceId' in error) expect(typeof error.surfaceId).toBe('string');
        }
      }),
    );
    expect(JSON.stringify(snapshotState(processor).surfaces.s?.components)).toBe(before);
  });
});
