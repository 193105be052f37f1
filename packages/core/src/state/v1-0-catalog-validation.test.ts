/**
 * v1.0 surfaces check their components against the v1.0 basic catalog schema
 * (`specification/v1_0/catalogs/basic/catalog.json`), v0.9 surfaces against v0.9's: the same
 * component can be valid in one and refused, or degraded, in the other.
 */
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog/catalog.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { compileCatalogValidator } from '../validation/compile-catalog-validator.js';
import { encodeV10Error } from '../versions/v1-0.js';
import { V1_0_BASIC_CATALOG_ID } from '../versions/v1-0-catalogs.js';
import { MessageProcessor } from './message-processor.js';
import { snapshotState } from './snapshot.js';

const v10 = (body: Record<string, unknown>) => ({ version: 'v1.0', ...body });
const v09 = (body: Record<string, unknown>) => ({ version: 'v0.9', ...body });

function v10Surface(): MessageProcessor {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  const { errors } = processor.process(
    v10({
      createSurface: {
        surfaceId: 's',
        catalogId: V1_0_BASIC_CATALOG_ID,
        components: [{ id: 'root', component: 'Column', children: ['t'] }],
      },
    }),
  );
  expect(errors).toEqual([]);
  return processor;
}

function v09Surface(): MessageProcessor {
  const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  const { errors } = processor.process(
    v09({ createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } }),
  );
  expect(errors).toEqual([]);
  return processor;
}

const update = (version: typeof v10, ...components: Record<string, unknown>[]) =>
  version({ updateComponents: { surfaceId: 's', components } });

describe('v1.0 surfaces validate components against the v1.0 basic catalog', () => {
  it('accepts what v1.0 added: Video posterUrl, TextField placeholder, Slider steps', () => {
    const processor = v10Surface();
    const { errors } = processor.process(
      update(
        v10,
        { id: 'v', component: 'Video', url: 'https://example.com/a.mp4', posterUrl: 'p.png' },
        { id: 'f', component: 'TextField', label: 'Name', placeholder: { path: '/hint' } },
        { id: 'sl', component: 'Slider', label: 'Size', value: 3, max: 10, steps: 1 },
      ),
    );
    expect(errors).toEqual([]);
    const surface = processor.getSurface('s')!;
    expect(surface.components.get('v')!.properties.posterUrl).toBe('p.png');
    expect(surface.components.get('f')!.properties.placeholder).toEqual({ path: '/hint' });
  });

  it('refuses a Text variant v1.0 removed (h1), in v1.0 error shape, state intact', () => {
    const processor = v10Surface();
    const before = snapshotState(processor);
    const { errors } = processor.process(
      update(
        v10,
        { id: 'ok', component: 'Text', text: 'fine' },
        { id: 't', component: 'Text', text: 'Title', variant: 'h1' },
      ),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: 'VALIDATION_FAILED',
      surfaceId: 's',
      path: '/updateComponents/components/1/variant',
    });
    expect(errors[0]!.message).toContain('"caption"');
    expect(errors[0]!.message).not.toContain('"h1", ');
    expect(encodeV10Error(errors[0]!)).toEqual({
      version: 'v1.0',
      error: {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/1/variant',
        message: errors[0]!.message,
      },
    });
    expect(snapshotState(processor)).toEqual(before);
    // The surface keeps serving.
    expect(
      processor.process(update(v10, { id: 't', component: 'Text', text: 'x' })).errors,
    ).toEqual([]);
  });

  it('refuses a v0.9-shaped check ({call, args}) where v1.0 wants {condition}', () => {
    const processor = v10Surface();
    const before = snapshotState(processor);
    const { errors } = processor.process(
      update(v10, {
        id: 'f',
        component: 'TextField',
        label: 'Name',
        checks: [{ call: 'required', args: { value: { path: '/name' } }, message: 'Required' }],
      }),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: expect.stringMatching(/^\/updateComponents\/components\/0\/checks\/0/),
      }),
    ]);
    expect(snapshotState(processor)).toEqual(before);
  });

  it('drops and reports a property v1.0 removed (TextField validationRegexp), once', () => {
    const processor = v10Surface();
    const field = { id: 'f', component: 'TextField', label: 'Zip', validationRegexp: '^\\d+$' };
    const { errors } = processor.process(update(v10, field));
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/0/validationRegexp',
        message: 'Unknown property "validationRegexp" on TextField; it was ignored.',
      }),
    ]);
    expect(processor.getSurface('s')!.components.get('f')!.properties).not.toHaveProperty(
      'validationRegexp',
    );
  });
});

