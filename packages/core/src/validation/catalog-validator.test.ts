import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import {
  type CatalogValidator,
  createPrecompiledCatalogValidator,
  type PrecompiledCatalogModule,
} from './catalog-validator.js';
import { compileCatalogValidator } from './compile-catalog-validator.js';
import {
  generateCatalogValidatorDeclarations,
  generateCatalogValidatorModule,
} from './generate-catalog-module.js';
import { validateServerMessage } from './validate-messages.js';
import {
  basicCatalogValidator,
  createValidatorRegistry,
  defaultValidatorRegistry,
  getBuiltinCatalogValidator,
  minimalCatalogValidator,
} from './validator-registry.js';

const customCatalog = JSON.parse(
  readFileSync(fileURLToPath(new URL('./fixtures/custom-catalog.json', import.meta.url)), 'utf8'),
) as { catalogId: string };
const CUSTOM_ID = 'https://example.com/a2ui/catalogs/rating/v1/catalog.json';

const updateComponents = (...components: unknown[]) => ({
  version: 'v0.9',
  updateComponents: { surfaceId: 's1', components },
});

describe('checkComponent', () => {
  const validator = basicCatalogValidator;

  it('accepts a valid component', () => {
    expect(
      validator.checkComponent({ id: 'title', component: 'Text', text: 'Hello', variant: 'h2' }),
    ).toEqual({
      status: 'valid',
    });
  });

  it('reports an unknown component type', () => {
    const check = validator.checkComponent({ id: 'x', component: 'Carousel', items: [] });
    expect(check.status).toBe('unknown-type');
    if (check.status !== 'unknown-type') return;
    expect(check.issues).toHaveLength(1);
    expect(check.issues[0]!.path).toBe('/component');
    expect(check.issues[0]!.message).toContain('Unknown component type "Carousel"');
    expect(check.issues[0]!.message).toContain('Text, Image, Icon');
  });

  it('reports unknown properties and returns the sanitized component', () => {
    const component = { id: 'title', component: 'Text', text: 'Hi', color: 'red', size: 3 };
    const check = validator.checkComponent(component);
    expect(check.status).toBe('unknown-properties');
    if (check.status !== 'unknown-properties') return;
    expect(check.properties).toEqual(['color', 'size']);
    expect(check.sanitized).toEqual({ id: 'title', component: 'Text', text: 'Hi' });
    expect(check.issues.map((issue) => issue.path)).toEqual(['/color', '/size']);
    expect(check.issues[0]!.message).toContain('Unknown property "color" on component "Text"');
    expect(check.issues[0]!.message).toContain(
      'Allowed properties: id, accessibility, weight, component, text, variant',
    );
    expect(component).toHaveProperty('color'); // input untouched
  });

  it('is invalid when an unknown property comes with another problem', () => {
    const check = validator.checkComponent({
      id: 'title',
      component: 'Text',
      text: 7,
      color: 'red',
    });
    expect(check.status).toBe('invalid');
    if (check.status !== 'invalid') return;
    expect(check.issues.map((issue) => issue.path)).toEqual(['/text', '/color']);
  });

  it('is invalid for a wrong type of a required property', () => {
    const check = validator.checkComponent({ id: 'title', component: 'Text', text: 123 });
    expect(check).toEqual({
      status: 'invalid',
      issues: [
        {
          path: '/text',
          keyword: 'type',
          message:
            'Expected a string, a {"path"} binding or a {"call"} function call, got integer.',
        },
      ],
    });
  });

  it('is invalid for a missing required property, a missing id and a non-object', () => {
    const missing = validator.checkComponent({ id: 'b', component: 'Button', child: 'label' });
    expect(missing.status === 'invalid' && missing.issues[0]).toMatchObject({
      path: '/action',
      message: 'Missing required property "action" on component "Button".',
    });
    const noId = validator.checkComponent({ component: 'Divider' });
    expect(noId.status === 'invalid' && noId.issues[0]?.path).toBe('/id');
    const noType = validator.checkComponent({ id: 'x' });
    expect(noType.status === 'invalid' && noType.issues[0]).toMatchObject({
      path: '/component',
      keyword: 'required',
    });
    const notObject = validator.checkComponent('Text');
    expect(notObject.status === 'invalid' && notObject.issues[0]?.message).toContain('got string');
  });

  it('names the failing argument inside a nested function call', () => {
    const check = validator.checkComponent({
      id: 'f',
      component: 'TextField',
      label: 'Email',
      checks: [
        {
          condition: {
            call: 'and',
            args: { values: [{ call: 'email', args: { value: 5 } }, true] },
          },
          message: 'Bad',
        },
      ],
    });
    expect(check.status === 'invalid' && check.issues).toEqual([
      {
        path: '/checks/0/condition/args/values/0/args/value',
        keyword: 'type',
        message: 'Expected a string, a {"path"} binding or a {"call"} function call, got integer.',
      },
    ]);
  });

  it('hasComponent only knows the catalog’s own types', () => {
    expect(validator.hasComponent('Slider')).toBe(true);
    expect(minimalCatalogValidator.hasComponent('Slider')).toBe(false);
    expect(validator.hasComponent('constructor')).toBe(false);
    expect(validator.hasComponent('__proto__')).toBe(false);
    expect(validator.componentTypes).toHaveLength(18);
    expect(validator.functionNames).toContain('formatDate');
    expect(minimalCatalogValidator.functionNames).toEqual(['capitalize']);
  });
});

