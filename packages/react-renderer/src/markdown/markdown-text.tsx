/**
 * Text markdown (digest §9 Text: "simple Markdown, no HTML, images or links"): bounded first
 * (see {@link prepareMarkdown}), then lexed by `marked` and rendered to React elements — agent
 * text never reaches `innerHTML`. `marked` loads on first need (`markdown-parser.ts`): plain
 * labels never need it.
 */
import { memo, type ReactNode, useContext } from 'react';
import { ClientContext, SurfaceContext } from '../provider/renderer-context.js';
import { useMinHeadingLevel } from '../renderer/heading-level.js';
import { renderMarkdown } from './markdown-elements.js';
import { type MarkdownParserState, useMarkdownParser } from './markdown-parser.js';

/** Default of the `maxMarkdownLength` option, in characters (UTF-16 code units). */
export const DEFAULT_MAX_MARKDOWN_LENGTH = 10_000;

/** Default of the `maxMarkdownNesting` option, in levels. */
export const DEFAULT_MAX_MARKDOWN_NESTING = 20;

/**
 * Most emphasis delimiters (`*`, `_`) in one text parsed as markdown. Resolving emphasis is
 * quadratic in their number (`'_a*'` repeated 3,333 times takes ~0.6 s); 1,000 take ~40 ms.
 */
export const MAX_MARKDOWN_DELIMITERS = 1000;

/** Caps above which text is shown literally instead of parsed (see {@link prepareMarkdown}). */
export interface MarkdownLimits {
  /** Longest text parsed, in UTF-16 code units. */
  readonly maxLength: number;
  /** Deepest nesting parsed, in levels (see {@link markdownNesting}). */
  readonly maxNesting: number;
}

const DEFAULT_LIMITS: MarkdownLimits = {
  maxLength: DEFAULT_MAX_MARKDOWN_LENGTH,
  maxNesting: DEFAULT_MAX_MARKDOWN_NESTING,
};

/** Characters that can start markdown syntax or an entity inside a single line. */
const INLINE_SYNTAX = /[*_`[\]!<>&\\~]/;

/** An ATX heading line (`# Title`). */
const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

/**
 * Block markers that would turn a one-line label into a list, quote or code block: agents write
 * `" - Qty: "` or `"1. Rinse the quinoa"` and mean the characters, not a list.
 */
const LEADING_BLOCK_MARKER = /^(\s*)(\d{1,9})?([-+*>.)])(?=\s|$)/;

/** How a Text's markdown is rendered. */
export interface PreparedMarkdown {
  /**
   * `plain`: the text is shown as is, without parsing; `inline`: one line of inline markdown
   * (emphasis, code) with no block constructs; `block`: full markdown (several lines or a heading);
   * `literal`: too long or too deeply nested to parse safely, shown character for character with
   * its line breaks.
   */
  readonly mode: 'plain' | 'inline' | 'block' | 'literal';
  /** What to render (`inline` escapes a leading block marker). */
  readonly source: string;
}

const SPACE = 32;
const TAB = 9;
const NEWLINE = 10;
const GREATER_THAN = 62;
const ASTERISK = 42;
const UNDERSCORE = 95;
const DASH = 45;
const PLUS = 43;
const DOT = 46;
const PAREN = 41;
const CARRIAGE_RETURN = 13;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** True when the character at `index` ends a line prefix marker (whitespace or end of line). */
function endsMarker(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return (
    Number.isNaN(code) ||
    code === SPACE ||
    code === TAB ||
    code === NEWLINE ||
    code === CARRIAGE_RETURN
  );
}

/**
 * Deepest block nesting of any line, as a cheap upper bound of what the parser would build: each
 * `>` and list marker (`-`, `+`, `*`, `1.`, `1)`) at the start of a line is one level, and so are
 * every two columns of leading indentation (a tab is four; the one space after a marker does not
 * count). Linear in the text's length.
 */
export function markdownNesting(text: string): number {
  let deepest = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    let levels = 0;
    let columns = 0;
    // One space or tab right after a marker separates it from what follows; it is not indentation.
    let separator = false;
    // The line's container prefix.
    for (;;) {
      const code = text.charCodeAt(index);
      if (code === SPACE || code === TAB) {
        if (!separator) columns += code === TAB ? 4 : 1;
        separator = false;
        index += 1;
      } else if (code === GREATER_THAN) {
        levels += 1;
        separator = true;
        index += 1;
      } else if (
        (code === DASH || code === PLUS || code === ASTERISK) &&
        endsMarker(text, index + 1)
      ) {
        levels += 1;
        separator = true;
        index += 1;
      } else if (isDigit(code)) {
        let end = index + 1;
        while (end < length && end - index < 10 && isDigit(text.charCodeAt(end))) end += 1;
        const after = text.charCodeAt(end);
        if ((after === DOT || after === PAREN) && endsMarker(text, end + 1)) {
          levels += 1;
          separator = true;
          index = end + 1;
        } else break;
      } else break;
    }
    const depth = levels + (columns >> 1);
    if (depth > deepest) deepest = depth;
    // The rest of the line.
    const next = text.indexOf('\n', index);
    if (next === -1) break;
    index = next + 1;
  }
  return deepest;
}

/** Number of emphasis delimiters (`*`, `_`) in `text`, counting at most up to `cap + 1`. */
function countDelimiters(text: string, cap: number): number {
  let count = 0;
  for (let index = 0; index < text.length && count <= cap; index++) {
    const code = text.charCodeAt(index);
    if (code === ASTERISK || code === UNDERSCORE) count += 1;
  }
  return count;
}