describe('the same components on a v0.9 surface are judged by the v0.9 catalog', () => {
  it('accepts Text variant h1 and validationRegexp; drops and reports posterUrl', () => {
    const processor = v09Surface();
    const { errors } = processor.process(
      update(
        v09,
        { id: 'root', component: 'Column', children: ['t', 'f', 'v'] },
        { id: 't', component: 'Text', text: 'Title', variant: 'h1' },
        { id: 'f', component: 'TextField', label: 'Zip', validationRegexp: '^\\d+$' },
        { id: 'v', component: 'Video', url: 'https://example.com/a.mp4', posterUrl: 'p.png' },
      ),
    );
    expect(errors.map((error) => error.path)).toEqual(['/updateComponents/components/3/posterUrl']);
    const surface = processor.getSurface('s')!;
    expect(surface.components.get('t')!.properties.variant).toBe('h1');
    expect(surface.components.get('f')!.properties.validationRegexp).toBe('^\\d+$');
    expect(surface.components.get('v')!.properties).not.toHaveProperty('posterUrl');
  });
});

describe('runtime-compiled v1.0 catalogs', () => {
  const chartsSchema = {
    catalogId: 'https://example.com/charts/v1.json',
    protocolVersion: '1.0',
    components: {
      Chart: {
        type: 'object',
        properties: {
          component: { const: 'Chart' },
          title: {
            $ref: 'https://a2ui.org/specification/v1_0/common_types.json#/$defs/DynamicString',
          },
          bars: { $ref: 'https://a2ui.org/specification/v1_0/common_types.json#/$defs/ChildList' },
        },
        required: ['component', 'title'],
      },
    },
  };

  function chartsProcessor(): MessageProcessor {
    const processor = new MessageProcessor({
      catalogs: [
        createCatalog({
          catalogId: chartsSchema.catalogId,
          schema: chartsSchema,
          validator: compileCatalogValidator(chartsSchema),
        }),
      ],
    });
    const { errors } = processor.process(
      v10({ createSurface: { surfaceId: 's', catalogId: chartsSchema.catalogId } }),
    );
    expect(errors).toEqual([]);
    return processor;
  }

  it('resolve v1.0 common types and close components as the v1.0 message schema does', () => {
    const processor = chartsProcessor();
    const valid = { id: 'root', component: 'Chart', title: { path: '/t' }, bars: ['a'] };
    expect(processor.process(update(v10, valid)).errors).toEqual([]);
    const { errors } = processor.process(
      update(v10, { id: 'root', component: 'Chart', title: 'T', colour: 'red' }),
    );
    expect(errors).toEqual([
      expect.objectContaining({ path: '/updateComponents/components/0/colour' }),
    ]);
  });

  it('refuse a v1.0 common type of the wrong shape, state intact', () => {
    const processor = chartsProcessor();
    const before = snapshotState(processor);
    const { errors } = processor.process(
      update(v10, { id: 'root', component: 'Chart', title: { path: 5 } }),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        path: expect.stringMatching(/^\/updateComponents\/components\/0\/title/),
      }),
    ]);
    expect(snapshotState(processor)).toEqual(before);
  });
});

describe('one component check for every version', () => {
  it('words a missing type and an unknown function alike on v0.9 and v1.0 surfaces', () => {
    for (const [processor, version] of [
      [v09Surface(), v09],
      [v10Surface(), v10],
    ] as const) {
      const before = snapshotState(processor);
      const missing = processor.process(update(version, { id: 'x', text: 'no type' })).errors;
      expect(missing).toEqual([
        expect.objectContaining({
          code: 'VALIDATION_FAILED',
          path: '/updateComponents/components/0/component',
          message:
            'Cannot create component x without a type: every component needs a string "component".',
        }),
      ]);
      expect(snapshotState(processor)).toEqual(before);
      const call = { call: 'shout', args: {} };
      const unknown = processor.process(
        update(version, { id: 'x', component: 'Text', text: call }),
      ).errors;
      expect(unknown.map((error) => error.message)).toEqual([
        expect.stringMatching(
          /^Unknown function "shout" in catalog .*; the component was applied, the call evaluates to nothing and an action calling it cannot run\.$/,
        ),
      ]);
    }
  });
});
