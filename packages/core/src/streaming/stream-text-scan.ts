/** Small text and message scans of the streaming parser. */
import { isRecord } from '../protocol/guards.js';
import type { JsonObject } from './stream-types.js';

interface ValueWatch {
  readonly pattern: RegExp;
  readonly needle: string;
  match: string | undefined;
  /** Occurrences of the key after the match whose value has not (yet) matched. */
  pending: number[];
}

/**
 * The value of the last `"key": "value"` pair with a complete string value (how the parser
 * learns the surface and root a message is about before the message is complete), and substring
 * tests, over a text that only grows at its end (the
 * scanner's buffer between two cuts), answered by scanning only the new text: the parser asks
 * after every structural character, and rescanning a long message each time is quadratic.
 */
export class GrowingTextIndex {
  #generation = -1;
  #scannedTo = 0;
  readonly #needles: ReadonlyMap<string, { found: boolean }>;
  readonly #values: ReadonlyMap<string, ValueWatch>;

  /**
   * @param needles - Substrings {@link has} answers for.
   * @param valueKeys - Keys {@link valueOf} answers for.
   */
  constructor(needles: readonly string[], valueKeys: readonly string[]) {
    this.#needles = new Map(needles.map((needle) => [needle, { found: false }]));
    this.#values = new Map(
      valueKeys.map((key) => {
        const needle = `"${key}"`;
        const pattern = new RegExp(`${needle}\\s*:\\s*"([^"]+)"`, 'y');
        return [key, { pattern, needle, match: undefined, pending: [] }];
      }),
    );
  }

  /** Reads what was appended to `text` since the last call (everything, after a cut). */
  update(text: string, generation: number): void {
    if (generation !== this.#generation) {
      this.#generation = generation;
      this.#scannedTo = 0;
      for (const state of this.#needles.values()) state.found = false;
      for (const watch of this.#values.values()) {
        watch.match = undefined;
        watch.pending = [];
      }
    }
    for (const [needle, state] of this.#needles) {
      if (!state.found) state.found = text.includes(needle, this.#from(needle));
    }
    for (const watch of this.#values.values()) this.#updateValue(text, watch);
    this.#scannedTo = text.length;
  }

  has(needle: string): boolean {
    return this.#needles.get(needle)?.found ?? false;
  }

  valueOf(key: string): string | undefined {
    return this.#values.get(key)?.match;
  }

  /** Where a needle that was not complete in the scanned text may start. */
  #from(needle: string): number {
    return Math.max(0, this.#scannedTo - needle.length + 1);
  }

  #updateValue(text: string, watch: ValueWatch): void {
    for (let at = text.indexOf(watch.needle, this.#from(watch.needle)); at >= 0; ) {
      watch.pending.push(at);
      at = text.indexOf(watch.needle, at + 1);
    }
    // The latest occurrence whose value is complete wins; earlier ones no longer matter.
    for (let index = watch.pending.length - 1; index >= 0; index--) {
      const at = watch.pending[index] as number;
      watch.pattern.lastIndex = at;
      const match = watch.pattern.exec(text);
      if (match) {
        watch.match = match[1];
        watch.pending = watch.pending.slice(index + 1);
        return;
      }
    }
  }
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
