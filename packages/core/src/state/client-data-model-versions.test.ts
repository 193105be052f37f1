import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { MessageProcessor } from './message-processor.js';

const V10_CATALOG_ID = 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

describe('getClientDataModel', () => {
  it('includes a v1.0 surface that sends its data model (its actions travel in v0.9 shape)', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const { errors } = processor.process({
      version: 'v1.0',
      createSurface: {
        surfaceId: 'form',
        catalogId: V10_CATALOG_ID,
        sendDataModel: true,
        dataModel: { guest: { acceptPolicy: true } },
      },
    });
    expect(errors).toEqual([]);
    expect(processor.getClientDataModel()).toEqual({
      version: 'v0.9',
      surfaces: { form: { guest: { acceptPolicy: true } } },
    });
  });
});
