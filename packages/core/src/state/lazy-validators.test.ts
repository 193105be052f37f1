/**
 * A message whose validator loads on first need waits for it, in order with everything after it,
 * and is then judged exactly as with a validator loaded from the start.
 */
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog/catalog.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { BASIC_FUNCTIONS } from '../functions/basic-functions.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ClientError } from '../protocol/messages.js';
import type { PrecompiledCatalogModule } from '../validation/catalog-validator.js';
import * as basicModule from '../validation/generated/basic.js';
import { createLazyCatalogValidator } from '../validation/lazy-catalog-validator.js';
import { LazyModule } from '../validation/lazy-module.js';
import basicSchema from '../validation/schemas/catalogs/basic/catalog.json' with { type: 'json' };
import { MessageProcessor } from './message-processor.js';

/** A processor whose basic catalog's validator loads when the test says so (or fails to). */
function processorWithGatedValidator() {
  let release!: () => void;
  let fail!: (error: Error) => void;
  let imports = 0;
  const module = new LazyModule<PrecompiledCatalogModule>('gated basic catalog validator', () => {
    imports++;
    return new Promise((resolve, reject) => {
      release = () => resolve(basicModule);
      fail = reject;
    });
  });
  const catalog = createCatalog({
    catalogId: BASIC_CATALOG_ID,
    schema: basicSchema,
    functions: BASIC_FUNCTIONS,
    validator: createLazyCatalogValidator({
      catalogId: BASIC_CATALOG_ID,
      schema: basicSchema,
      module,
    }),
  });
  const processor = new MessageProcessor({ catalogs: [catalog] });
  const heard: ClientError[] = [];
  processor.onError((error) => heard.push(error));
  return {
    processor,
    heard,
    module,
    imports: () => imports,
    release: () => release(),
    fail: (error: Error) => fail(error),
  };
}

const create = (surfaceId: string) => ({
  version: 'v0.9',
  createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID },
});
const text = (surfaceId: string, id: string, value: unknown) => ({
  version: 'v0.9',
  updateComponents: { surfaceId, components: [{ id, component: 'Text', text: value }] },
});
const write = (surfaceId: string, value: unknown) => ({
  version: 'v0.9',
  updateDataModel: { surfaceId, path: '/name', value },
});

/** The stream both processors read: valid, malformed (text: 42), then valid again. */
const STREAM = [
  create('s'),
  text('s', 'root', 'first'),
  write('s', 'Ada'),
  text('s', 'root', 42),
  text('s', 'root', 'last'),
];

describe('validators that load on first need', () => {
  it('holds a message until its validator has loaded, then applies it and the rest in order', async () => {
    const gated = processorWithGatedValidator();
    const first = gated.processor.process(STREAM.slice(0, 2));
    expect(first).toEqual({ applied: 0, errors: [], waiting: true });
    expect(gated.imports()).toBe(1);
    // Later input waits behind it, whether or not it needs the validator: even JSON that is not
    // JSON is reported only in its turn.
    expect(gated.processor.process(JSON.stringify(STREAM.slice(2)))).toEqual({
      applied: 0,
      errors: [],
      waiting: true,
    });
    expect(gated.processor.process('{not json').waiting).toBe(true);
    expect(gated.processor.getSurfaces()).toEqual([]);
    expect(gated.heard).toEqual([]);

    gated.release();
    await gated.processor.whenIdle();

    const surface = gated.processor.getSurface('s')!;
    expect(surface.components.get('root')!.properties.text).toBe('last');
    expect(surface.dataModel.getSnapshot()).toEqual({ name: 'Ada' });
    expect(gated.heard.map((error) => error.code)).toEqual(['VALIDATION_FAILED', 'INVALID_JSON']);
    // Nothing waits any more: the next input applies at once.
    expect(gated.processor.process(text('s', 'root', 'now'))).toEqual({ applied: 1, errors: [] });
    expect(gated.imports()).toBe(1);
  });

  it('refuses a malformed message with the same error as a validator loaded from the start', async () => {
    const eager = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const expected = eager.process(STREAM).errors;
    expect(expected).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/0/text',
      }),
    ]);

    const gated = processorWithGatedValidator();
    gated.processor.process(STREAM);
    gated.release();
    await gated.processor.whenIdle();
    expect(gated.heard).toEqual(expected);
    expect(gated.processor.getSurface('s')!.components.get('root')!.properties.text).toBe('last');
  });

  it('queues input a listener sends while held input is applied behind what is still held', async () => {
    const gated = processorWithGatedValidator();
    gated.processor.onError((error) => {
      if (error.code === 'VALIDATION_FAILED')
        gated.processor.process(text('s', 'root', 'from the listener'));
    });
    gated.processor.process(STREAM.slice(0, 4));
    gated.processor.process(STREAM.slice(4));
    gated.release();
    await gated.processor.whenIdle();
    // The listener heard of message 4 while message 5 ("last") was still held: its input follows.
    expect(gated.processor.getSurface('s')!.components.get('root')!.properties.text).toBe(
      'from the listener',
    );
  });

  it('reports each held message when the validator cannot load, and tries again on the next', async () => {
    const gated = processorWithGatedValidator();
    gated.processor.process([create('s'), text('s', 'root', 'hi')]);
    gated.fail(new Error('chunk fetch failed'));
    await gated.processor.whenIdle();
    // One report per held message; listeners hear the two identical ones once (de-duplication).
    expect(gated.heard).toEqual([
      expect.objectContaining({ code: 'MODULE_NOT_LOADED', surfaceId: 's' }),
    ]);
    expect(gated.processor.getSurfaces()).toEqual([]);

    expect(gated.processor.process(create('s')).waiting).toBe(true);
    expect(gated.imports()).toBe(2);
    gated.release();
    await gated.processor.whenIdle();
    expect(gated.processor.getSurface('s')).toBeDefined();
  });

  it('drops what was held on reset (it belonged to the session that ended)', async () => {
    const gated = processorWithGatedValidator();
    gated.processor.process(STREAM);
    gated.processor.reset();
    gated.release();
    await gated.processor.whenIdle();
    expect(gated.processor.getSurfaces()).toEqual([]);
    expect(gated.processor.process(create('s'))).toEqual({ applied: 1, errors: [] });
  });

  it('knows its component types and functions before it loads, as the precompiled one does', async () => {
    const gated = processorWithGatedValidator();
    const lazy = gated.processor.catalogs.get(BASIC_CATALOG_ID)!.validator!;
    expect(lazy.loaded).toBe(false);
    expect(() => lazy.checkComponent({ id: 'x', component: 'Text', text: 'hi' })).toThrow(
      expect.objectContaining({ code: 'MODULE_NOT_LOADED' }),
    );
    const eager = createDefaultCatalogs().get(BASIC_CATALOG_ID)!.validator!;
    await eager.load?.();
    expect(lazy.componentTypes).toEqual(eager.componentTypes);
    expect(lazy.functionNames).toEqual(eager.functionNames);
    expect(lazy.hasComponent('Slider')).toBe(true);
    gated.release();
    await lazy.load?.();
    expect(lazy.loaded).toBe(true);
    expect(lazy.checkComponent({ id: 'x', component: 'Text', text: 'hi' })).toEqual({
      status: 'valid',
    });
  });
});
