/**
 * The v0.8 reader takes shortcuts for the frequent messages (a `dataModelUpdate` checked and read
 * in one pass, a `surfaceUpdate` or first `beginRendering` read straight into the internal
 * model). It must read every stream exactly as the validating path it shortcuts: the v0.8 schema
 * (Ajv), then the upgrader's v0.9 messages mapped by `upgradedToInternal`, the same internal
 * messages and the same errors, message by message. Streams: the v0.8 examples, and generated
 * ones mixing their messages over two surfaces in any order (buffering before `beginRendering`,
 * repeats, deletes, `version` labels, two kinds in one message, bindings with an initial value,
 * broken messages).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InternalMessage } from '../protocol-version.js';
import { getV08MessageKind, type V08ServerMessage } from './v08-messages.js';
import { createV08Reader, upgradedToInternal } from './v08-reader.js';
import { V08Upgrader } from './v08-upgrader.js';
import { v08GenericValidator, v08StandardValidator } from './v08-validator.js';

const folder = new URL('../../testing/fixtures/v0_8/basic/', import.meta.url);
const examples: Record<string, unknown>[][] = readdirSync(folder)
  .filter((file) => file !== 'migration-report.json')
  .map((file) => JSON.parse(readFileSync(new URL(file, folder), 'utf8')).messages);

/** The validating path on its own, as the reader ran it before its shortcuts. */
function referenceReader() {
  const upgrader = new V08Upgrader({ renameRoot: false, keepCatalogIds: true });
  return (message: Record<string, unknown>): readonly InternalMessage[] => {
    const { version: _label, ...wire } = message;
    const kind = getV08MessageKind(message);
    const body = kind ? (message[kind] as Record<string, unknown>) : undefined;
    const surfaceId = typeof body?.surfaceId === 'string' ? body.surfaceId : undefined;
    const catalogId = surfaceId === undefined ? undefined : upgrader.catalogIdOf(surfaceId);
    const validator =
      catalogId === 'https://a2ui.org/specification/v0_8/standard_catalog_definition.json'
        ? v08StandardValidator
        : v08GenericValidator;
    const [issue] = validator.validateServerMessage(wire);
    if (issue) throw new Error(`${issue.path}: ${issue.message}`);
    const standard = kind === 'surfaceUpdate' && validator === v08StandardValidator;
    return upgrader
      .upgrade(wire as V08ServerMessage)
      .messages.map((upgraded) => upgradedToInternal(upgraded, standard, upgrader));
  };
}

/** Each message's internal messages or error text, read by `read` in order. */
function readAll(
  read: (message: Record<string, unknown>) => readonly InternalMessage[],
  stream: readonly Record<string, unknown>[],
): unknown[] {
  return stream.map((message) => {
    try {
      return read(structuredClone(message));
    } catch (error) {
      const { path, message: text } = error as { path?: string; message: string };
      return { error: path === undefined ? text : `${path}: ${text}` };
    }
  });
}

function expectSameReading(stream: readonly Record<string, unknown>[]): void {
  const reader = createV08Reader();
  const ours = readAll((message) => reader.read(message), stream);
  const reference = readAll(referenceReader(), stream);
  // Node's deep equality: data keys such as `constructor` are data here, not classes.
  for (let index = 0; index < stream.length; index++) {
    if (!isDeepStrictEqual(ours[index], reference[index]))
      expect({ index, message: stream[index], ours: ours[index] }).toEqual({
        index,
        message: stream[index],
        ours: reference[index],
      });
  }
}

/** Every message of the examples, on the surface `surface`. */
const pool: Record<string, unknown>[] = examples.flat();
const onSurface = (message: Record<string, unknown>, surfaceId: string) => {
  const copy = structuredClone(message);
  for (const value of Object.values(copy))
    if (typeof value === 'object' && value !== null && 'surfaceId' in value)
      (value as Record<string, unknown>).surfaceId = surfaceId;
  return copy;
};
/** One message of a generated stream: an example message, relabelled, maybe altered. */
const message = fc
  .tuple(
    fc.nat({ max: pool.length - 1 }),
    fc.constantFrom('a', 'b'),
    fc.constantFrom(
      'as is',
      'as is',
      'as is',
      'labelled',
      'delete',
      'styled',
      'paired',
      'shorthand',
      'broken',
    ),
    fc.nat(),
  )
  .map(([index, surfaceId, how, seed]) => {
    const copy = onSurface(pool[index]!, surfaceId);
    switch (how) {
      case 'labelled':
        return { version: 'v0.8', ...copy };
      case 'delete':
        return { deleteSurface: { surfaceId } };
      case 'styled':
        return {
          beginRendering: {
            surfaceId,
            root: 'root',
            styles: { primaryColor: '#00ff00' },
            ...(seed % 2 ? { catalogId: 'https://example.com/other' } : {}),
          },
        };
      case 'shorthand':
        // A binding with its initial value (v0.8 §4.2): a data write before the component.
        return {
          surfaceUpdate: {
            surfaceId,
            components: [
              {
                id: `t${seed % 3}`,
                component: {
                  Text: {
                    text: {
                      path: ['user/name', '/user/name', 'x'][seed % 3],
                      literalString: 'Ada',
                    },
                  },
                },
              },
            ],
          },
        };
      case 'paired':
        // Two kinds in one message: the schema allows it; the first kind is read.
        return { ...copy, ...onSurface(pool[seed % pool.length]!, surfaceId) };
      case 'broken':
        return breakMessage(copy, seed);
      default:
        return copy;
    }
  });

/** `message` with one value somewhere in it replaced by a wrong one, or one key added. */
function breakMessage(message: Record<string, unknown>, seed: number): Record<string, unknown> {
  const objects: Record<string, unknown>[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) collect(item);
    else if (typeof value === 'object' && value !== null) {
      objects.push(value as Record<string, unknown>);
      for (const item of Object.values(value)) collect(item);
    }
  };
  collect(message);
  const target = objects[seed % objects.length]!;
  const keys = Object.keys(target);
  const junk = [null, 7, 'x', [], {}, true][seed % 6];
  if (seed % 3 === 0 || keys.length === 0) target[`extra${seed % 2}`] = junk;
  else target[keys[seed % keys.length]!] = junk;
  return message;
}

describe('the v0.8 reader’s shortcuts', () => {
  it('read every v0.8 example as the validating path does', () => {
    for (const stream of examples) expectSameReading(stream);
  });

  it('read generated streams as the validating path does, errors included', () => {
    fc.assert(fc.property(fc.array(message, { minLength: 1, maxLength: 12 }), expectSameReading), {
      numRuns: 1500,
    });
  });
});