/**
 * Decides how to render `text`. Several lines, or a heading line, are full markdown; a single
 * line is a label: a leading list/quote marker stays literal, and a line without any markdown
 * syntax skips the parser entirely, which keeps large lists of plain labels cheap.
 *
 * Text longer than `limits.maxLength`, nested deeper than `limits.maxNesting` (see
 * {@link markdownNesting}) or with more than {@link MAX_MARKDOWN_DELIMITERS} `*`/`_` is `literal`:
 * markdown parsing is super-linear (or recursive) on such input, so it is shown unparsed.
 */
export function prepareMarkdown(
  text: string,
  limits: MarkdownLimits = DEFAULT_LIMITS,
): PreparedMarkdown {
  if (text.length > limits.maxLength) return { mode: 'literal', source: text };
  const block = text.includes('\n') || HEADING.test(text);
  if (!block && !INLINE_SYNTAX.test(text)) return { mode: 'plain', source: text };
  if (
    markdownNesting(text) > limits.maxNesting ||
    countDelimiters(text, MAX_MARKDOWN_DELIMITERS) > MAX_MARKDOWN_DELIMITERS
  ) {
    return { mode: 'literal', source: text };
  }
  if (block) return { mode: 'block', source: text };
  // Backslash-escape the marker's punctuation (`\\-`, `1\\.`): CommonMark then reads it literally.
  const source = text.replace(
    LEADING_BLOCK_MARKER,
    (match: string, space: string, digits: string | undefined, marker: string) =>
      digits === undefined && marker !== '-' && marker !== '+' && marker !== '*' && marker !== '>'
        ? match
        : `${space}${digits ?? ''}\\${marker}`,
  );
  // A line of spaces followed by text would be indented code; trimmed, it is the same label.
  return { mode: 'inline', source: source.trimStart() };
}

/** Props of {@link MarkdownText}. */
export interface MarkdownTextProps {
  /** Markdown source from the agent. */
  readonly text: string;
  /** Render paragraphs and headings as bare text (inside a heading element). */
  readonly inline?: boolean;
  /**
   * Longest text parsed as markdown, in characters; longer text is shown literally.
   * @default the renderer's `maxMarkdownLength` (10000)
   */
  readonly maxLength?: number;
  /**
   * Deepest nesting (`>` / list levels per line) parsed as markdown; deeper text is shown literally.
   * @default the renderer's `maxMarkdownNesting` (20)
   */
  readonly maxNesting?: number;
}

/** The markdown caps of the enclosing renderer, or the defaults outside one. */
export function useMarkdownLimits(): MarkdownLimits {
  const runtime = useContext(SurfaceContext);
  const client = useContext(ClientContext);
  const options = runtime?.options ?? client?.options;
  if (!options) return DEFAULT_LIMITS;
  const { maxMarkdownLength, maxMarkdownNesting } = options;
  return maxMarkdownLength === DEFAULT_LIMITS.maxLength &&
    maxMarkdownNesting === DEFAULT_LIMITS.maxNesting
    ? DEFAULT_LIMITS
    : { maxLength: maxMarkdownLength, maxNesting: maxMarkdownNesting };
}

/**
 * Renders agent markdown safely: raw HTML skipped, links and images reduced to their text, no
 * URL ever rendered. See {@link prepareMarkdown} for how one-line labels are treated, and for the
 * caps above which text is shown literally instead of parsed.
 */
export const MarkdownText = memo(function MarkdownText({
  text,
  inline = false,
  maxLength,
  maxNesting,
}: MarkdownTextProps): ReactNode {
  const limits = useMarkdownLimits();
  const minHeadingLevel = useMinHeadingLevel();
  const prepared = prepareMarkdown(
    text,
    maxLength === undefined && maxNesting === undefined
      ? limits
      : {
          maxLength: maxLength ?? limits.maxLength,
          maxNesting: maxNesting ?? limits.maxNesting,
        },
  );
  const parser = useMarkdownParser(needsParser(prepared));
  return markdownContent(text, prepared, inline, minHeadingLevel, parser);
});

/** True when `prepared` is rendered by the markdown parser (`inline` and `block`). */
export function needsParser(prepared: PreparedMarkdown): boolean {
  return prepared.mode === 'inline' || prepared.mode === 'block';
}

/**
 * What {@link MarkdownText} renders for `text` once prepared: the text itself (plain), its exact
 * characters (literal), or the markdown's elements, headings shifted by `minHeadingLevel` (the
 * renderer option, default 1). For renderers that prepared the text already.
 *
 * Markdown that meets the parser still loading (`parser` from `useMarkdownParser`) holds its
 * place: the text, line breaks kept, laid out but invisible (`a2ui-markdown-pending`, hidden from
 * assistive technology too), so the surface does not jump when the markdown replaces it and the
 * raw syntax (`**`, `#`) never shows. A parser that failed to load shows the text literally.
 */
export function markdownContent(
  text: string,
  prepared: PreparedMarkdown,
  inline: boolean,
  minHeadingLevel = 1,
  parser: MarkdownParserState = 'ready',
): ReactNode {
  if (prepared.mode === 'plain') return text;
  // Exactly the characters, line breaks kept (`white-space: pre-wrap`), no markup.
  if (prepared.mode === 'literal' || parser === 'failed')
    return <span className="a2ui-markdown-literal">{text}</span>;
  if (parser === 'loading') return <span className="a2ui-markdown-pending">{text}</span>;
  return renderMarkdown(
    inline ? prepared.source.replace(HEADING, '') : prepared.source,
    inline || prepared.mode === 'inline',
    minHeadingLevel,
  );
}
