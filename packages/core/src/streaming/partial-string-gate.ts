/**
 * Decides, push by push, whether a growing part of the message being written is read again:
 * the string still being written, or the component being written. Reading it re-parses all of
 * it and showing it re-sends all of it, so a long string written a few characters per push would
 * cost work and output quadratic in its length. Like Nagle's algorithm, a short part is read on
 * every push (a cut text shows as it is typed) and a long one only once it has grown by a fixed
 * fraction since it was last read: the reads then form a geometric series, and total reading and
 * output stay linear in the part's length. Decided from raw lengths, before anything is decoded.
 */

/** Default {@link A2uiStreamParserOptions.partialStringEagerChars}: 1 KiB of JSON text. */
export const DEFAULT_PARTIAL_STRING_EAGER_CHARS = 1024;

/** Default {@link A2uiStreamParserOptions.partialStringMinGrowth}: a quarter. */
export const DEFAULT_PARTIAL_STRING_MIN_GROWTH = 0.25;

/** The gate of one growing part of a parser's buffer; see the module comment. */
export class GrowthGate {
  readonly #eagerChars: number;
  readonly #minGrowth: number;
  /** The part last read: the scanner's generation, its offset and its length then. */
  #generation = -1;
  #start = -1;
  #lengthAtRead = 0;

  /**
   * @param eagerChars - Length (UTF-16 units of JSON text) up to which a part is always read.
   * @param minGrowth - Growth, as a fraction of its length at the last read, after which a
   *   longer part is read again.
   */
  constructor(eagerChars: number, minGrowth: number) {
    this.#eagerChars = eagerChars;
    this.#minGrowth = minGrowth;
  }

  /**
   * Whether the part at `start` of the scanner's buffer (generation `generation`), now `length`
   * units long, should be read now; `force` reads it whatever its growth. A `true` answer counts
   * as a read.
   */
  admit(generation: number, start: number, length: number, force = false): boolean {
    const same = this.#generation === generation && this.#start === start;
    if (
      !force &&
      same &&
      length > this.#eagerChars &&
      length < this.#lengthAtRead * (1 + this.#minGrowth)
    ) {
      return false;
    }
    this.#generation = generation;
    this.#start = start;
    this.#lengthAtRead = length;
    return true;
  }
}
