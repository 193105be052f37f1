/**
 * `readV08DataModelUpdate` is the reader's one-pass path for `dataModelUpdate`: it must accept
 * only what the official v0.8 schema (Ajv, `generated/v0-8.js`) accepts, and for that give
 * exactly what the upgrader gives. Checked on every `dataModelUpdate` of the v0.8 examples
 * (`fixtures/v0_8/basic`) and on generated bodies, valid and broken.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators } from '../../validation/builtin-validator-modules.js';
import { readV08DataModelUpdate } from './read-data-model-update.js';
import { V08Upgrader } from './v08-upgrader.js';
import { v08GenericValidator, v08StandardValidator } from './v08-validator.js';

/** Every `dataModelUpdate` body of the v0.8 examples. */
function fixtureBodies(): unknown[] {
  const bodies: unknown[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) collect(item);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'dataModelUpdate') bodies.push(item);
        collect(item);
      }
    }
  };
  const folder = new URL('../../testing/fixtures/v0_8/basic/', import.meta.url);
  for (const file of readdirSync(folder))
    collect(JSON.parse(readFileSync(new URL(file, folder), 'utf8')));
  return bodies;
}

/** The slow path: Ajv's verdict, then the upgrader's write on a surface that has begun. */
function slowPath(body: unknown): { valid: boolean; write?: unknown } {
  const message = { dataModelUpdate: body };
  const valid =
    v08GenericValidator.validateServerMessage(message).length === 0 &&
    v08StandardValidator.validateServerMessage(message).length === 0;
  if (!valid) return { valid };
  const upgrader = new V08Upgrader({ keepCatalogIds: true, renameRoot: false });
  const surfaceId = (body as { surfaceId: string }).surfaceId;
  upgrader.upgrade({ beginRendering: { surfaceId, root: 'root' } });
  const [upgraded] = upgrader.upgrade(message as never).messages;
  const { path, value } = (upgraded as { updateDataModel: { path: string; value: unknown } })
    .updateDataModel;
  return { valid, write: { surfaceId, path, value } };
}

/** The property every body must have: refused unless Ajv accepts, the upgrader's write if read. */
function expectSameAsSlowPath(body: unknown): void {
  const fast = readV08DataModelUpdate(body);
  const slow = slowPath(body);
  if (!slow.valid) expect(fast).toBeUndefined();
  // Node's deep equality: vitest's would compare an own `constructor` key (a data key here) as
  // the objects' class.
  if (fast !== undefined) expect(isDeepStrictEqual(fast, slow.write)).toBe(true);
}

const key = fc.constantFrom('a', 'b', '.', '__proto__', 'constructor', '', 'name');
const scalar = fc.oneof(
  fc.record({ valueString: fc.string({ maxLength: 4 }) }),
  fc.record({ valueNumber: fc.oneof(fc.double(), fc.integer()) }),
  fc.record({ valueBoolean: fc.boolean() }),
  fc.constant({}),
);
/** Entries as the schema allows them (a typed value beside `key`, maps one level deep). */
const innerEntry = fc.tuple(key, scalar).map(([name, value]) => ({ key: name, ...value }));
const entry = fc.oneof(
  innerEntry,
  fc.tuple(key, fc.array(innerEntry, { maxLength: 3 })).map(([name, map]) => ({
    key: name,
    valueMap: map,
  })),
  // Several typed values at once: the schema allows it, the upgrader picks one.
  fc
    .tuple(key, fc.string({ maxLength: 3 }), fc.integer(), fc.boolean())
    .map(([name, text, number, flag]) => ({
      key: name,
      valueString: text,
      valueNumber: number,
      valueBoolean: flag,
    })),
);
const body = fc.record(
  {
    surfaceId: fc.constantFrom('s', '__proto__'),
    path: fc.constantFrom('/', '', 'user', '/user/name', '/a~1b'),
    contents: fc.array(entry, { maxLength: 4 }),
  },
  { requiredKeys: ['surfaceId', 'contents'] },
);
/** Anything JSON may hold where the schema expects something particular. */
const junk = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.string({ maxLength: 2 }),
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(Number.NaN),
  fc.constant([{ key: 'x', valueMap: [] }]),
);
/** A valid body with one value somewhere replaced by junk, or one key added. */
const broken = fc
  .tuple(body, junk, fc.nat(), fc.constantFrom('replace', 'add'))
  .map(([valid, value, seed, how]) => {
    const copy = structuredClone(valid) as Record<string, unknown>;
    const targets: Record<string, unknown>[] = [copy];
    for (const item of copy.contents as Record<string, unknown>[]) {
      targets.push(item);
      if (Array.isArray(item.valueMap)) targets.push(...item.valueMap);
    }
    const target = targets[seed % targets.length]!;
    const keys = Object.keys(target);
    const name =
      how === 'add' || keys.length === 0
        ? ['extra', 'valueMap', 'valueString', 'key', 'literalString'][seed % 5]!
        : keys[seed % keys.length]!;
    target[name] = value;
    return copy;
  });

// These modules are imported alone, not through `@a2ui-ts/core` (which loads the schemas).
beforeAll(() => loadValidators());

describe('readV08DataModelUpdate', () => {
  it('reads every dataModelUpdate of the v0.8 fixtures as the upgrader does', () => {
    const bodies = fixtureBodies();
    expect(bodies.length).toBeGreaterThan(20);
    for (const item of bodies) {
      expect(readV08DataModelUpdate(item)).toBeDefined();
      expectSameAsSlowPath(item);
    }
  });

  it('gives the upgrader’s write for generated valid bodies', () => {
    fc.assert(fc.property(body, expectSameAsSlowPath), { numRuns: 3000 });
  });

  it('refuses whatever Ajv refuses, in generated broken bodies', () => {
    fc.assert(fc.property(broken, expectSameAsSlowPath), { numRuns: 5000 });
  });

  it('leaves non-finite numbers and undefined values to the validating path', () => {
    const contents = (entryValue: Record<string, unknown>) => ({
      surfaceId: 's',
      contents: [{ key: 'a', ...entryValue }],
    });
    expect(readV08DataModelUpdate(contents({ valueNumber: Infinity }))).toBeUndefined();
    expect(readV08DataModelUpdate(contents({ valueString: undefined }))).toBeUndefined();
    expect(readV08DataModelUpdate(contents({ valueNumber: 2 }))).toStrictEqual({
      surfaceId: 's',
      path: '/',
      value: { a: 2 },
    });
  });
});
