/**
 * The union rewrites handed to Ajv keep every verdict: the same values pass and fail as with the
 * official schemas, on the official examples and test cases and on generated variations of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_STREAMS } from '../testing/example-streams.js';
import { createA2uiAjv } from './create-ajv.js';
import { discriminateCatalogUnions, routeUnions } from './discriminate-unions.js';
import { familySchemas } from './family-schemas.js';
import { componentSchemaRef, prepareCatalogSchema } from './prepare-catalog-schema.js';
import { type SchemaFamily, V0_9_SCHEMA_FAMILY, V1_0_SCHEMA_FAMILY } from './schema-family.js';
import basicCatalog from './schemas/catalogs/basic/catalog.json' with { type: 'json' };
import minimalCatalog from './schemas/catalogs/minimal/catalog.json' with { type: 'json' };
import v10BasicCatalog from './schemas/v1_0/catalogs/basic/catalog.json' with { type: 'json' };

type Validate = (value: unknown) => boolean;

/** Message and component validators of a catalog, from the official schemas or the rewrites. */
function compile(catalog: object, rewrite: boolean, family: SchemaFamily = V0_9_SCHEMA_FAMILY) {
  const prepared = prepareCatalogSchema(catalog, { family });
  const { commonTypes, serverMessage } = familySchemas(family);
  const catalogSchema = rewrite ? discriminateCatalogUnions(prepared.schema) : prepared.schema;
  const documents = [commonTypes, catalogSchema, serverMessage];
  const route = <T extends object>(schema: T): T =>
    rewrite ? routeUnions(schema, documents) : schema;
  const ajv = createA2uiAjv();
  ajv.addSchema(route(commonTypes));
  ajv.addSchema(route(catalogSchema));
  ajv.addSchema(route(serverMessage));
  const message = ajv.getSchema(family.serverMessageId) as Validate;
  const components = Object.fromEntries(
    prepared.componentTypes.map((type) => [
      type,
      ajv.getSchema(componentSchemaRef(type, family)) as Validate,
    ]),
  );
  return { message, components };
}

const catalogs = {
  basic: { schema: basicCatalog, family: V0_9_SCHEMA_FAMILY, version: 'v0.9' },
  minimal: { schema: minimalCatalog, family: V0_9_SCHEMA_FAMILY, version: 'v0.9' },
  'v1.0 basic': { schema: v10BasicCatalog, family: V1_0_SCHEMA_FAMILY, version: 'v1.0' },
};

const FIXTURES = fileURLToPath(new URL('../testing/fixtures/test_cases/', import.meta.url));
const caseMessages = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(FIXTURES + name, 'utf8')))
  .filter((suite) => suite.schema === 'server_to_client.json')
  .flatMap((suite: { tests: Array<{ data: unknown }> }) => suite.tests.map((test) => test.data));
const V1_0_FIXTURES = fileURLToPath(new URL('../testing/fixtures/v1_0/basic/', import.meta.url));
const exampleMessages: unknown[] = [
  ...EXAMPLE_STREAMS.flatMap((stream) => stream.messages),
  // The same UIs in v1.0 (each catalog's schema judges the other version's messages too).
  ...readdirSync(V1_0_FIXTURES)
    .filter((name) => name !== 'migration-report.json')
    .flatMap(
      (name) => JSON.parse(readFileSync(V1_0_FIXTURES + name, 'utf8')).messages as unknown[],
    ),
];
const exampleComponents = exampleMessages.flatMap((message) => {
  const body = (message as { updateComponents?: { components: Array<Record<string, unknown>> } })
    .updateComponents;
  return body ? body.components : [];
});

