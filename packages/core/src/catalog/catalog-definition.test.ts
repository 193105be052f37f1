import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import {
  catalogFromJson,
  catalogSchema,
  describeCatalogFunction,
  normalizeProtocolVersion,
} from './catalog-definition.js';

const COMMON = 'https://a2ui.org/specification/v0_9/common_types.json';
const COMPONENT_ID_DESCRIPTION =
  'The unique identifier for a component, used for both definitions and references within the same surface.';

const catalogError = (run: () => unknown): A2uiError => {
  try {
    run();
  } catch (error) {
    if (A2uiError.isInstance(error) && error.code === 'CATALOG_ERROR') return error;
    throw error;
  }
  throw new Error('expected a CATALOG_ERROR');
};

describe('catalogFromJson', () => {
  it('reads a v0.9 catalog with theme, components and functions (test_v09_catalog_from_json_basic)', () => {
    const theme = { type: 'object', properties: { fontFamily: { type: 'string' } } };
    const definition = catalogFromJson({
      catalogId: 'https://a2ui.org/catalogs/v09/basic',
      theme,
      components: { Divider: { type: 'object' } },
      functions: {
        formatCurrency: { returnType: 'string', parameters: { amount: { type: 'number' } } },
      },
    });
    expect(definition).toEqual({
      catalogId: 'https://a2ui.org/catalogs/v09/basic',
      protocolVersion: 'v0.9',
      theme,
      components: { Divider: { type: 'object' } },
      functions: {
        formatCurrency: { returnType: 'string', parameters: { amount: { type: 'number' } } },
      },
    });
  });

  it('maps v0.8 styles onto the theme and needs no catalogId there', () => {
    const definition = catalogFromJson(
      { components: { Text: { type: 'object' } }, styles: { font: { type: 'string' } } },
      { protocolVersion: 'v0.8' },
    );
    expect(definition.protocolVersion).toBe('v0.8');
    expect(definition.theme).toEqual({ font: { type: 'string' } });
    expect(definition.functions).toEqual({});
  });

  it('keeps only the components and functions $defs.anyComponent / anyFunction admit', () => {
    const definition = catalogFromJson({
      catalogId: 'c',
      $defs: {
        anyComponent: { oneOf: [{ $ref: '#/components/Text' }] },
        anyFunction: { oneOf: [{ $ref: '#/functions/validateEmail' }] },
      },
      components: { Text: { type: 'object' }, HiddenComponent: { type: 'object' } },
      functions: {
        validateEmail: { returnType: 'boolean' },
        internalSecretFunc: { returnType: 'string' },
      },
    });
    expect(Object.keys(definition.components)).toEqual(['Text']);
    expect(Object.keys(definition.functions)).toEqual(['validateEmail']);
  });

  it('inlines nested local $defs and common types refs, leaving the input untouched', () => {
    const json = {
      catalogId: 'c',
      $defs: {
        Inner: { type: 'object', properties: { color: { type: 'string' } } },
        Outer: { type: 'object', properties: { style: { $ref: '#/$defs/Inner' } } },
      },
      components: {
        Box: {
          type: 'object',
          properties: {
            config: { $ref: '#/$defs/Outer' },
            id: { $ref: `${COMMON}#/$defs/ComponentId` },
            children: { $ref: `${COMMON}#/$defs/ChildList` },
          },
        },
      },
    };
    const before = JSON.stringify(json);
    const box = catalogFromJson(json).components.Box as { properties: Record<string, unknown> };
    expect(box.properties.config).toEqual({
      type: 'object',
      properties: { style: { type: 'object', properties: { color: { type: 'string' } } } },
    });
    expect(box.properties.id).toEqual({ type: 'string', description: COMPONENT_ID_DESCRIPTION });
    // ChildList's own `#/$defs/ComponentId` resolves inside common_types, not the catalog.
    const children = box.properties.children as { oneOf: Array<{ items?: unknown }> };
    expect(children.oneOf[0]!.items).toEqual({
      type: 'string',
      description: COMPONENT_ID_DESCRIPTION,
    });
    expect(JSON.stringify(json)).toBe(before);
  });

  it('leaves a self-referencing $ref in place instead of recursing forever', () => {
    const definition = catalogFromJson({
      catalogId: 'c',
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
      components: { Tree: { $ref: '#/$defs/Node' } },
    });
    expect(definition.components.Tree).toEqual({
      type: 'object',
      properties: { next: { $ref: '#/$defs/Node' } },
    });
  });

  it('reads v1.0 metadata: protocolVersion, instructions, no theme', () => {
    const definition = catalogFromJson({
      protocolVersion: '1.0',
      catalogId: 'v10',
      instructions: '# Use Cards',
      theme: { type: 'object' },
      functions: {
        openUrl: { returnType: 'void', requiresUserActivation: true },
        sync: { returnType: 'any', allowedCallers: 'agentOnly' },
      },
    });
    expect(definition.protocolVersion).toBe('v1.0');
    expect(definition.instructions).toBe('# Use Cards');
    expect(definition.theme).toEqual({});
    expect(describeCatalogFunction(definition, 'openUrl')).toMatchObject({
      returnType: 'void',
      allowedCallers: 'rendererOnly',
      requiresUserActivation: true,
    });
    expect(describeCatalogFunction(definition, 'sync').allowedCallers).toBe('agentOnly');
  });

  it('reads the returnType and args of schema-shaped (catalog file) functions', () => {
    const definition = catalogFromJson({
      catalogId: 'c',
      functions: {
        add: {
          type: 'object',
          properties: {
            call: { const: 'add' },
            args: { type: 'object', properties: { a: { type: 'number' } } },
            returnType: { const: 'number' },
          },
        },
      },
    });
    expect(describeCatalogFunction(definition, 'add')).toMatchObject({
      returnType: 'number',
      parameters: { type: 'object', properties: { a: { type: 'number' } } },
    });
  });

  it('lets options override the catalogId', () => {
    expect(catalogFromJson({ catalogId: 'original' }, { catalogId: 'overridden' }).catalogId).toBe(
      'overridden',
    );
  });

  it('refuses a catalog without an id, in the official wording', () => {
    const error = catalogError(() => catalogFromJson({ components: { Text: { type: 'object' } } }));
    expect(error.message).toContain('catalog_id must be provided or exist in catalog_schema');
  });

  it.each([
    [{ components: { Surface: { type: 'object' } } }, '/components/Surface'],
    [{ components: { 'submit-form': { type: 'object' } } }, '/components/submit-form'],
    [{ functions: { f: { returnType: 'date' } } }, '/functions/f/returnType'],
    [
      { functions: { f: { returnType: 'void', allowedCallers: 'anyone' } } },
      '/functions/f/allowedCallers',
    ],
    [
      { functions: { f: { returnType: 'void', requiresUserActivation: 'yes' } } },
      '/functions/f/requiresUserActivation',
    ],
  ])('refuses a v1.0 definition breaking a rule: %j', (parts, path) => {
    const error = catalogError(() =>
      catalogFromJson({ catalogId: 'c', protocolVersion: 'v1.0', ...parts }),
    );
    expect(error.path).toBe(path);
  });

  it('refuses sections that are not objects and unknown version spellings', () => {
    expect(catalogError(() => catalogFromJson({ catalogId: 'c', components: [] })).path).toBe(
      '/components',
    );
    catalogError(() => catalogFromJson({ catalogId: 'c', protocolVersion: 'latest' }));
    catalogError(() => catalogFromJson('{}'));
  });
});

