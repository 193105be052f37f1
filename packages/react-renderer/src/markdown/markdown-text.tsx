/**
 * Text markdown (digest §9 Text: "simple Markdown, no HTML, images or links") rendered to React
 * elements by `react-markdown` — agent text never reaches `innerHTML`.
 */
import { memo, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';

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
   * (emphasis, code) with no block constructs; `block`: full markdown (several lines or a heading).
   */
  readonly mode: 'plain' | 'inline' | 'block';
  /** What to render (`inline` escapes a leading block marker). */
  readonly source: string;
}

/**
 * Decides how to render `text`. Several lines, or a heading line, are full markdown; a single
 * line is a label: a leading list/quote marker stays literal, and a line without any markdown
 * syntax skips the parser entirely, which keeps large lists of plain labels cheap.
 */
export function prepareMarkdown(text: string): PreparedMarkdown {
  if (text.includes('\n') || HEADING.test(text)) return { mode: 'block', source: text };
  if (!INLINE_SYNTAX.test(text)) return { mode: 'plain', source: text };
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

const childrenOnly = ({ children }: { children?: ReactNode }) => children ?? null;

/** Links and images are not part of Text's markdown: keep their words, drop the URL. */
const components: Components = {
  a: childrenOnly,
  img: ({ alt }) => alt ?? null,
};

/**
 * Inside a heading or another inline context, block wrappers keep only their content: agents
 * often write `"# Title"` with variant `h1`, which must not become an `<h1>` inside an `<h1>`.
 */
const inlineComponents: Components = {
  ...components,
  p: childrenOnly,
  h1: childrenOnly,
  h2: childrenOnly,
  h3: childrenOnly,
  h4: childrenOnly,
  h5: childrenOnly,
  h6: childrenOnly,
};

/** Markdown elements rendered as such; anything else (raw HTML is skipped) keeps only its text. */
const ALLOWED_ELEMENTS = [
  'p',
  'br',
  'strong',
  'em',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'img',
];

const NO_URL = (): string => '';

/** Props of {@link MarkdownText}. */
export interface MarkdownTextProps {
  /** Markdown source from the agent. */
  readonly text: string;
  /** Render paragraphs and headings as bare text (inside a heading element). */
  readonly inline?: boolean;
}

/**
 * Renders agent markdown safely: raw HTML skipped, links and images reduced to their text, no
 * URL ever rendered. See {@link prepareMarkdown} for how one-line labels are treated.
 */
export const MarkdownText = memo(function MarkdownText({
  text,
  inline = false,
}: MarkdownTextProps): ReactNode {
  const prepared = prepareMarkdown(text);
  if (prepared.mode === 'plain') return text;
  return (
    <Markdown
      skipHtml
      allowedElements={ALLOWED_ELEMENTS}
      unwrapDisallowed
      components={inline || prepared.mode === 'inline' ? inlineComponents : components}
      urlTransform={NO_URL}
    >
      {inline ? prepared.source.replace(HEADING, '') : prepared.source}
    </Markdown>
  );
});
