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
import { schemas as commonSchemas } from './generated/common.js';
import { componentSchemaRef, prepareCatalogSchema } from './prepare-catalog-schema.js';
import { SERVER_TO_CLIENT_SCHEMA_ID } from './schema-ids.js';
import basicCatalog from './schemas/catalogs/basic/catalog.json' with { type: 'json' };
import minimalCatalog from './schemas/catalogs/minimal/catalog.json' with { type: 'json' };

type Validate = (value: unknown) => boolean;

/** Message and component validators of a catalog, from the official schemas or the rewrites. */
function compile(catalog: object, rewrite: boolean) {
  const prepared = prepareCatalogSchema(catalog);
  const route = <T extends object>(schema: T): T => (rewrite ? routeUnions(schema) : schema);
  const ajv = createA2uiAjv();
  ajv.addSchema(route(commonSchemas.commonTypes));
  ajv.addSchema(route(rewrite ? discriminateCatalogUnions(prepared.schema) : prepared.schema));
  ajv.addSchema(route(commonSchemas.serverToClient));
  const message = ajv.getSchema(SERVER_TO_CLIENT_SCHEMA_ID) as Validate;
  const components = Object.fromEntries(
    prepared.componentTypes.map((type) => [
      type,
      ajv.getSchema(componentSchemaRef(type)) as Validate,
    ]),
  );
  return { message, components };
}

const catalogs = { basic: basicCatalog, minimal: minimalCatalog };

const FIXTURES = fileURLToPath(new URL('../testing/fixtures/test_cases/', import.meta.url));
const caseMessages = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(FIXTURES + name, 'utf8')))
  .filter((suite) => suite.schema === 'server_to_client.json')
  .flatMap((suite: { tests: Array<{ data: unknown }> }) => suite.tests.map((test) => test.data));
const exampleMessages: unknown[] = EXAMPLE_STREAMS.flatMap((stream) => stream.messages);
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
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

describe('routeUnions', () => {
  for (const [name, catalog] of Object.entries(catalogs)) {
    const official = compile(catalog, false);
    const routed = compile(catalog, true);

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
              version: 'v0.9',
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
  });
});
