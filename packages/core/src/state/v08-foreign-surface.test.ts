/**
 * A v0.8 message naming a surface of another version (break-core): a clear error, instead of
 * being buffered (or, for deleteSurface, ignored) without a word.
 */
import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { MessageProcessor } from './message-processor.js';

const text = (surfaceId: string) => ({
  surfaceUpdate: {
    surfaceId,
    components: [{ id: 'root', component: { Text: { text: { literalString: 'x' } } } }],
  },
});

describe('a v0.8 message naming a v0.9 surface', () => {
  const v09Surface = () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process({
      version: 'v0.9',
      createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
    });
    return processor;
  };

  it.each([
    ['surfaceUpdate', text('s')],
    [
      'dataModelUpdate',
      { dataModelUpdate: { surfaceId: 's', contents: [{ key: 'k', valueString: 'v' }] } },
    ],
    ['deleteSurface', { deleteSurface: { surfaceId: 's' } }],
  ])('(%s) is the version-mismatch error and leaves the surface alone', (kind, message) => {
    const processor = v09Surface();
    const surface = processor.getSurface('s');
    const { errors } = processor.process([message]);
    expect(errors).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/version',
        message: `Surface "s" was created in v0.9; a v0.8 ${kind} cannot change it (one surface speaks one protocol version).`,
      },
    ]);
    expect(processor.getSurface('s')).toBe(surface);
  });
});