describe('validateTheme', () => {
  it('checks the catalog theme schema', () => {
    expect(basicCatalogValidator.validateTheme({ primaryColor: '#112233', custom: 1 })).toEqual([]);
    expect(
      basicCatalogValidator.validateTheme({ primaryColor: 'blue', iconUrl: 'not a url' }),
    ).toEqual([
      {
        path: '/primaryColor',
        keyword: 'pattern',
        message: 'Expected a string matching /^#[0-9a-fA-F]{6}$/, got "blue".',
      },
      {
        path: '/iconUrl',
        keyword: 'format',
        message: 'Expected a string in "uri" format, got "not a url".',
      },
    ]);
    expect(minimalCatalogValidator.validateTheme('dark')[0]?.message).toBe(
      'Expected an object, got string.',
    );
  });
});

describe('validator registry', () => {
  it('holds basic and minimal by default', () => {
    const registry = createValidatorRegistry();
    expect(registry.catalogIds()).toEqual([BASIC_CATALOG_ID, MINIMAL_CATALOG_ID]);
    expect(registry.get(BASIC_CATALOG_ID)).toBe(basicCatalogValidator);
    expect(defaultValidatorRegistry.has(MINIMAL_CATALOG_ID)).toBe(true);
    expect(getBuiltinCatalogValidator(MINIMAL_CATALOG_ID)).toBe(minimalCatalogValidator);
    expect(getBuiltinCatalogValidator('urn:other')).toBeUndefined();
  });

  it('starts empty without builtins, and a later registration replaces an earlier one', () => {
    const registry = createValidatorRegistry({ builtins: false });
    expect(registry.catalogIds()).toEqual([]);
    registry.register(basicCatalogValidator);
    const replacement: CatalogValidator = {
      ...minimalCatalogValidator,
      catalogId: BASIC_CATALOG_ID,
    };
    registry.register(replacement);
    expect(registry.get(BASIC_CATALOG_ID)).toBe(replacement);
    expect(registry.catalogIds()).toEqual([BASIC_CATALOG_ID]);
  });
});

