import { describe, expect, it } from 'vitest';
import { ajvErrorsToIssues } from './ajv-errors-to-issues.js';
import { diagnoseSchema, type JsonSchema } from './diagnose-schema.js';
import { findDepthViolation, findJsonViolation } from './find-depth-violation.js';
import { prepareCatalogSchema } from './prepare-catalog-schema.js';
import { stripSchemaAnnotations } from './standalone-codegen.js';

const BASE = 'https://example.com/schema.json';
const diagnose = (schema: JsonSchema, data: unknown, documents = new Map<string, JsonSchema>()) =>
  diagnoseSchema(schema, data, { documents, baseUri: BASE }) ?? expect.unreachable();

describe('diagnoseSchema', () => {
  it('reports nothing for a matching value', () => {
    expect(
      diagnose(
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { a: 'x' },
      ),
    ).toEqual([]);
  });

  it('points required and unknown properties at the property itself', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    expect(diagnose(schema, { b: 1 })).toEqual([
      { path: '/a', keyword: 'required', message: 'Missing required property "a".' },
      {
        path: '/b',
        keyword: 'additionalProperties',
        message: 'Unknown property "b". Allowed properties: a.',
      },
    ]);
  });

  it('ignores inherited and undefined properties as JSON would', () => {
    expect(diagnose({ type: 'object', required: ['constructor'] }, {})[0]?.path).toBe(
      '/constructor',
    );
    expect(diagnose({ type: 'object', required: ['a'] }, { a: undefined })[0]?.keyword).toBe(
      'required',
    );
  });

  it('tracks unevaluatedProperties through allOf and $ref', () => {
    const documents = new Map<string, JsonSchema>([
      [BASE, { $defs: { Base: { properties: { id: { type: 'string' } } } } }],
    ]);
    const schema = {
      allOf: [{ $ref: '#/$defs/Base' }, { properties: { kind: { const: 'x' } } }],
      unevaluatedProperties: false,
    };
    expect(diagnose(schema, { id: 'a', kind: 'x' }, documents)).toEqual([]);
    expect(diagnose(schema, { id: 'a', kind: 'x', extra: 1 }, documents)).toEqual([
      {
        path: '/extra',
        keyword: 'unevaluatedProperties',
        message: 'Unknown property "extra". Allowed properties: id, kind.',
      },
    ]);
  });

  it('chooses a oneOf branch by a const discriminator', () => {
    const schema = {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'circle' }, r: { type: 'number' } },
          required: ['kind', 'r'],
        },
        {
          type: 'object',
          properties: { kind: { const: 'square' }, side: { type: 'number' } },
          required: ['kind', 'side'],
        },
      ],
    };
    expect(diagnose(schema, { kind: 'square', side: 'big' })).toEqual([
      { path: '/side', keyword: 'type', message: 'Expected a number, got string.' },
    ]);
    expect(diagnose(schema, { kind: 'hexagon' })).toEqual([
      {
        path: '/kind',
        keyword: 'const',
        message: 'Expected "kind" to be one of "circle", "square", got "hexagon".',
      },
    ]);
    expect(diagnose(schema, { r: 1 })[0]).toMatchObject({ path: '/kind', keyword: 'required' });
  });

  it('does not treat an optional const property as a discriminator', () => {
    const schema = {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'a' } } },
        { type: 'object', properties: { kind: { const: 'b' } }, required: ['n'] },
      ],
    };
    expect(diagnose(schema, {})).toEqual([]); // the first branch passes: kind is optional there
  });

  it('lists the accepted shapes when no branch fits the type', () => {
    const schema = {
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'integer' } }, { type: 'null' }],
    };
    expect(diagnose(schema, true)).toEqual([
      {
        path: '',
        keyword: 'type',
        message: 'Expected a string, an array of integers or null, got boolean.',
      },
    ]);
  });

  it('prefers the branch that fits structurally, then the deepest issue', () => {
    const schema = {
      oneOf: [
        {
          type: 'object',
          properties: {
            event: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
          required: ['event'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { run: { type: 'string' } },
          required: ['run'],
          additionalProperties: false,
        },
      ],
    };
    expect(diagnose(schema, { event: { name: 5 } })).toEqual([
      { path: '/event/name', keyword: 'type', message: 'Expected a string, got integer.' },
    ]);
  });

  it('reports a value matching several oneOf branches', () => {
    expect(diagnose({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 3)[0]?.message).toContain(
      'Ambiguous value',
    );
  });

  it('explains not, enum, numeric and array keywords', () => {
    expect(diagnose({ not: { const: 'X' } }, 'X')[0]?.message).toBe('Must not be "X".');
    expect(diagnose({ minimum: 1, multipleOf: 2 }, 0.5).map((issue) => issue.keyword)).toEqual([
      'minimum',
    ]);
    expect(diagnose({ type: 'array', uniqueItems: true }, [1, 2, 1])[0]).toMatchObject({
      path: '/2',
      keyword: 'uniqueItems',
    });
    expect(
      diagnose({ type: 'array', prefixItems: [{ type: 'string' }], items: false }, ['a', 1])[0],
    ).toMatchObject({ path: '/1' });
    expect(diagnose({ type: 'string', minLength: 2 }, '😀')[0]?.message).toBe(
      'Expected at least 2 characters, got 1.',
    );
  });

  it('escapes JSON Pointer segments', () => {
    expect(
      diagnose({ type: 'object', properties: { 'a/b~c': { type: 'string' } } }, { 'a/b~c': 1 })[0]
        ?.path,
    ).toBe('/a~1b~0c');
  });

  it('gives up (undefined) when the step budget runs out', () => {
    const schema = { type: 'array', items: { type: 'string' } };
    expect(
      diagnoseSchema(
        schema,
        Array.from({ length: 100 }, () => 1),
        { documents: new Map(), baseUri: BASE, maxSteps: 10 },
      ),
    ).toBeUndefined();
  });
});

describe('ajvErrorsToIssues', () => {
  it('keeps the deepest specific errors and drops combinator summaries', () => {
    const errors = [
      {
        instancePath: '/a',
        schemaPath: '#/oneOf',
        keyword: 'oneOf',
        params: {},
        message: 'must match exactly one schema in oneOf',
      },
      {
        instancePath: '/a',
        schemaPath: '#/type',
        keyword: 'type',
        params: { type: 'string' },
        message: 'must be string',
      },
      {
        instancePath: '/a/b',
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'c' },
        message: "must have required property 'c'",
      },
      {
        instancePath: '/a/b',
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'c' },
        message: "must have required property 'c'",
      },
    ];
    expect(ajvErrorsToIssues(errors, { a: { b: {} } })).toEqual([
      { path: '/a/b/c', keyword: 'required', message: 'Missing required property "c".' },
    ]);
    expect(ajvErrorsToIssues([errors[0]!], {})).toEqual([
      { path: '/a', keyword: 'oneOf', message: 'Value must match exactly one schema in oneOf.' },
    ]);
    expect(ajvErrorsToIssues([], {})).toEqual([]);
  });
});

