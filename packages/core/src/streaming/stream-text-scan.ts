/** Small text and message scans of the streaming parser. */
import { isRecord } from '../protocol/guards.js';
import type { JsonObject } from './stream-types.js';

/**
 * The value of the last `"key": "value"` pair with a string value in `json` (a cut or
 * non-string value is skipped for the one before it): how the parser learns the surface and
 * root a message is about before the message is complete.
 */
export function latestStringValue(json: string, key: string): string | undefined {
  const needle = `"${key}"`;
  const pattern = new RegExp(`${needle}\\s*:\\s*"([^"]+)"`, 'y');
  for (
    let index = json.lastIndexOf(needle);
    index >= 0;
    index = json.lastIndexOf(needle, index - 1)
  ) {
    pattern.lastIndex = index;
    const match = pattern.exec(json);
    if (match) return match[1];
    if (index === 0) break;
  }
  return undefined;
}

/**
 * Keeps only the newest component message per surface among the messages produced by one
 * chunk: each one is the surface's whole reachable tree, so earlier ones are stale at once.
 */
export function keepLatestComponentMessages(
  messages: readonly JsonObject[],
  componentsKey: string,
): JsonObject[] {
  const seen = new Set<string>();
  const kept: JsonObject[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as JsonObject;
    const payload = message[componentsKey];
    const surfaceId = isRecord(payload) ? payload.surfaceId : undefined;
    if (typeof surfaceId === 'string' && surfaceId !== '') {
      if (seen.has(surfaceId)) continue;
      seen.add(surfaceId);
    }
    kept.unshift(message);
  }
  return kept;
}
