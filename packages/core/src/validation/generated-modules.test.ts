/**
 * The committed precompiled validators: up to date, eval-free, and importable as plain ESM.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import { generateBuiltinValidatorModules } from './generate-builtin-validators.js';
import * as basic from './generated/basic.js';
import * as common from './generated/common.js';
import * as minimal from './generated/minimal.js';
import { validatorRuntime } from './generated/runtime.js';
import * as v10Basic from './generated/v1-0-basic.js';
import * as v10Common from './generated/v1-0-common.js';
import { V1_0_CATALOG_ALIAS_SCHEMA_ID } from './schema-ids.js';

const GENERATED_DIRECTORY = fileURLToPath(new URL('./generated/', import.meta.url));

describe('generated validator modules', () => {
  const expected = generateBuiltinValidatorModules();

  it('are up to date (run `pnpm --filter @a2ui-ts/core generate` if this fails)', () => {
    expect(readdirSync(GENERATED_DIRECTORY).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, text] of Object.entries(expected)) {
      expect(readFileSync(GENERATED_DIRECTORY + name, 'utf8'), name).toBe(text);
    }
  });

  it('contain no eval, new Function or require', () => {
    for (const [name, text] of Object.entries(expected)) {
      expect(text, name).not.toMatch(/new Function|\beval\(|\brequire\(/);
    }
  });

  it("compile each component once: the exported component validator is the one serverMessage's union calls", () => {
    const catalogModules = Object.entries(expected).filter(([, text]) =>
      text.includes('export const components = {'),
    );
    expect(catalogModules.length).toBeGreaterThan(0);
    for (const [name, text] of catalogModules) {
      const exported = [...text.matchAll(/^export const component_\d+ = (validate\d+);$/gm)];
      expect(exported.length, name).toBeGreaterThan(0);
      for (const [, fn] of exported) {
        // A twin compiled for serverMessage would leave the exported one called by nobody.
        const callers = [...text.matchAll(new RegExp(`(?<!function )\\b${fn}\\(data`, 'g'))];
        expect(callers.length, `${name}: ${fn}`).toBeGreaterThan(0);
      }
    }
  });

  it('import Ajv runtime helpers with explicit ESM paths only', () => {
    const imports = Object.values(expected).flatMap((text) =>
      [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]),
    );
    expect(new Set(imports)).toEqual(
      new Set([
        './runtime.js',
        'ajv/dist/runtime/equal.js',
        'ajv/dist/runtime/ucs2length.js',
        'ajv-formats/dist/formats.js',
      ]),
    );
  });

  it('resolve their runtime helpers under ESM', () => {
    expect(validatorRuntime.equal({ a: [1] }, { a: [1] })).toBe(true);
    expect(validatorRuntime.ucs2length('a😀')).toBe(2);
    expect(typeof validatorRuntime.fullFormats['date-time']).not.toBe('undefined');
  });

  it('export the catalog module contract', () => {
    expect(basic.catalogId).toBe(BASIC_CATALOG_ID);
    expect(minimal.catalogId).toBe(MINIMAL_CATALOG_ID);
    expect(Object.keys(basic.components)).toHaveLength(18);
    expect(Object.keys(minimal.components)).toEqual([
      'Text',
      'Row',
      'Column',
      'Button',
      'TextField',
    ]);
    expect(basic.theme({ primaryColor: '#00BFFF' })).toBe(true);
    expect(basic.theme({ primaryColor: 'blue' })).toBe(false);
    expect(basic.components.Text!({ id: 't', component: 'Text', text: 'hi' })).toBe(true);
    expect(basic.serverMessage({ version: 'v0.9', deleteSurface: { surfaceId: 's' } })).toBe(true);
    // Stripped copies keep properties NAMED like annotations (AccessibilityAttributes.description).
    const accessibility = (
      common.schemas.commonTypes.$defs as Record<string, { properties: object }>
    ).AccessibilityAttributes;
    expect(Object.keys(accessibility!.properties)).toEqual(['label', 'description']);
  });

  it('include the v1.0 basic catalog, compiled against v1.0 common types', () => {
    expect(Object.keys(generateBuiltinValidatorModules())).toEqual(
      expect.arrayContaining(['v1-0-basic.js', 'v1-0-basic.d.ts', 'v1-0-common.js']),
    );
    expect(v10Basic.catalogId).toBe(
      'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json',
    );
    expect(v10Basic.catalogSchema.$id).toBe(V1_0_CATALOG_ALIAS_SCHEMA_ID);
    expect(Object.keys(v10Basic.components)).toHaveLength(18);
    expect(v10Common.schemas.commonTypes.$id).toBe(
      'https://a2ui.org/specification/v1_0/common_types.json',
    );
    const video = { id: 'v', component: 'Video', url: 'u', posterUrl: 'p' };
    expect(v10Basic.components.Video!(video)).toBe(true);
    expect(basic.components.Video!(video)).toBe(false);
    // A v1.0 component alone gets the message schema's verdict: ComponentCommon, closed.
    expect(v10Basic.components.Text!({ id: 't', component: 'Text', text: 'hi' })).toBe(true);
    expect(v10Basic.components.Text!({ component: 'Text', text: 'hi' })).toBe(false);
    expect(v10Basic.components.Text!({ id: 't', component: 'Text', text: 'hi', x: 1 })).toBe(false);
    expect(
      v10Basic.components.Text!({ id: 't', component: 'Text', text: 'hi', variant: 'h1' }),
    ).toBe(false);
    expect(v10Basic.serverMessage({ version: 'v1.0', deleteSurface: { surfaceId: 's' } })).toBe(
      true,
    );
    expect(v10Basic.serverMessage({ version: 'v0.9', deleteSurface: { surfaceId: 's' } })).toBe(
      false,
    );
  });

  it('validate client capabilities through the embedded 2020-12 meta-schema', () => {
    const withCatalog = (components: object) => ({
      'v0.9': { supportedCatalogIds: [], inlineCatalogs: [{ catalogId: 'c', components }] },
    });
    expect(common.clientCapabilities(withCatalog({ Chart: { type: 'object' } }))).toBe(true);
    expect(common.clientCapabilities(withCatalog({ Chart: { type: 5 } }))).toBe(false);
  });
});
