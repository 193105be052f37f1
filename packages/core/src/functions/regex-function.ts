/**
 * The basic catalog's `regex` check (digest §8.2) with bounded cost: RE2 matching (linear in the
 * input), a screened pattern (its length and the size of the program it compiles to), and a cache
 * of compiled patterns bounded by bytes. A pattern an agent sends must not freeze the page
 * (ARCHITECTURE §5): without the screen, 1,000 characters of `a{999}` take about half a second and
 * 12 MB to compile, and a first match of `[a-z]{999}` repeated ten times about two seconds.
 */
import type { RE2JS } from 're2js';
import type { A2uiError } from '../errors/a2ui-error.js';
import { LazyModule } from '../validation/lazy-module.js';
import { argumentError, requiredString, textArgument } from './function-arguments.js';
import type { FunctionImplementation } from './function-types.js';

/**
 * RE2 (`re2js`, about 150 kB minified) loads on the first `regex` call: a page whose surfaces
 * never call it never downloads it. Until it has loaded, a call evaluates to nothing and its
 * bindings evaluate again once it has. Node gets it statically through `@a2ui-ts/core`.
 */
export const regexEngineModule: LazyModule<typeof import('re2js')> = /* @__PURE__ */ new LazyModule(
  'RE2 regex engine',
  () => import('re2js'),
);

/** Limits of the `regex` function; see {@link createRegexFunction}. */
export interface RegexLimits {
  /**
   * Longest `value` in UTF-16 code units; a longer value does not match (`false`). Matching is
   * linear-time (RE2), so this only bounds the work one keystroke can cost.
   * @default 10000
   */
  maxRegexInputLength?: number;
  /** Longest `pattern` in UTF-16 code units; a longer one is an `EXPRESSION_ERROR`. @default 1000 */
  maxRegexPatternLength?: number;
  /**
   * Largest program a pattern may compile to, in RE2 instructions (RE2's "program size": one per
   * literal character or class, counted repetition multiplying its operand). It is estimated from
   * the pattern before compiling, so an oversized one costs nothing. The first match builds RE2's
   * DFA, whose cost grows with this size: at 1,000 instructions, compiling and a first match on
   * 10,000 characters take under 100 ms and about 1 MB; at 10,000, about 2 s and 8 MB.
   * @default 1000
   */
  maxRegexProgramSize?: number;
  /**
   * Memory the cache of compiled patterns may hold, in bytes (estimated from each program's size,
   * including the DFA a match builds); the least recently used patterns are dropped first.
   * @default 4194304 (4 MiB)
   */
  maxRegexCacheBytes?: number;
}

/** Defaults of {@link RegexLimits}. */
export const DEFAULT_REGEX_LIMITS: Required<RegexLimits> = {
  maxRegexInputLength: 10_000,
  maxRegexPatternLength: 1000,
  maxRegexProgramSize: 1000,
  maxRegexCacheBytes: 4 * 1024 * 1024,
};

/** Estimated heap bytes per RE2 instruction of a compiled pattern (measured with re2js 2.10). */
const BYTES_PER_INSTRUCTION = 100;
/** Fixed heap cost of one cache entry (the pattern object, its matchers, the map entry). */
const BYTES_PER_ENTRY = 2048;
/** re2js caps the DFA of one pattern at 8 MiB; it grows about as the program size squared. */
const MAX_DFA_BYTES = 8 * 1024 * 1024;

/** Estimated heap bytes a cached pattern holds once it has matched. */
function cachedBytes(pattern: string, instructions: number): number {
  const dfa = Math.min(MAX_DFA_BYTES, instructions * instructions);
  return BYTES_PER_ENTRY + 2 * pattern.length + BYTES_PER_INSTRUCTION * instructions + dfa;
}

/** `\k<` preceded by an even number of backslashes (so not itself escaped). */
const NAMED_BACKREFERENCE = /(?:^|[^\\])(?:\\\\)*\\k</;