describe('findDepthViolation', () => {
  it('counts the root container as level 1', () => {
    expect(findDepthViolation([[1]], 2)).toBeUndefined();
    expect(findDepthViolation([[[1]]], 2)?.path).toBe('/0/0');
    expect(findDepthViolation('flat', 0)).toBeUndefined();
    expect(findDepthViolation({ a: [{}], b: { 'x/y': { z: {} } } }, 3)?.path).toBe('/b/x~1y/z');
  });

  it('finds a cycle, and does not look at numbers', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(findDepthViolation(cyclic, 10)?.keyword).toBe('maxDepth');
    expect(findDepthViolation({ n: Number.NaN }, 10)).toBeUndefined();
  });
});

describe('findJsonViolation', () => {
  it('reports the first non-finite number or too-deep container in document order', () => {
    expect(findJsonViolation({ a: 1, b: [0, -0, 1e308] }, 8)).toBeUndefined();
    expect(findJsonViolation(Number.POSITIVE_INFINITY, 8)).toMatchObject({
      path: '',
      keyword: 'type',
    });
    expect(findJsonViolation(JSON.parse('{"a":{"b":[1e999]},"c":-1e999}'), 8)?.path).toBe('/a/b/0');
    expect(findJsonViolation({ a: [[[]]], b: Number.NaN }, 2)).toMatchObject({
      path: '/a/0',
      keyword: 'maxDepth',
    });
    expect(findJsonViolation({ a: Number.NaN, b: [[[]]] }, 2)).toMatchObject({
      path: '/a',
      keyword: 'type',
    });
  });
});

describe('prepareCatalogSchema / stripSchemaAnnotations', () => {
  it('aliases the $id and derives missing $defs', () => {
    const prepared = prepareCatalogSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      catalogId: 'urn:c',
      components: { 'My/Widget': { type: 'object' } },
    });
    expect(prepared.catalogId).toBe('urn:c');
    expect(prepared.schema.$id).toBe('https://a2ui.org/specification/v0_9/catalog.json');
    expect(prepared.schema.$schema).toBeUndefined();
    expect(prepared.schema.$defs).toEqual({
      anyComponent: {
        oneOf: [{ $ref: '#/components/My~1Widget' }],
        discriminator: { propertyName: 'component' },
      },
      anyFunction: false,
      theme: { type: 'object' },
    });
  });

  it('strips annotations only in schema positions', () => {
    const schema = {
      description: 'drop',
      properties: { description: { type: 'string', title: 'drop' } },
      allOf: [{ default: 1, type: 'number' }],
      examples: [1],
      const: { description: 'data, kept' },
    };
    expect(stripSchemaAnnotations(schema)).toEqual({
      properties: { description: { type: 'string' } },
      allOf: [{ type: 'number' }],
      const: { description: 'data, kept' },
    });
  });
});