function checkCustomValidator(validator: CatalogValidator): void {
  expect(validator.catalogId).toBe(CUSTOM_ID);
  expect(validator.componentTypes).toEqual(['Rating']);
  expect(validator.functionNames).toEqual(['stars']);
  const registry = createValidatorRegistry();
  registry.register(validator);

  const valid = updateComponents({
    id: 'root',
    component: 'Rating',
    label: { call: 'stars', args: { value: { path: '/score' } } },
    value: { path: '/score' },
    max: 5,
    accessibility: { label: 'Rating' },
  });
  expect(validateServerMessage(valid, { catalogId: CUSTOM_ID, registry })).toEqual([]);
  // The same message is foreign to the basic catalog.
  expect(validateServerMessage(valid, { registry })[0]?.message).toContain(
    'Unknown component type "Rating"',
  );

  const badValue = updateComponents({ id: 'root', component: 'Rating', value: 'five' });
  expect(validateServerMessage(badValue, { catalogId: CUSTOM_ID, registry })).toEqual([
    {
      path: '/updateComponents/components/0/value',
      keyword: 'type',
      message: 'Expected a number, a {"path"} binding or a {"call"} function call, got string.',
    },
  ]);
  const basicFunction = updateComponents({
    id: 'root',
    component: 'Rating',
    value: 1,
    label: { call: 'formatDate', args: {} },
  });
  const [unknownFunction] = validateServerMessage(basicFunction, {
    catalogId: CUSTOM_ID,
    registry,
  });
  expect(unknownFunction).toEqual({
    path: '/updateComponents/components/0/label/call',
    keyword: 'call',
    message: 'Unknown function "formatDate". Available functions: stars.',
  });
  const tooHigh = validator.checkComponent({ id: 'r', component: 'Rating', value: 1, max: 11 });
  expect(tooHigh.status === 'invalid' && tooHigh.issues[0]).toMatchObject({
    path: '/max',
    keyword: 'maximum',
  });
  const extra = validator.checkComponent({ id: 'r', component: 'Rating', value: 1, stars: 5 });
  expect(extra.status).toBe('unknown-properties');

  const createSurface = (theme: object) => ({
    version: 'v0.9',
    createSurface: { surfaceId: 's1', catalogId: CUSTOM_ID, theme },
  });
  // The catalog comes from createSurface.catalogId; its own theme schema applies.
  expect(
    validateServerMessage(createSurface({ starColor: '#ffcc00', primaryColor: 'any' }), {
      registry,
    }),
  ).toEqual([]);
  expect(validateServerMessage(createSurface({ starColor: 'gold' }), { registry })[0]?.path).toBe(
    '/createSurface/theme/starColor',
  );
}

