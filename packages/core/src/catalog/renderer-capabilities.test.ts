import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.js';
import { CatalogRegistry } from './catalog-registry.js';
import { basicCatalog } from './default-catalogs.js';
import { rendererCapabilities } from './renderer-capabilities.js';

const plain = (catalog: Record<string, unknown>) => ({
  catalogId: catalog.catalogId as string,
  schema: catalog,
});

describe('rendererCapabilities', () => {
  it('lists only the catalogs of the asked version (v0.9.1 shares v0.9)', () => {
    const catalogs = [
      { catalogId: 'cat-1' },
      { catalogId: 'cat-v10', protocolVersion: '1.0' },
      { catalogId: 'cat-v08', protocolVersion: 'v0.8' },
    ];
    expect(rendererCapabilities(catalogs, { version: 'v0.9' })).toEqual({
      'v0.9': { supportedCatalogIds: ['cat-1'] },
    });
    expect(rendererCapabilities(catalogs, { version: 'v0.9.1' })).toEqual({
      'v0.9.1': { supportedCatalogIds: ['cat-1'] },
    });
    expect(rendererCapabilities(catalogs, { version: '1.0' })).toEqual({
      'v1.0': { supportedCatalogIds: ['cat-v10'] },
    });
    expect(rendererCapabilities(catalogs, { version: 'v0.8' })).toEqual({
      'v0.8': { supportedCatalogIds: ['cat-v08'] },
    });
  });

  it('wraps inline components with ComponentCommon and expands REF: descriptions', () => {
    const capabilities = rendererCapabilities(
      [
        plain({
          catalogId: 'cat-1',
          components: {
            Button: {
              type: 'object',
              properties: { label: { type: 'string', description: 'The button label' } },
              required: ['label'],
            },
            Custom: {
              type: 'object',
              properties: {
                title: {
                  type: 'string',
                  description: 'REF:common_types.json#/$defs/DynamicString|The title',
                },
              },
            },
          },
        }),
      ],
      { version: 'v0.9', includeInlineCatalogs: true },
    );
    expect(capabilities['v0.9']!.inlineCatalogs).toEqual([
      {
        catalogId: 'cat-1',
        components: {
          Button: {
            allOf: [
              { $ref: 'common_types.json#/$defs/ComponentCommon' },
              {
                properties: {
                  component: { const: 'Button' },
                  label: { type: 'string', description: 'The button label' },
                },
                required: ['component', 'label'],
              },
            ],
          },
          Custom: {
            allOf: [
              { $ref: 'common_types.json#/$defs/ComponentCommon' },
              {
                properties: {
                  component: { const: 'Custom' },
                  title: {
                    $ref: 'common_types.json#/$defs/DynamicString',
                    description: 'The title',
                  },
                },
                required: ['component'],
              },
            ],
          },
        },
      },
    ]);
  });

  it('sends functions as {name, returnType, parameters} and the theme as its properties', () => {
    const parameters = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    const capabilities = rendererCapabilities(
      [
        plain({
          catalogId: 'cat-full',
          functions: { add: { returnType: 'number', parameters } },
          theme: {
            type: 'object',
            properties: { primaryColor: { $ref: 'common_types.json#/$defs/Color' } },
          },
        }),
      ],
      { version: 'v0.9', includeInlineCatalogs: true },
    );
    expect(capabilities['v0.9']!.inlineCatalogs).toEqual([
      {
        catalogId: 'cat-full',
        functions: [{ name: 'add', returnType: 'number', parameters }],
        theme: { primaryColor: { $ref: 'common_types.json#/$defs/Color' } },
      },
    ]);
  });

  it('keeps official catalogs (already wrapped) as they are', () => {
    const [inline] = rendererCapabilities([basicCatalog], { includeInlineCatalogs: true })['v0.9']!
      .inlineCatalogs as Array<{ components: Record<string, unknown> }>;
    const schemaComponents = (basicCatalog.schema as { components: Record<string, unknown> })
      .components;
    expect(inline!.components.Text).toEqual(schemaComponents.Text);
  });
});

describe('CatalogRegistry.getRendererCapabilities', () => {
  it('keys each registered version, v0.9 always present', () => {
    const registry = new CatalogRegistry([
      createCatalog({ catalogId: 'v10', protocolVersion: '1.0', components: ['Text'] }),
    ]);
    expect(registry.getRendererCapabilities()).toEqual({
      'v0.9': { supportedCatalogIds: [] },
      'v1.0': { supportedCatalogIds: ['v10'] },
    });
    expect(registry.getClientCapabilities()).toEqual({ 'v0.9': { supportedCatalogIds: [] } });
  });
});
