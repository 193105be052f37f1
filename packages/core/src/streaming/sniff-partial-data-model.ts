/**
 * Reads a data-model update that is still being written and sends the entries finished so far
 * (each only once per value): a long list of restaurants fills in one by one instead of all at
 * the end.
 */
import { isRecord } from '../protocol/guards.js';
import { parsePartialJson } from './repair-partial-json.js';
import {
  contentsToRecord,
  type DataModelLedger,
  isPresent,
  pruneIncompleteEntries,
} from './stream-data-model.js';
import type { StreamDialect } from './stream-dialect.js';
import type { StreamReadMeter } from './stream-read-meter.js';
import type { JsonObject } from './stream-types.js';

/** What the sniffer reads and where it sends. */
export interface DataModelSniffContext {
  readonly dialect: StreamDialect;
  readonly ledger: DataModelLedger;
  readonly cuttableKeys: ReadonlySet<string>;
  /**
   * The unfinished JSON of the block and the offsets of the open objects that may hold the
   * update (the message being written), innermost first.
   */
  readonly pendingJson: string;
  readonly openObjectStarts: readonly number[];
  /** The surface the stream is on, for an update that has not named its own yet. */
  readonly surfaceId: string | undefined;
  /** Counts the characters read. */
  readonly meter?: StreamReadMeter;
  /** Sends a partial message (validated leniently: an invalid one is dropped, not thrown). */
  emitPartial(message: JsonObject): void;
}

type SniffTarget = Omit<DataModelSniffContext, 'pendingJson' | 'openObjectStarts'>;

function surfaceOf(payload: JsonObject, context: SniffTarget): string {
  const own = payload.surfaceId;
  if (isPresent(own)) return own as string;
  return context.surfaceId !== undefined && context.surfaceId !== ''
    ? context.surfaceId
    : 'default';
}

/** The newest entry of each changed key, in stream order, unfinished entries dropped. */
function latestEntries(contents: unknown[], changedKeys: JsonObject): unknown {
  const entries: unknown[] = [];
  const seen = new Set<unknown>();
  for (let index = contents.length - 1; index >= 0; index--) {
    const entry = contents[index];
    if (!isRecord(entry)) continue;
    const key = entry.key;
    if (isPresent(key) && String(key) in changedKeys && !seen.has(key)) {
      entries.unshift(entry);
      seen.add(key);
    }
  }
  return pruneIncompleteEntries(entries);
}

function sniffV08(payload: JsonObject, context: SniffTarget): void {
  if (!('contents' in payload)) return;
  const values = contentsToRecord(payload.contents);
  if (Object.keys(values).length === 0) return;
  const delta = context.ledger.changed(values);
  if (Object.keys(delta).length === 0) return;
  const contents = Array.isArray(payload.contents)
    ? latestEntries(payload.contents, values)
    : delta;
  const partial: JsonObject = { surfaceId: surfaceOf(payload, context), contents };
  if ('path' in payload) partial.path = payload.path;
  context.emitPartial(context.dialect.dataModelMessage(partial));
  context.ledger.record(values);
}

function sniffV09(payload: JsonObject, context: SniffTarget): void {
  if (!isRecord(payload.value)) return;
  const delta = context.ledger.changed(payload.value);
  if (Object.keys(delta).length === 0) return;
  context.emitPartial(
    context.dialect.dataModelMessage({ surfaceId: surfaceOf(payload, context), value: delta }),
  );
  context.ledger.record(delta);
}

/** Sends what has arrived of the data-model update being written, if any changed. */
export function sniffPartialDataModel(context: DataModelSniffContext): void {
  for (const start of context.openObjectStarts) {
    const fragment = context.pendingJson.slice(start);
    if (fragment === '') continue;
    sniffDataModelMessage(parsePartialJson(fragment, context.cuttableKeys, context.meter), context);
  }
}

/**
 * {@link sniffPartialDataModel} for a message already read as far as it goes (the parser reads a
 * deeply nested update level by level; `pendingJson` and `openObjectStarts` are not used).
 */
export function sniffDataModelMessage(object: unknown, context: SniffTarget): void {
  const key = context.dialect.dataModelKey;
  if (!isRecord(object) || Object.keys(object).length === 0 || !(key in object)) return;
  const payload = object[key];
  if (!isRecord(payload)) return;
  if (context.dialect.version === 'v0.8') sniffV08(payload, context);
  else sniffV09(payload, context);
}
