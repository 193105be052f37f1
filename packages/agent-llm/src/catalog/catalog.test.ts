import {
  basicCatalog,
  createCatalog,
  type FunctionImplementation,
  minimalCatalog,
} from '@a2ui-ts/core';
import { EXAMPLE_STREAMS } from '@a2ui-ts/core/examples';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { weatherCard } from '../../test/fixtures.js';
import { readCatalogDocument } from './catalog-document.js';
import { createReferenceIndex, referencedIds } from './component-references.js';
import { describeCatalog } from './describe-catalog.js';
import { createRenderToolSchema } from './render-tool-schema.js';
import { createSystemPrompt } from './system-prompt.js';

const COMMON = 'https://a2ui.org/specification/v0_9/common_types.json#/$defs';

/** A custom catalog: a Chart (with a ComponentId slot), an `Action` component, a `sum` function. */
const chartsSchema = {
  catalogId: 'https://example.com/catalogs/charts/v1.json',
  components: {
    Chart: {
      type: 'object',
      description: 'A bar chart of a bound series.',
      allOf: [
        { $ref: `${COMMON}/ComponentCommon` },
        {
          type: 'object',
          properties: {
            component: { const: 'Chart' },
            series: { $ref: `${COMMON}/DynamicStringList`, description: 'Values to plot.' },
            legend: { $ref: `${COMMON}/ComponentId` },
            kind: { type: 'string', enum: ['bar', 'line'] },
          },
          required: ['component', 'series'],
        },
      ],
      unevaluatedProperties: false,
    },
    Action: {
      type: 'object',
      allOf: [
        { $ref: `${COMMON}/ComponentCommon` },
        {
          type: 'object',
          properties: {
            component: { const: 'Action' },
            label: { $ref: `${COMMON}/DynamicString` },
          },
          required: ['component', 'label'],
        },
      ],
      unevaluatedProperties: false,
    },
  },
  functions: {
    sum: {
      type: 'object',
      description: 'Adds numbers.',
      properties: {
        call: { const: 'sum' },
        args: {
          type: 'object',
          properties: { values: { type: 'array', items: { $ref: `${COMMON}/DynamicNumber` } } },
          required: ['values'],
          unevaluatedProperties: false,
        },
        returnType: { const: 'number' },
      },
      required: ['call', 'args'],
      unevaluatedProperties: false,
    },
  },
};
const sum: FunctionImplementation = {
  name: 'sum',
  returnType: 'number',
  execute: (args) => (args.values as number[]).reduce((total, value) => total + value, 0),
} as FunctionImplementation;
const charts = createCatalog({
  catalogId: chartsSchema.catalogId,
  schema: chartsSchema,
  functions: [sum],
});

function compile(schema: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  return ajv.compile(schema);
}

function localRefs(schema: unknown): string[] {
  return [...JSON.stringify(schema).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!);
}

describe('createRenderToolSchema', () => {
  it('inlines the basic catalog; every $ref resolves inside the schema', () => {
    const schema = createRenderToolSchema(readCatalogDocument(basicCatalog));
    for (const name of [
      'Text',
      'Button',
      'Tabs',
      'DynamicString',
      'fn_formatString',
      'ServerMessage',
      'anyComponent',
      'theme',
    ])
      expect(schema.$defs, name).toHaveProperty(name);
    const refs = localRefs(schema);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/\$defs\/[A-Za-z_]+$/);
      expect(schema.$defs, ref).toHaveProperty(ref.slice('#/$defs/'.length));
    }
    expect(JSON.stringify(schema)).not.toMatch(/"\$id"|"\$schema"|"discriminator"/);
  });

  it('accepts every official example stream of its catalog and rejects what core rejects', () => {
    const validators = {
      basic: compile(createRenderToolSchema(readCatalogDocument(basicCatalog))),
      minimal: compile(createRenderToolSchema(readCatalogDocument(minimalCatalog))),
    };
    expect(EXAMPLE_STREAMS.length).toBeGreaterThan(10);
    for (const example of EXAMPLE_STREAMS) {
      const validate = validators[example.catalog];
      expect(
        validate({ messages: example.messages }),
        `${example.file}: ${JSON.stringify(validate.errors?.slice(0, 2))}`,
      ).toBe(true);
    }
    expect(validators.basic({ messages: weatherCard() })).toBe(true);
    expect(validators.basic({ messages: weatherCard(42) })).toBe(false);
    expect(validators.basic({ messages: [] })).toBe(false);
    // A minimal-catalog agent cannot render basic-only components.
    expect(validators.minimal({ messages: weatherCard() })).toBe(false);
  });

  it('turns a custom catalog with functions into the schema, resolving name clashes', () => {
    const schema = createRenderToolSchema(readCatalogDocument(charts), {
      reservedSurfaceIds: ['llm-agent'],
    });
    // "Action" is also a common type: the component gets a prefix, the common type keeps its name.
    expect(schema.$defs).toHaveProperty('Chart');
    expect(schema.$defs).toHaveProperty('component_Action');
    expect(schema.$defs.Action).toEqual(expect.objectContaining({ oneOf: expect.any(Array) }));
    expect(schema.$defs).toHaveProperty('fn_sum');
    for (const ref of new Set(localRefs(schema)))
      expect(schema.$defs, ref).toHaveProperty(ref.slice('#/$defs/'.length));
    const validate = compile(schema);
    const surface = (components: unknown[]) => ({
      messages: [
        { version: 'v0.9', createSurface: { surfaceId: 'c', catalogId: charts.catalogId } },
        { version: 'v0.9', updateComponents: { surfaceId: 'c', components } },
      ],
    });
    expect(
      validate(
        surface([
          { id: 'root', component: 'Chart', series: { path: '/values' }, legend: 'l' },
          {
            id: 'l',
            component: 'Action',
            label: { call: 'sum', args: { values: [1, 2] }, returnType: 'number' },
          },
        ]),
      ),
    ).toBe(false); // sum returns a number, label needs a string
    expect(
      validate(surface([{ id: 'root', component: 'Chart', series: ['1', '2'], kind: 'bar' }])),
    ).toBe(true);
    expect(validate(surface([{ id: 'root', component: 'Text', text: 'x' }]))).toBe(false);
    expect(JSON.stringify(schema.$defs.ServerMessage)).toContain('never \\"llm-agent\\"');
  });
});

