/** Small text and message scans of the streaming parser. */
import { isRecord } from '../protocol/guards.js';
import type { JsonObject } from './stream-types.js';

interface ValueWatch {
  /** The whole `"key": "value"` pair, sticky. */
  readonly pattern: RegExp;
  /** What may still become such a pair once more text arrives, sticky and anchored at the end. */
  readonly prefix: RegExp;
  readonly needle: string;
  match: string | undefined;
  /** Offsets of occurrences of the key after the match whose value has not (yet) matched. */
  pending: number[];
}

/**
 * The value of the last `"key": "value"` pair with a complete string value (how the parser
 * learns the surface and root a message is about before the message is complete), and substring
 * tests, over a text that only grows at its end (the scanner's buffer between two cuts). It is
 * given only what was appended, and keeps only the text it may still need (a needle's length, and
 * a pair whose value is still being written): the parser asks after every structural character,
 * and reading the whole text each time (even to search it, which makes V8 copy a string built by
 * appending) is quadratic.
 */
export class GrowingTextIndex {
  #generation = -1;
  /** The part of the text still needed, from offset {@link #windowStart} to the end. */
  #window = '';
  #windowStart = 0;
  readonly #longestNeedle: number;
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
        const prefix = new RegExp(`${needle}\\s*(?::\\s*(?:"[^"]*)?)?$`, 'y');
        return [key, { pattern, prefix, needle, match: undefined, pending: [] }];
      }),
    );
    const lengths = [...needles, ...valueKeys.map((key) => `"${key}"`)].map((n) => n.length);
    this.#longestNeedle = Math.max(0, ...lengths);
  }

  /**
   * Reads what was appended to the text since the last call.
   *
   * @param generation - Changes when the text was cut: everything is read again, from `whole()`.
   * @param appended - The text appended since the last call (ignored after a cut).
   * @param whole - The whole text, read only after a cut.
   */
  update(generation: number, appended: string, whole: () => string): void {
    let added = appended;
    if (generation !== this.#generation) {
      this.#generation = generation;
      this.#window = '';
      this.#windowStart = 0;
      for (const state of this.#needles.values()) state.found = false;
      for (const watch of this.#values.values()) {
        watch.match = undefined;
        watch.pending = [];
      }
      added = whole();
    }
    const offset = this.#windowStart;
    const text = this.#window + added;
    // Where a needle that was not complete in the text already read may start, in `text`.
    const from = (needle: string) => Math.max(0, this.#window.length - needle.length + 1);
    for (const [needle, state] of this.#needles) {
      if (!state.found) state.found = text.includes(needle, from(needle));
    }
    let keepFrom = offset + Math.max(0, text.length - this.#longestNeedle);
    for (const watch of this.#values.values()) {
      this.#updateValue(text, offset, from(watch.needle), watch);
      for (const at of watch.pending) keepFrom = Math.min(keepFrom, at);
    }
    this.#window = text.slice(keepFrom - offset);
    this.#windowStart = keepFrom;
  }

  has(needle: string): boolean {
    return this.#needles.get(needle)?.found ?? false;
  }

  valueOf(key: string): string | undefined {
    return this.#values.get(key)?.match;
  }

  /** `text` starts at offset `offset` of the whole text; new occurrences start at `from` or later. */
  #updateValue(text: string, offset: number, from: number, watch: ValueWatch): void {
    for (let at = text.indexOf(watch.needle, from); at >= 0; ) {
      watch.pending.push(offset + at);
      at = text.indexOf(watch.needle, at + 1);
    }
    // The latest occurrence whose value is complete wins; earlier ones no longer matter.
    for (let index = watch.pending.length - 1; index >= 0; index--) {
      watch.pattern.lastIndex = (watch.pending[index] as number) - offset;
      const match = watch.pattern.exec(text);
      if (match) {
        watch.match = match[1];
        watch.pending = watch.pending.slice(index + 1);
        break;
      }
    }
    // An occurrence followed by anything but the start of a string value never matches.
    watch.pending = watch.pending.filter((at) => {
      watch.prefix.lastIndex = at - offset;
      return watch.prefix.test(text);
    });
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
