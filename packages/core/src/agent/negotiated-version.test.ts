import { describe, expect, it } from 'vitest';
import { negotiatedVersion } from './negotiated-version.js';

const V09 = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';
const V10 = 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

const agent = {
  'v0.9': { supportedCatalogIds: [V09] },
  'v1.0': { supportedCatalogIds: [V10] },
};

describe('negotiatedVersion', () => {
  it('picks the newest version in which both share a catalog, reading both metadata keys', () => {
    const metadata = {
      a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [V09] } },
      a2uiRendererCapabilities: { 'v1.0': { supportedCatalogIds: [V10, 'other'] } },
    };
    expect(negotiatedVersion(metadata, agent)).toEqual({ version: 'v1.0', catalogIds: [V10] });
  });

  it('falls back to an older version when the newer one shares no catalog', () => {
    const metadata = {
      a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [V09] } },
      a2uiRendererCapabilities: { 'v1.0': { supportedCatalogIds: ['only-mine'] } },
    };
    expect(negotiatedVersion(metadata, agent)).toEqual({ version: 'v0.9', catalogIds: [V09] });
  });

  it('accepts a bare capabilities map and the "1.0" spelling on either side', () => {
    expect(
      negotiatedVersion(
        { '1.0': { supportedCatalogIds: [V10] } },
        { '1.0': { supportedCatalogIds: [V10] } },
      ),
    ).toEqual({ version: 'v1.0', catalogIds: [V10] });
  });

  it('counts inline catalogs only when the agent accepts them', () => {
    const metadata = {
      a2uiRendererCapabilities: {
        'v1.0': { supportedCatalogIds: [], inlineCatalogs: [{ catalogId: 'inline-1' }] },
      },
    };
    expect(negotiatedVersion(metadata, { 'v1.0': { supportedCatalogIds: [] } })).toBeUndefined();
    expect(
      negotiatedVersion(metadata, {
        'v1.0': { supportedCatalogIds: [], acceptsInlineCatalogs: true },
      }),
    ).toEqual({ version: 'v1.0', catalogIds: ['inline-1'] });
  });

  it('gives a "v0.9" renderer v0.9, not v0.9.1; a "v0.9.1" renderer may get either', () => {
    const both = {
      'v0.9': { supportedCatalogIds: [V09] },
      'v0.9.1': { supportedCatalogIds: [V09] },
    };
    expect(
      negotiatedVersion(
        { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [V09] } } },
        both,
      )?.version,
    ).toBe('v0.9');
    expect(
      negotiatedVersion(
        { a2uiClientCapabilities: { 'v0.9.1': { supportedCatalogIds: [V09] } } },
        both,
      )?.version,
    ).toBe('v0.9.1');
    expect(
      negotiatedVersion(
        { a2uiClientCapabilities: { 'v0.9.1': { supportedCatalogIds: [V09] } } },
        { 'v0.9': { supportedCatalogIds: [V09] } },
      )?.version,
    ).toBe('v0.9');
  });

  it('returns undefined when nothing is shared, and ignores junk', () => {
    expect(negotiatedVersion(undefined, agent)).toBeUndefined();
    expect(
      negotiatedVersion({ 'v2.0': { supportedCatalogIds: [V10] }, bogus: 1 }, agent),
    ).toBeUndefined();
  });
});