/** Values that sit on every side of the unions: literals, bindings, calls, actions, templates. */
const tricky = fc.oneof(
  fc.constantFrom<unknown>(
    'text',
    '',
    0,
    1.5,
    -3,
    true,
    false,
    null,
    [],
    ['a', 'b'],
    [1, 'a'],
    {},
    { path: '/a' },
    { path: 5 },
    { path: '/a', extra: 1 },
    { path: '/a', call: 'required' },
    { call: 'required', args: { value: { path: '/a' } } },
    { call: 'required', args: { value: 'x' }, returnType: 'boolean' },
    { call: 'formatString', args: { value: 'Hi ${/name}' }, returnType: 'string' },
    { call: 'formatString', args: { value: 5 } },
    { call: 'nope', args: {} },
    { call: 'capitalize', args: { value: 'x' }, returnType: 'string' },
    { call: 'length', args: { value: 'x', min: 1 }, returnType: 'number' },
    { event: { name: 'go' } },
    { event: { name: 'go', context: { a: { path: '/a' }, b: 1 } } },
    { event: { name: 5 } },
    { functionCall: { call: 'openUrl', args: { url: 'https://example.com' } } },
    { event: { name: 'go' }, functionCall: { call: 'openUrl', args: { url: 'x' } } },
    { componentId: 'item', path: '/items' },
    { componentId: 'item' },
    { componentId: 'item', path: '/items', extra: true },
    // v1.0 function calls: catalog functions and the `@index` system function.
    { call: '@index' },
    { call: '@index', args: { offset: 1 } },
    { call: '@index', args: { offset: 'one' } },
    { call: '@index', args: {}, returnType: 'number' },
    { call: '@index', catalogId: 'c' },
    { call: 'required', args: { value: 'x' }, catalogId: 'c' },
    { call: 'required', args: { value: 'x' }, extra: 1 },
    { call: 'formatString', args: { value: { call: '@index' } } },
    { call: 'not', args: { value: { call: '@index', args: { offset: 1 } } } },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

describe('routeUnions', () => {
  for (const [name, { schema, family, version }] of Object.entries(catalogs)) {
    const official = compile(schema, false, family);
    const routed = compile(schema, true, family);

    it(`keeps every message verdict of the ${name} catalog on the official messages`, () => {
      for (const message of [...caseMessages, ...exampleMessages]) {
        expect(routed.message(message), JSON.stringify(message)).toBe(official.message(message));
      }
    });

    it(`keeps every component verdict of the ${name} catalog on variations`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...exampleComponents),
          fc.constantFrom(...Object.keys(official.components)),
          fc.string({ maxLength: 12 }),
          tricky,
          fc.boolean(),
          (component, type, key, value, known) => {
            const keys = Object.keys(component);
            const property = known && keys.length > 0 ? keys[key.length % keys.length]! : key;
            const variant = { ...component, component: type, [property]: value };
            const message = {
              version,
              updateComponents: { surfaceId: 's', components: [variant] },
            };
            expect(routed.components[type]!(variant)).toBe(official.components[type]!(variant));
            expect(routed.message(message)).toBe(official.message(message));
          },
        ),
        { numRuns: 3000 },
      );
    });
  }

  it('leaves a union it cannot route as it is', () => {
    const overlapping = { oneOf: [{ type: 'number' }, { type: 'integer' }] };
    expect(routeUnions(overlapping)).toEqual(overlapping);
    const open = {
      oneOf: [
        { type: 'object', required: ['a'] },
        { type: 'object', required: ['b'] },
      ],
    };
    expect(routeUnions(open)).toEqual(open);
    const sharedConstant = {
      oneOf: [
        { type: 'object', required: ['k'], properties: { k: { enum: ['a', 'b'] } } },
        { type: 'object', required: ['k'], properties: { k: { const: 'b' } } },
      ],
    };
    expect(routeUnions(sharedConstant)).toEqual(sharedConstant);
  });

  it("routes an object branch that excludes the other branches' selectors last (v1.0 DynamicValue)", () => {
    const dataBinding = {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    };
    const call = { type: 'object', properties: { call: { type: 'string' } }, required: ['call'] };
    const literal = {
      type: 'object',
      not: { anyOf: [{ required: ['path'] }, { required: ['call'] }] },
    };
    const union = { oneOf: [{ type: 'string' }, { type: 'array' }, literal, dataBinding, call] };
    const routed = routeUnions(union) as Record<string, unknown>;
    expect(routed.oneOf).toBeUndefined();
    const ajv = createA2uiAjv();
    const [unrouted, rerouted] = [ajv.compile(union), ajv.compile(routed)];
    const values = [
      'a',
      [],
      {},
      { x: 1 },
      { path: '/a' },
      { path: 1 },
      { path: '/a', x: 1 },
      { call: 'f' },
      { call: 'f', path: '/a' },
      { call: 1 },
      null,
      1,
      true,
    ];
    for (const value of values) {
      expect(rerouted(value), JSON.stringify(value)).toBe(unrouted(value));
    }
    // A literal branch that does not exclude a selector of another branch stays a union.
    const loose = {
      oneOf: [{ type: 'object', not: { required: ['path'] } }, dataBinding, call],
    };
    expect(routeUnions(loose)).toEqual(loose);
  });

  it('routes open object branches by a required property of distinct constants', () => {
    const union = {
      oneOf: [
        { type: 'object', required: ['k'], properties: { k: { enum: ['a', 'b'] } } },
        {
          type: 'object',
          required: ['k'],
          properties: { k: { const: 'c' }, n: { type: 'number' } },
        },
      ],
    };
    const routed = routeUnions(union) as Record<string, unknown>;
    expect(routed.oneOf).toBeUndefined();
    const ajv = createA2uiAjv();
    const [before, after] = [ajv.compile(union), ajv.compile(routed)];
    for (const value of [{ k: 'a' }, { k: 'c', n: 1 }, { k: 'c', n: 'x' }, { k: 'd' }, {}, 'a']) {
      expect(after(value), JSON.stringify(value)).toBe(before(value));
    }
  });
});
