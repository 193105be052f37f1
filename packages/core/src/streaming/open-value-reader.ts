/**
 * Reads a JSON value that is still being written, nested any number of levels, without reading
 * its finished parts again on every push: for each open `{` / `[` it keeps the items that were
 * already finished (parsed once, when the comma after them arrived) and parses only the item in
 * progress at the deepest level. The result is what `parsePartialJson` gives for the whole text
 * (a cut item is dropped back to the last comma that parses), built from those pieces.
 */
import { isRecord, setOwn } from '../protocol/guards.js';
import type { JsonBlockScanner, OpenBracket } from './json-block-scanner.js';
import { parsePartialJson } from './repair-partial-json.js';
import { parseCounted } from './stream-read-meter.js';

/** The finished items of one open bracket, and where the first unread item starts. */
interface LevelState {
  readonly start: number;
  from: number;
  readonly items: unknown[] | Record<string, unknown>;
}

/** `"key" :` and nothing else: how an object's item in progress starts before its value. */
const KEY_PREFIX = /^\s*("(?:[^"\\]|\\.)*")\s*:\s*$/;

/** The open value reader of one parser; see the module comment. */
export class OpenValueReader {
  #generation = -1;
  #levels: LevelState[] = [];

  /**
   * The value of `chain[0]` as far as it has arrived.
   *
   * @param scanner - The block scanner whose buffer holds the text.
   * @param chain - Open brackets from the value's own down to the innermost, as the scanner
   *   reports them.
   * @param cuttableKeys - Keys whose cut string values may be closed.
   * @param skipFinished - Leave out the items of `chain[0]` finished before the last read (the
   *   caller already has them): its value holds those finished since, and the item in progress.
   * @returns The value, or undefined when nothing of it parses yet.
   */
  read(
    scanner: JsonBlockScanner,
    chain: readonly OpenBracket[],
    cuttableKeys: ReadonlySet<string>,
    skipFinished = false,
  ): unknown {
    if (this.#generation !== scanner.generation) {
      this.#generation = scanner.generation;
      this.#levels = [];
    }
    const levels: LevelState[] = [];
    for (const [depth, bracket] of chain.entries()) {
      const level = this.#levelOf(depth, bracket, scanner, skipFinished && depth === 0);
      if (level === undefined) return undefined;
      levels.push(level);
    }
    this.#levels = levels;
    const innermost = chain.at(-1) as OpenBracket;
    const tail = scanner.textFrom(innermost.itemStart);
    const partial = parsePartialJson(`${innermost.char}${tail}`, cuttableKeys, scanner.meter);
    let value = withItem(levels.at(-1) as LevelState, partial);
    for (let depth = chain.length - 2; depth >= 0; depth--) {
      const bracket = chain[depth] as OpenBracket;
      const child = chain[depth + 1] as OpenBracket;
      const level = levels[depth] as LevelState;
      if (value === undefined) {
        value = withItem(level, undefined);
        continue;
      }
      if (bracket.char === '[') {
        value = withItem(level, [value]);
        continue;
      }
      const prefix = scanner.textFrom(bracket.itemStart).slice(0, child.start - bracket.itemStart);
      const key = KEY_PREFIX.exec(prefix)?.[1];
      const item: Record<string, unknown> = {};
      if (key !== undefined) setOwn(item, JSON.parse(key) as string, value);
      value = withItem(level, key === undefined ? undefined : item);
    }
    return value;
  }

  /** The state of the bracket at `depth`, its finished items brought up to date. */
  #levelOf(
    depth: number,
    bracket: OpenBracket,
    scanner: JsonBlockScanner,
    skipFinished: boolean,
  ): LevelState | undefined {
    const known = this.#levels[depth];
    const fresh = () => (bracket.char === '[' ? [] : {});
    const level: LevelState =
      known?.start === bracket.start
        ? skipFinished
          ? { ...known, items: fresh() }
          : known
        : { start: bracket.start, from: bracket.start + 1, items: fresh() };
    if (bracket.itemStart <= level.from) return level;
    // Everything up to the comma before the item in progress is finished: parse it once.
    const finished = scanner.textFrom(level.from).slice(0, bracket.itemStart - 1 - level.from);
    const close = bracket.char === '[' ? ']' : '}';
    const parsed = parseCounted(`${bracket.char}${finished}${close}`, scanner.meter);
    if (Array.isArray(level.items) && Array.isArray(parsed)) level.items.push(...parsed);
    else if (!Array.isArray(level.items) && isRecord(parsed) && !Array.isArray(parsed)) {
      for (const key of Object.keys(parsed)) setOwn(level.items, key, parsed[key]);
    } else return undefined;
    level.from = bracket.itemStart;
    return level;
  }
}

/**
 * The level's finished items with the parsed item in progress (an array of it, or an object of
 * its key) after them; undefined when neither has anything, as the text then parses to nothing
 * at this level and the level above drops its own item in progress.
 */
function withItem(level: LevelState, partial: unknown): unknown {
  if (Array.isArray(level.items)) {
    const extra = Array.isArray(partial) ? partial : [];
    if (partial === undefined && level.items.length === 0) return undefined;
    return [...level.items, ...extra];
  }
  const extra = isRecord(partial) && !Array.isArray(partial) ? partial : {};
  if (partial === undefined && Object.keys(level.items).length === 0) return undefined;
  const value: Record<string, unknown> = { ...level.items };
  for (const key of Object.keys(extra)) setOwn(value, key, extra[key]);
  return value;
}
