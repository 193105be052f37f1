/**
 * The data-model side of the streaming parser: remembers which data-model values were already
 * sent, so a value is sent once per change, and reads data-model updates that are still being
 * written so their finished entries reach the renderer early. v0.8 writes the model as a list of
 * `{key, valueString | valueNumber | valueBoolean | valueMap}` entries, v0.9 as a JSON value.
 */
import { isRecord } from '../protocol/guards.js';
import { jsonEquals } from './json-equals.js';
import type { StreamDialect } from './stream-dialect.js';
import type { JsonObject } from './stream-types.js';

const V08_SCALAR_KEYS = ['value', 'valueString', 'valueNumber', 'valueBoolean'];
/** Keys of a v0.9 `updateDataModel` that address rather than carry data. */
const V09_ADDRESS_KEYS = new Set(['surfaceId', 'root']);

/** JavaScript's reading of "a present, non-empty value" as the v0.8 entries use it. */
export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

/** The value of one v0.8 entry: its first present scalar, else its map (possibly empty). */
function entryValueForDedupe(entry: JsonObject): unknown {
  for (const key of ['valueString', 'valueNumber', 'valueBoolean']) {
    if (isPresent(entry[key])) return entry[key];
  }
  return entry.valueMap;
}

/** v0.8 contents (a list of entries) as a plain record; nested `valueMap`s become records. */
export function contentsToRecord(contents: unknown): JsonObject {
  if (isRecord(contents)) return contents;
  if (!Array.isArray(contents)) return {};
  const record: JsonObject = {};
  for (const entry of contents) {
    if (!isRecord(entry)) continue;
    const scalarKey = V08_SCALAR_KEYS.find((key) => key in entry);
    let value = scalarKey === undefined ? undefined : entry[scalarKey];
    if ((value === undefined || value === null) && 'valueMap' in entry) {
      value = contentsToRecord(entry.valueMap);
    }
    if (isPresent(entry.key) && value !== undefined && value !== null) {
      record[String(entry.key)] = value;
    }
  }
  return record;
}

/** Drops v0.8 entries that have a key but no value yet (their value is still being written). */
export function pruneIncompleteEntries(entries: unknown): unknown {
  if (!Array.isArray(entries)) return entries;
  const kept: unknown[] = [];
  for (const entry of entries) {
    if (!isRecord(entry)) {
      kept.push(entry);
      continue;
    }
    let hasValue = V08_SCALAR_KEYS.some((key) => key in entry);
    if ('valueMap' in entry) {
      const map = pruneIncompleteEntries(entry.valueMap);
      if (Array.isArray(map)) {
        // A map that only held unfinished entries is itself unfinished; an empty one is a value.
        if (map.length === 0 && Array.isArray(entry.valueMap) && entry.valueMap.length > 0) {
          delete entry.valueMap;
        } else {
          entry.valueMap = map;
          hasValue = true;
        }
      }
    }
    if (hasValue && 'key' in entry) kept.push(entry);
  }
  return kept;
}

/** The data-model values already sent, by top-level key. */
export class DataModelLedger {
  readonly #sent = new Map<string, unknown>();

  /** The entries of `values` that differ from what was sent. */
  changed(values: JsonObject): JsonObject {
    const delta: JsonObject = {};
    for (const [key, value] of Object.entries(values)) {
      if (!jsonEquals(this.#sent.get(key), value)) delta[key] = value;
    }
    return delta;
  }

  /** Records `values` as sent. */
  record(values: JsonObject): void {
    for (const [key, value] of Object.entries(values)) this.#sent.set(key, value);
  }

  /**
   * Whether a message should be sent: anything but a data-model update always is; a data-model
   * update only when it changes a value (and then its values are recorded as sent).
   */
  admit(message: JsonObject, dialect: StreamDialect): boolean {
    const payload = message[dialect.dataModelKey];
    if (!isRecord(payload)) return true;
    const values = dialect.version === 'v0.8' ? v08Values(payload) : v09Values(payload);
    if (values === undefined) return true;
    if (dialect.version === 'v0.8' && Object.keys(values).length === 0) return true;
    if (Object.keys(this.changed(values)).length === 0) return false;
    this.record(values);
    return true;
  }
}

function v08Values(payload: JsonObject): JsonObject | undefined {
  const contents = payload.contents ?? {};
  if (isRecord(contents)) return contents;
  if (!Array.isArray(contents)) return {};
  const values: JsonObject = {};
  for (const entry of contents) {
    if (!isRecord(entry) || !('key' in entry)) continue;
    const value = entryValueForDedupe(entry);
    if (isPresent(entry.key) && value !== undefined && value !== null) {
      values[String(entry.key)] = value;
    }
  }
  return values;
}

function v09Values(payload: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => !V09_ADDRESS_KEYS.has(key)));
}