describe('custom catalogs', () => {
  it('compile at run time with $refs to common_types and register', () => {
    checkCustomValidator(compileCatalogValidator(customCatalog));
  });

  const directory = mkdtempSync(join(tmpdir(), 'a2ui-catalog-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('precompile to a standalone module that works without the Ajv compiler', async () => {
    const runtimePath = fileURLToPath(new URL('./generated/runtime.js', import.meta.url));
    const source = generateCatalogValidatorModule(customCatalog, { runtimeImport: runtimePath });
    expect(source).not.toMatch(/new Function|\beval\(|\brequire\(/);
    expect(source).toContain(`import { validatorRuntime } from ${JSON.stringify(runtimePath)};`);
    const file = join(directory, 'rating.validator.js');
    writeFileSync(file, source);
    const module = (await import(/* @vite-ignore */ file)) as PrecompiledCatalogModule;
    checkCustomValidator(createPrecompiledCatalogValidator(module));
    expect(generateCatalogValidatorDeclarations()).toContain(
      'import type { StandaloneValidateFunction } from "@a2ui-ts/core";',
    );
  });

  const V1_0_COMMON = 'https://a2ui.org/specification/v1_0/common_types.json';
  // No protocolVersion: the v1.0 refs alone make it a v1.0 catalog.
  const v10Catalog = {
    catalogId: 'https://example.com/a2ui/catalogs/rating/v2/catalog.json',
    components: {
      Rating: {
        type: 'object',
        properties: {
          component: { const: 'Rating' },
          value: { $ref: `${V1_0_COMMON}#/$defs/DynamicNumber` },
          action: { $ref: `${V1_0_COMMON}#/$defs/Action` },
        },
        required: ['component', 'value'],
      },
    },
  };

  function checkV10Validator(validator: CatalogValidator): void {
    const rating = { id: 'r', component: 'Rating', value: { path: '/stars' } };
    expect(validator.checkComponent(rating)).toEqual({ status: 'valid' });
    expect(validator.checkComponent({ ...rating, colour: 'red' })).toMatchObject({
      status: 'unknown-properties',
      properties: ['colour'],
      sanitized: rating,
    });
    const wrong = validator.checkComponent({ ...rating, value: { path: 5 } });
    expect(wrong).toMatchObject({ status: 'invalid', issues: [{ path: '/value/path' }] });
    expect(
      validator.validateServerMessage({
        version: 'v1.0',
        updateComponents: { surfaceId: 's', components: [rating] },
      }),
    ).toEqual([]);
    const [issue] = validator.validateServerMessage({
      version: 'v0.9',
      updateComponents: { surfaceId: 's', components: [rating] },
    });
    expect(issue).toMatchObject({ path: '/version' });
    expect(issue!.message).toContain('"v1.0"');
  }

  it('compile v1.0 catalogs at run time against v1.0 common types', () => {
    checkV10Validator(compileCatalogValidator(v10Catalog));
    // Named as v0.9, the same document does not resolve its v1.0 references.
    expect(() => compileCatalogValidator(v10Catalog, { protocolVersion: 'v0.9' })).toThrowError(
      /does not compile/,
    );
  });

  it('precompile v1.0 catalogs to a standalone module', async () => {
    const runtimePath = fileURLToPath(new URL('./generated/runtime.js', import.meta.url));
    const source = generateCatalogValidatorModule(
      { ...v10Catalog, protocolVersion: '1.0' },
      { runtimeImport: runtimePath },
    );
    expect(source).not.toMatch(/new Function|\beval\(|\brequire\(/);
    const file = join(directory, 'rating-v10.validator.js');
    writeFileSync(file, source);
    const module = (await import(/* @vite-ignore */ file)) as PrecompiledCatalogModule;
    checkV10Validator(createPrecompiledCatalogValidator(module));
  });

  it('rejects unusable catalog schemas with VALIDATION_FAILED', () => {
    const attempt = (schema: object) => () => compileCatalogValidator(schema);
    expect(attempt({ catalogId: 'x' })).toThrowError(/"components" object/);
    expect(attempt({ components: {} })).toThrowError(/catalogId/);
    try {
      compileCatalogValidator({
        catalogId: 'x',
        components: { A: { $ref: 'https://example.com/missing.json' } },
      });
      expect.unreachable();
    } catch (error) {
      expect(A2uiError.isInstance(error) && error.code).toBe('VALIDATION_FAILED');
      expect((error as Error).message).toContain('does not compile');
    }
  });

  it('accepts an explicit catalogId and extra referenced schemas', () => {
    const shared = {
      $id: 'https://example.com/shared.json',
      $defs: { Level: { enum: ['low', 'high'] } },
    };
    const validator = compileCatalogValidator(
      {
        components: {
          Gauge: {
            allOf: [
              {
                $ref: 'https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentCommon',
              },
              {
                properties: {
                  component: { const: 'Gauge' },
                  level: { $ref: 'https://example.com/shared.json#/$defs/Level' },
                },
                required: ['component', 'level'],
              },
            ],
            unevaluatedProperties: false,
          },
        },
      },
      { catalogId: 'urn:gauge', references: [shared] },
    );
    expect(validator.catalogId).toBe('urn:gauge');
    expect(validator.checkComponent({ id: 'g', component: 'Gauge', level: 'low' })).toEqual({
      status: 'valid',
    });
    const check = validator.checkComponent({ id: 'g', component: 'Gauge', level: 'mid' });
    expect(check.status === 'invalid' && check.issues[0]?.message).toBe(
      'Expected one of "low", "high", got "mid".',
    );
  });
});
