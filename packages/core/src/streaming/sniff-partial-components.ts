/**
 * Finds the components of a component message that is still being written: each open object,
 * innermost first, repaired and parsed until one has an `id` and a `component`.
 */
import { isRecord } from '../protocol/guards.js';
import { repairPartialJson } from './repair-partial-json.js';
import { isPresent } from './stream-data-model.js';
import { parseCounted, type StreamReadMeter } from './stream-read-meter.js';
import type { JsonObject } from './stream-types.js';

/**
 * The components that parse from the open objects of `pendingJson`.
 *
 * @param pendingJson - The unfinished JSON of the block.
 * @param openObjectStarts - Offsets of the open objects that may be components, innermost
 *   first (the scanner knows which objects are items of a `"components"` array).
 * @param cuttableKeys - Keys whose cut string values may be closed.
 * @param meter - Counts the characters read.
 */
export function partialComponents(
  pendingJson: string,
  openObjectStarts: readonly number[],
  cuttableKeys: ReadonlySet<string>,
  meter?: StreamReadMeter,
): JsonObject[] {
  const found: JsonObject[] = [];
  for (const start of openObjectStarts) {
    const fragment = pendingJson.slice(start);
    if (fragment === '') continue;
    const object = parseCounted(repairPartialJson(fragment, cuttableKeys, meter), meter);
    if (!isRecord(object) || !isPresent(object.id) || !isPresent(object.component)) continue;
    if (typeof object.component === 'string' || isRecord(object.component)) {
      found.push(object);
      // Components do not nest, so the objects around this one are its message: stop parsing.
      break;
    }
  }
  return found;
}