/**
 * An upper estimate of the RE2 program size `pattern` compiles to, from its text alone (the
 * measure RE2 itself limits: literals and classes count 1, a group its contents, `{n,m}` `m` times
 * its operand). It does not validate the pattern; RE2 does that when it compiles.
 *
 * @param pattern - a regular expression in RE2 or JavaScript syntax
 * @returns the estimated number of instructions
 *
 * @example
 * ```ts
 * estimateRegexProgramSize('^[0-9]{5}$'); // 7
 * estimateRegexProgramSize('(?:ab){1000}'); // 2000
 * ```
 */
export function estimateRegexProgramSize(pattern: string): number {
  /** Per open group: the finished alternatives' size, the current alternative's, its last atom. */
  const groups: Array<{ done: number; alternatives: number; sum: number; last: number }> = [];
  let group = { done: 0, alternatives: 0, sum: 0, last: 0 };
  const atom = (size: number): void => {
    group.sum += size;
    group.last = size;
  };
  /** Replaces the last atom's size by `size` (a quantifier applied to it). */
  const quantify = (size: number): void => {
    group.sum += size - group.last;
    group.last = size;
  };
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === '\\') {
      index += 2;
      atom(1);
    } else if (char === '[') {
      index = skipClass(pattern, index);
      atom(1);
    } else if (char === '(') {
      groups.push(group);
      group = { done: 0, alternatives: 0, sum: 0, last: 0 };
      index++;
    } else if (char === ')') {
      const size = groupSize(group);
      group = groups.pop() ?? group;
      atom(size);
      index++;
    } else if (char === '|') {
      group.done += group.sum;
      group.alternatives++;
      group.sum = 0;
      group.last = 0;
      index++;
    } else if (char === '*' || char === '+' || char === '?') {
      quantify(group.last + 2);
      index++;
    } else if (char === '{') {
      const repeat = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index, index + 24));
      if (repeat) {
        const min = Number(repeat[1]);
        const max = repeat[2] === undefined ? min : repeat[3] === '' ? min + 1 : Number(repeat[3]);
        quantify(Math.max(1, group.last * Math.max(min, max, 1) + Math.max(0, max - min)));
        index += repeat[0].length;
      } else {
        atom(1);
        index++;
      }
    } else {
      atom(1);
      index++;
    }
  }
  while (groups.length > 0) {
    const size = groupSize(group);
    group = groups.pop()!;
    atom(size);
  }
  return groupSize(group) + 2;
}

function groupSize(group: { done: number; alternatives: number; sum: number }): number {
  return group.done + group.sum + group.alternatives;
}

/** Index just past the character class that starts at `start` (`[`), or the end of the pattern. */
function skipClass(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '^') index++;
  if (pattern[index] === ']') index++;
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === '\\') index += 2;
    else if (char === '[' && pattern[index + 1] === ':') {
      const close = pattern.indexOf(':]', index + 2);
      index = close === -1 ? index + 1 : close + 2;
    } else if (char === ']') return index + 1;
    else index++;
  }
  return index;
}

function patternError(message: string, pattern: string, cause?: unknown): A2uiError {
  return argumentError('regex', 'pattern', message, {
    data: { pattern: pattern.slice(0, 200) },
    cause,
  });
}

/** A compiled pattern, or why it cannot compile (remembered too: a bad pattern is checked once). */
type Compiled = { ok: true; regex: RE2JS } | { ok: false; error: A2uiError };

/** Compiled patterns by source, least recently used first, within a byte budget. */
class PatternCache {
  readonly #entries = new Map<string, { compiled: Compiled; bytes: number }>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(pattern: string): Compiled | undefined {
    const entry = this.#entries.get(pattern);
    if (!entry) return undefined;
    // Refresh its position: a Map iterates in insertion order.
    this.#entries.delete(pattern);
    this.#entries.set(pattern, entry);
    return entry.compiled;
  }

  set(pattern: string, compiled: Compiled, bytes: number): void {
    if (bytes > this.#maxBytes) return;
    this.#entries.set(pattern, { compiled, bytes });
    this.#bytes += bytes;
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(key);
      this.#bytes -= entry.bytes;
    }
  }
}

