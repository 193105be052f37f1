/**
 * A v0.8 `dataModelUpdate` checked against the official v0.8 schema and turned into the value it
 * writes, in one pass over its `contents` (v0.8 §4.1). The reader's fast path: for a body the
 * schema accepts it gives what validating (`generated/v0-8.js`) and then upgrading
 * ({@link V08Upgrader}) would, without the intermediate v0.9 message; for anything else it gives
 * `undefined` and the caller takes that slower path, whose errors are the ones reported.
 * `read-data-model-update.test.ts` proves both halves against Ajv and the upgrader.
 */
import { isRecord, setOwn } from '../../protocol/guards.js';
import { normalizeV08Path } from './bound-values.js';

/** What a schema-valid `dataModelUpdate` writes: `value` at the JSON Pointer `path`. */
export interface V08DataWrite {
  readonly surfaceId: string;
  readonly path: string;
  readonly value: unknown;
}

/**
 * Marks "not proven here" while a value is built; distinct from every JSON value (an entry's
 * value may itself be `undefined`: a `{"key"}` alone).
 */
const UNPROVEN: unique symbol = Symbol('unproven');

/**
 * The write a v0.8 `dataModelUpdate` body stands for, when the official v0.8 schema accepts it
 * and its numbers are finite (the processor refuses `Infinity` before any reader runs; a
 * non-finite number here is left to that path); otherwise `undefined`.
 *
 * @param body - the value under the message's `dataModelUpdate` key
 */
export function readV08DataModelUpdate(body: unknown): V08DataWrite | undefined {
  if (!isRecord(body)) return undefined;
  let surfaceId: unknown;
  let path: unknown;
  let contents: unknown;
  // `for…in`, as Ajv's additionalProperties loop: an inherited enumerable key is refused too.
  for (const key in body) {
    if (key === 'surfaceId') surfaceId = body[key];
    else if (key === 'path') path = body[key];
    else if (key === 'contents') contents = body[key];
    else return undefined;
  }
  if (typeof surfaceId !== 'string' || !Array.isArray(contents)) return undefined;
  if (path !== undefined && typeof path !== 'string') return undefined;
  // `{"key": ".", …}` alone sets the value at `path` itself: the reference renderers'
  // convention for a value that is not a map (as the upgrader reads it).
  let value: unknown;
  if (contents.length === 1 && isRecord(contents[0]) && contents[0].key === '.') {
    value = entryValue(contents[0], true);
  } else {
    value = mapValue(contents, true);
  }
  if (value === UNPROVEN) return undefined;
  return { surfaceId, path: normalizeV08Path(path), value };
}

/** `entries` (a `contents` or `valueMap` list) as the object it describes, or {@link UNPROVEN}. */
function mapValue(entries: readonly unknown[], nested: boolean): unknown {
  const result: Record<string, unknown> = {};
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    if (!isRecord(entry)) return UNPROVEN;
    const value = entryValue(entry, nested);
    if (value === UNPROVEN) return UNPROVEN;
    setOwn(result, entry.key as string, value);
  }
  return result;
}

/**
 * One entry's value, with the upgrader's precedence (`valueMap`, then `valueString`,
 * `valueNumber`, `valueBoolean`; the schema allows several), or {@link UNPROVEN}.
 *
 * @param nested - a `valueMap` is allowed here (top-level entries; the schema's `valueMap`
 *   items hold no `valueMap` of their own)
 */
function entryValue(entry: Readonly<Record<string, unknown>>, nested: boolean): unknown {
  let hasKey = false;
  let map: unknown;
  let string: unknown = UNPROVEN;
  let number: unknown = UNPROVEN;
  let boolean: unknown = UNPROVEN;
  for (const key in entry) {
    const item = entry[key];
    switch (key) {
      case 'key':
        if (typeof item !== 'string') return UNPROVEN;
        hasKey = true;
        break;
      case 'valueString':
        if (typeof item !== 'string') return UNPROVEN;
        string = item;
        break;
      case 'valueNumber':
        if (typeof item !== 'number' || !Number.isFinite(item)) return UNPROVEN;
        number = item;
        break;
      case 'valueBoolean':
        if (typeof item !== 'boolean') return UNPROVEN;
        boolean = item;
        break;
      case 'valueMap':
        if (!nested || !Array.isArray(item)) return UNPROVEN;
        map = item;
        break;
      default:
        return UNPROVEN;
    }
  }
  if (!hasKey) return UNPROVEN;
  if (map !== undefined) return mapValue(map as unknown[], false);
  if (string !== UNPROVEN) return string;
  if (number !== UNPROVEN) return number;
  if (boolean !== UNPROVEN) return boolean;
  // A key alone: the upgrader writes `undefined` for it.
  return undefined;
}