describe('describeCatalog and createSystemPrompt', () => {
  it('describe every component and function of the catalog from its schema', () => {
    const text = describeCatalog(readCatalogDocument(basicCatalog));
    for (const component of basicCatalog.components) expect(text).toContain(`### ${component}\n`);
    for (const fn of basicCatalog.functions.keys()) expect(text).toContain(`- ${fn}(`);
    expect(text).toContain('- child (required): component id — The ID of the single child');
    expect(text).toContain(
      '- variant: "h1" | "h2" | "h3" | "h4" | "h5" | "caption" | "body" — default "body"',
    );
    expect(text).toContain(
      '- formatCurrency(value: number*, currency: string*, decimals?: number*, grouping?: boolean*) → string',
    );
    expect(text).toContain('weight: number');
  });

  it('describe a custom catalog and its functions', () => {
    const text = describeCatalog(readCatalogDocument(charts));
    expect(text).toContain('### Chart\nA bar chart of a bound series.');
    expect(text).toContain('- series (required): string[]* — Values to plot.');
    expect(text).toContain('- legend: component id');
    expect(text).toContain('- kind: "bar" | "line"');
    expect(text).toContain('- sum(values: number*[]) → number — Adds numbers.');
  });

  it('put the instructions first, then the rules, then the catalog', () => {
    const prompt = createSystemPrompt(readCatalogDocument(minimalCatalog), {
      instructions: 'You sell bicycles.',
      reservedSurfaceIds: ['llm-agent'],
    });
    expect(prompt.startsWith('You sell bicycles.\n\n# Rules of A2UI v0.9\n1. ')).toBe(true);
    expect(prompt).toContain(`"catalogId": "${minimalCatalog.catalogId}"`);
    expect(prompt).toContain('Never use the surface id "llm-agent"');
    // The minimal catalog has no formatString: the prompt must not promise it.
    expect(prompt).not.toContain('formatString');
    expect(prompt.indexOf('# The catalog')).toBeGreaterThan(prompt.indexOf('# Rules'));
    expect(createSystemPrompt(readCatalogDocument(basicCatalog))).toContain(
      '"call": "formatString"',
    );
  });

  it('refuse a catalog without a schema', () => {
    expect(() => readCatalogDocument(createCatalog({ catalogId: 'x', components: ['A'] }))).toThrow(
      expect.objectContaining({ code: 'NOT_SUPPORTED' }),
    );
  });
});

describe('createReferenceIndex', () => {
  it('finds where basic components reference others', () => {
    const index = createReferenceIndex(readCatalogDocument(basicCatalog));
    expect(index.get('Column')).toEqual([{ path: ['children'], kind: 'list' }]);
    expect(index.get('Card')).toEqual([{ path: ['child'], kind: 'id' }]);
    expect(index.get('Tabs')).toEqual([{ path: ['tabs', '*', 'child'], kind: 'id' }]);
    expect(index.get('Modal')).toEqual([
      { path: ['trigger'], kind: 'id' },
      { path: ['content'], kind: 'id' },
    ]);
    expect(index.get('Text')).toEqual([]);
    expect(
      referencedIds(
        {
          tabs: [
            { title: 'a', child: 'x' },
            { title: 'b', child: 'y' },
          ],
        },
        index.get('Tabs')!,
      ),
    ).toEqual(['x', 'y']);
    expect(
      referencedIds({ children: { componentId: 'item', path: '/items' } }, index.get('List')!),
    ).toEqual(['item']);
  });

  it('reads custom catalogs the same way', () => {
    const index = createReferenceIndex(readCatalogDocument(charts));
    expect(index.get('Chart')).toEqual([{ path: ['legend'], kind: 'id' }]);
  });
});
