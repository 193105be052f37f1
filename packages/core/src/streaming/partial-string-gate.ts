/**
 * Decides, push by push, whether the message being written is read again while one of its
 * strings is still open. Reading it re-parses the whole open string and showing it re-sends the
 * whole string, so a long string written a few characters per push would cost work and output
 * quadratic in its length. Like Nagle's algorithm, a short string is shown on every push (a cut
 * text shows as it is typed) and a long one only once it has grown by a fixed fraction since it
 * was last read: the reads then form a geometric series, and total reading and output stay
 * linear in the string's length. A finished string is always read at once.
 */
import type { JsonBlockScanner } from './json-block-scanner.js';

/** Default {@link A2uiStreamParserOptions.partialStringEagerChars}: 1 KiB of JSON text. */
export const DEFAULT_PARTIAL_STRING_EAGER_CHARS = 1024;

/** Default {@link A2uiStreamParserOptions.partialStringMinGrowth}: a quarter. */
export const DEFAULT_PARTIAL_STRING_MIN_GROWTH = 0.25;

/** The gate of one parser; see the module comment. */
export class PartialStringGate {
  readonly #eagerChars: number;
  readonly #minGrowth: number;
  /** The open string last read: the scanner's generation, its offset and its length then. */
  #generation = -1;
  #start = -1;
  #lengthAtRead = 0;

  constructor(eagerChars: number, minGrowth: number) {
    this.#eagerChars = eagerChars;
    this.#minGrowth = minGrowth;
  }

  /**
   * Whether the message should be read now, decided from the open string's raw length before
   * anything is decoded; a `true` answer counts as a read.
   */
  admit(scanner: JsonBlockScanner): boolean {
    const open = scanner.openString();
    if (open === undefined) return true;
    const same = this.#generation === scanner.generation && this.#start === open.start;
    if (
      same &&
      open.length > this.#eagerChars &&
      open.length < this.#lengthAtRead * (1 + this.#minGrowth)
    ) {
      return false;
    }
    this.#generation = scanner.generation;
    this.#start = open.start;
    this.#lengthAtRead = open.length;
    return true;
  }
}