describe('normalizeProtocolVersion', () => {
  it('spells versions with a v', () => {
    expect(['1.0', 'v1.0', '0.9.1', 'v0.8'].map(normalizeProtocolVersion)).toEqual([
      'v1.0',
      'v1.0',
      'v0.9.1',
      'v0.8',
    ]);
  });
});

describe('catalogSchema', () => {
  it('writes v0.9 with $defs.anyComponent and the theme (test_v09_catalog_schema_with_defs)', () => {
    const theme = { type: 'object', properties: { primaryColor: { type: 'string' } } };
    const schema = catalogSchema(
      catalogFromJson({
        catalogId: 'c',
        components: { Button: { type: 'object' }, Card: { type: 'object' } },
        theme,
      }),
    );
    expect(schema).toEqual({
      catalogId: 'c',
      protocolVersion: 'v0.9',
      components: { Button: { type: 'object' }, Card: { type: 'object' } },
      theme,
      $defs: {
        anyComponent: { oneOf: [{ $ref: '#/components/Button' }, { $ref: '#/components/Card' }] },
        theme,
      },
    });
  });

  it('writes v0.8 styles and v1.0 without a theme but with anyFunction', () => {
    const v08 = catalogSchema(
      catalogFromJson(
        { components: {}, theme: { primaryColor: { type: 'string' } } },
        { protocolVersion: 'v0.8' },
      ),
    );
    expect(v08).toEqual({
      protocolVersion: 'v0.8',
      components: {},
      styles: { primaryColor: { type: 'string' } },
    });
    const v10 = catalogSchema(
      catalogFromJson({
        catalogId: 'c',
        protocolVersion: 'v1.0',
        instructions: 'Be brief.',
        components: { Text: { type: 'object' } },
        functions: { now: { returnType: 'string' } },
      }),
    );
    expect(v10.instructions).toBe('Be brief.');
    expect(v10.theme).toBeUndefined();
    expect(v10.$defs).toEqual({
      anyComponent: { oneOf: [{ $ref: '#/components/Text' }] },
      anyFunction: { oneOf: [{ $ref: '#/functions/now' }] },
    });
  });

  it('round-trips through catalogFromJson', () => {
    const definition = catalogFromJson({
      catalogId: 'c',
      protocolVersion: 'v1.0',
      components: { A: { type: 'object' } },
      functions: { f: { returnType: 'number' } },
    });
    expect(catalogFromJson(catalogSchema(definition))).toEqual(definition);
  });
});
