import { describe, expect, it } from 'vitest';
import { checkMetadata } from '../host/inbound.js';
import {
  readRendererCapabilities,
  readRendererDataModel,
  rendererDataModelEntry,
} from './renderer-metadata.js';

const surfaces = { s: { name: 'Ada' } };

describe("the renderer's metadata under v1.0's names and the older ones", () => {
  it('reads the data model under either name, the older one winning when both are sent', () => {
    expect(readRendererDataModel({ a2uiRendererDataModel: { version: 'v1.0', surfaces } })).toEqual(
      { version: 'v0.9', surfaces },
    );
    expect(readRendererDataModel({ a2uiClientDataModel: { version: 'v0.9', surfaces } })).toEqual({
      version: 'v0.9',
      surfaces,
    });
    expect(
      readRendererDataModel({
        a2uiClientDataModel: { version: 'v0.9', surfaces },
        a2uiRendererDataModel: { version: 'v1.0', surfaces: { other: {} } },
      })?.surfaces,
    ).toBe(surfaces);
    expect(readRendererDataModel({ a2uiRendererDataModel: 'nope' })).toBeUndefined();
    expect(readRendererDataModel(undefined)).toBeUndefined();
  });

  it('merges the capabilities of both names, each keyed by its versions', () => {
    const v09 = { supportedCatalogIds: ['a'] };
    const v10 = { supportedCatalogIds: ['b'] };
    expect(
      readRendererCapabilities({
        a2uiClientCapabilities: { 'v0.9': v09 },
        a2uiRendererCapabilities: { 'v1.0': v10 },
      }),
    ).toEqual({ 'v0.9': v09, 'v1.0': v10 });
    expect(readRendererCapabilities({ a2uiRendererCapabilities: { 'v1.0': v10 } })).toEqual({
      'v1.0': v10,
    });
    expect(readRendererCapabilities({})).toBeUndefined();
  });

  it("names the data model after the link's version", () => {
    expect(rendererDataModelEntry(surfaces, 'v1.0')).toEqual({
      a2uiRendererDataModel: { version: 'v1.0', surfaces },
    });
    expect(rendererDataModelEntry(surfaces, '1.0')).toHaveProperty('a2uiRendererDataModel');
    for (const version of ['v0.9', 'v0.9.1', undefined])
      expect(rendererDataModelEntry(surfaces, version)).toEqual({
        a2uiClientDataModel: { version: 'v0.9', surfaces },
      });
  });

  it("checks a2uiRendererDataModel against v1.0's renderer_data_model.json", () => {
    expect(checkMetadata({ a2uiRendererDataModel: { version: 'v1.0', surfaces } })).toMatchObject({
      ok: true,
    });
    const wrongVersion = checkMetadata({ a2uiRendererDataModel: { version: 'v0.9', surfaces } });
    expect(wrongVersion).toMatchObject({
      ok: false,
      issues: [{ path: '/metadata/a2uiRendererDataModel/version' }],
    });
    const extra = checkMetadata({ a2uiRendererDataModel: { version: 'v1.0', surfaces, x: 1 } });
    expect(extra.ok).toBe(false);
  });
});
