/**
 * Why a v0.8 standard-catalog component is validated once: whatever the official v0.8 standard
 * schema accepts upgrades to a component the v0.9 basic catalog accepts, except where the basic
 * catalog requires a property v0.8 leaves optional (`BASIC_ONLY_REQUIRED`), and for those the
 * basic check still runs. Both tables are read off the official catalogs, so a change to either
 * catalog or to the upgrade rules fails here.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDefaultCatalogs } from '../../catalog/index.js';
import { IssueSink } from '../../migrate/migration-issue.js';
import { BASIC_CATALOG_ID } from '../../protocol/constants.js';
import { MessageProcessor } from '../../state/message-processor.js';
import basicSchema from '../../validation/schemas/catalogs/basic/catalog.json' with {
  type: 'json',
};
// The official v0.8 standard catalog, as copied into core (`schemas/v0_8`, see its NOTICE).
import v08StandardCatalog from '../../validation/schemas/v0_8/standard_catalog_definition.json' with {
  type: 'json',
};
import { getBuiltinCatalogValidator } from '../../validation/validator-registry.js';
import { BASIC_COMPONENT_RULES, BASIC_ONLY_REQUIRED } from './standard-components.js';
import { provenByV08Schema, upgradeComponent } from './translate-component.js';
import type { V08Component } from './v08-messages.js';
import { v08StandardValidator } from './v08-validator.js';

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  type?: string;
};

const v08Catalog = v08StandardCatalog as unknown as { components: Record<string, Schema> };
const basic = getBuiltinCatalogValidator(BASIC_CATALOG_ID)!;

/** The first `required` list in a schema that names `component` (the basic catalog's layout). */
function basicRequired(schema: unknown): string[] {
  if (Array.isArray(schema))
    for (const item of schema) if (basicRequired(item).length) return basicRequired(item);
  if (typeof schema !== 'object' || schema === null) return [];
  const required = (schema as Schema).required;
  if (Array.isArray(required) && required.includes('component')) return required;
  for (const value of Object.values(schema)) {
    const found = basicRequired(value);
    if (found.length) return found;
  }
  return [];
}

/** Values the v0.8 schema of property `name` accepts: every enum value and each value shape. */
function samples(name: string, schema: Schema): unknown[] {
  if (schema.enum) return schema.enum;
  const shapes = schema.properties ?? {};
  const literal = shapes.literalString;
  if (literal?.enum) return literal.enum.map((value) => ({ literalString: value }));
  const out: unknown[] = [];
  if (literal) out.push({ literalString: 'x' }, { path: '/p' }, { path: '/p', literalString: 'y' });
  if (shapes.literalNumber) out.push({ literalNumber: 3 }, { path: '/n', literalNumber: 4 });
  if (shapes.literalBoolean) out.push({ literalBoolean: true });
  if (shapes.literalArray) out.push({ literalArray: ['a'] });
  if (shapes.explicitList)
    out.push({ explicitList: ['c'] }, { template: { componentId: 'c', dataBinding: '/l' } });
  if (schema.type === 'string') out.push('c');
  if (schema.type === 'boolean') out.push(true, false);
  if (schema.type === 'number' || schema.type === 'integer') out.push(0, 1, 2, 5);
  if (name === 'action')
    out.push({ name: 'go' }, { name: 'go', context: [{ key: 'k', value: { path: '/a' } }] });
  if (name === 'tabItems') out.push([{ title: { literalString: 't' }, child: 'c' }]);
  if (name === 'options') out.push([{ label: { literalString: 'l' }, value: 'v' }]);
  return out;
}

/** Each v0.8 component type with its required properties, then each property value alone. */
function v08Variants(): { type: string; properties: Record<string, unknown> }[] {
  const out: { type: string; properties: Record<string, unknown> }[] = [];
  for (const [type, schema] of Object.entries(v08Catalog.components)) {
    const properties = schema.properties ?? {};
    const base: Record<string, unknown> = {};
    for (const name of schema.required ?? []) base[name] = samples(name, properties[name]!)[0];
    out.push({ type, properties: base });
    const everything = { ...base };
    for (const [name, property] of Object.entries(properties)) {
      const values = samples(name, property);
      for (const value of values) out.push({ type, properties: { ...base, [name]: value } });
      everything[name] = values.at(-1);
    }
    out.push({ type, properties: everything });
  }
  return out;
}

describe('upgrading v0.8 standard components', () => {
  it('names every property the basic catalog requires and v0.8 does not', () => {
    const found: Record<string, string[]> = {};
    for (const [type, rule] of Object.entries(BASIC_COMPONENT_RULES)) {
      const v08 = v08Catalog.components[rule.v08 ?? type]!;
      const v08Required = new Set(v08.required ?? []);
      const components = (basicSchema as { components: Record<string, unknown> }).components;
      const missing = basicRequired(components[type]).filter(
        (name) => name !== 'component' && !v08Required.has(rule.properties[name]?.v08 ?? name),
      );
      if (missing.length) found[type] = missing;
    }
    expect(found).toEqual(BASIC_ONLY_REQUIRED);
  });

  it('gives a valid basic component for every component the v0.8 schema accepts, unless flagged', () => {
    let accepted = 0;
    for (const { type, properties } of v08Variants()) {
      const component = { id: 'a', component: { [type]: properties } } as V08Component;
      const message = { surfaceUpdate: { surfaceId: 's', components: [component] } };
      if (v08StandardValidator.validateServerMessage(message).length > 0) continue;
      accepted++;
      const upgraded = upgradeComponent(component, {
        standard: true,
        initializations: [],
        sink: new IssueSink(),
        path: '',
      });
      const status = basic.checkComponent(upgraded).status;
      expect({ type, properties, status, proven: provenByV08Schema(upgraded) }).toEqual({
        type,
        properties,
        status: provenByV08Schema(upgraded) ? 'valid' : 'invalid',
        proven: provenByV08Schema(upgraded),
      });
    }
    // Every type, and most single-property variants, were exercised.
    expect(accepted).toBeGreaterThan(150);
  });
});

describe('MessageProcessor reading a v0.8 standard surface', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const begin = { beginRendering: { surfaceId: 's', root: 'root' } };
  const text = (id: string) => ({ id, component: { Text: { text: { literalString: id } } } });

  it('checks a surfaceUpdate once, against the v0.8 schema, after beginRendering', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    expect(processor.process(begin).errors).toEqual([]);
    const check = vi.spyOn(basic, 'checkComponent');
    const update = { surfaceUpdate: { surfaceId: 's', components: [text('root')] } };
    expect(processor.process(update).errors).toEqual([]);
    expect(check).not.toHaveBeenCalled();
    expect(processor.getSurface('s')?.components.get('root')?.type).toBe('Text');
  });

  it('still checks components buffered before beginRendering against the basic catalog', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const check = vi.spyOn(basic, 'checkComponent');
    const update = { surfaceUpdate: { surfaceId: 's', components: [text('root')] } };
    expect(processor.process(update).errors).toEqual([]);
    expect(processor.process(begin).errors).toEqual([]);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('still refuses a Slider without maxValue, which the basic catalog requires', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process(begin);
    const slider = { id: 'root', component: { Slider: { value: { literalNumber: 3 } } } };
    const { errors } = processor.process({
      surfaceUpdate: { surfaceId: 's', components: [slider] },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/surfaceUpdate/components/0/max',
    });
    expect(processor.getSurface('s')?.components.has('root')).toBe(false);
  });
});