/**
 * The `regex` function of the basic catalog: `{call: "regex", args: {value, pattern}}` is true when
 * `pattern` matches anywhere in `value` (like `RegExp#test`; anchors only when the pattern has
 * them). RE2 syntax — linear time, no backreferences or lookaround — with JavaScript spellings
 * translated (`\u00e9`, `(?<name>…)`), since agents write patterns for `new RegExp`.
 *
 * @param limits - see {@link RegexLimits}
 * @returns the implementation, with its own cache
 * @throws A2uiError `EXPRESSION_ERROR` from `execute`: `pattern` missing or not a string, longer
 *   than `maxRegexPatternLength`, estimated above `maxRegexProgramSize`, invalid, or using syntax
 *   RE2 does not support; `value` an object or array
 *
 * @example
 * ```ts
 * const regex = createRegexFunction({ maxRegexPatternLength: 200 });
 * ```
 */
export function createRegexFunction(limits: RegexLimits = {}): FunctionImplementation {
  const options: Required<RegexLimits> = {
    maxRegexInputLength: limits.maxRegexInputLength ?? DEFAULT_REGEX_LIMITS.maxRegexInputLength,
    maxRegexPatternLength:
      limits.maxRegexPatternLength ?? DEFAULT_REGEX_LIMITS.maxRegexPatternLength,
    maxRegexProgramSize: limits.maxRegexProgramSize ?? DEFAULT_REGEX_LIMITS.maxRegexProgramSize,
    maxRegexCacheBytes: limits.maxRegexCacheBytes ?? DEFAULT_REGEX_LIMITS.maxRegexCacheBytes,
  };
  const cache = new PatternCache(options.maxRegexCacheBytes);

  const compile = (pattern: string, engine: typeof RE2JS): Compiled => {
    if (pattern.length > options.maxRegexPatternLength) {
      return {
        ok: false,
        error: patternError(
          `is ${pattern.length} characters long, more than ${options.maxRegexPatternLength} (maxRegexPatternLength)`,
          pattern,
        ),
      };
    }
    const estimate = estimateRegexProgramSize(pattern);
    if (estimate > options.maxRegexProgramSize) {
      return {
        ok: false,
        error: patternError(
          `would compile to about ${estimate} instructions, more than ${options.maxRegexProgramSize} (maxRegexProgramSize); use smaller repetition counts, or the length function for a length limit`,
          pattern,
        ),
      };
    }
    // translateRegExp reads a named backreference `\k<name>` as the letter k; refuse it instead of
    // silently matching something else.
    if (NAMED_BACKREFERENCE.test(pattern)) {
      return {
        ok: false,
        error: patternError(
          'uses a named backreference (\\k<name>), which RE2 does not support',
          pattern,
        ),
      };
    }
    try {
      return { ok: true, regex: engine.compile(engine.translateRegExp(pattern)) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: patternError(
          `is invalid or uses syntax RE2 does not support (backreferences, lookaround): ${reason}`,
          pattern,
          error,
        ),
      };
    }
  };

  const lookup = (pattern: string): RE2JS => {
    let compiled = cache.get(pattern);
    if (!compiled) {
      // Throws MODULE_NOT_LOADED (and starts the load) on the first call in a browser.
      compiled = compile(pattern, regexEngineModule.get().RE2JS);
      const instructions = compiled.ok ? compiled.regex.programSize() : 0;
      cache.set(pattern, compiled, cachedBytes(pattern, instructions));
    }
    if (!compiled.ok) throw compiled.error;
    return compiled.regex;
  };

  return {
    name: 'regex',
    returnType: 'boolean',
    execute(args) {
      const regex = lookup(requiredString('regex', args, 'pattern'));
      const value = textArgument('regex', args, 'value');
      if (value.length > options.maxRegexInputLength) return false;
      return regex.test(value);
    },
  };
}
