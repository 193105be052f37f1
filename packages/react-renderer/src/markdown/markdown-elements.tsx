/**
 * Markdown tokens (from `marked`'s lexer) to React elements. Only the constructs Text allows
 * (digest §9: "simple Markdown, no HTML, images or links") become elements; raw HTML is skipped,
 * a link keeps its words and an image its alternative text, and no URL is ever rendered. Every
 * piece of agent text reaches the DOM as a text node.
 */
import type { Token, Tokens } from 'marked';
import { Fragment, type ReactNode } from 'react';
import { headingTag } from '../renderer/heading-level.js';
import { markdownParserModule } from './markdown-parser.js';

/**
 * CommonMark without extensions (no tables, strikethrough or autolinks), like the reference
 * renderers' markdown; line breaks inside a paragraph need two spaces or a backslash.
 */
const LEXER_OPTIONS = { gfm: false, breaks: false, pedantic: false } as const;

/**
 * Named character references decoded in text (numeric ones, `&#65;` and `&#x41;`, are decoded by
 * the lexer). The common ones of HTML5; any other name is shown as written.
 */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  harr: '↔',
  check: '✓',
  star: '☆',
  hearts: '♥',
};

const ENTITY = /&([A-Za-z][A-Za-z0-9]{1,31});/g;

/** `&amp;` → `&`; unknown names stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, name: string) => NAMED_ENTITIES[name] ?? whole);
}

/** What the tokens say as plain text (an image's alternative text, for instance). */
function plainText(tokens: readonly Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    if (token.type === 'html') continue;
    if ('tokens' in token && token.tokens && token.tokens.length > 0)
      out += plainText(token.tokens);
    else if (token.type === 'text') out += decodeEntities(token.text);
    else if ('text' in token && typeof token.text === 'string') out += token.text;
  }
  return out;
}

function inlineElements(tokens: readonly Token[] | undefined): ReactNode[] {
  const out: ReactNode[] = [];
  for (const token of tokens ?? []) {
    // Elements are keyed by their place: a text's tokens have no identity of their own.
    const index = out.length;
    switch (token.type) {
      case 'text': {
        const text = token as Tokens.Text;
        out.push(
          text.tokens && text.tokens.length > 0 ? (
            <Fragment key={index}>{inlineElements(text.tokens)}</Fragment>
          ) : (
            decodeEntities(text.text)
          ),
        );
        continue;
      }
      case 'escape':
        out.push((token as Tokens.Escape).text);
        continue;
      case 'strong':
        out.push(<strong key={index}>{inlineElements((token as Tokens.Strong).tokens)}</strong>);
        continue;
      case 'em':
        out.push(<em key={index}>{inlineElements((token as Tokens.Em).tokens)}</em>);
        continue;
      case 'codespan':
        out.push(<code key={index}>{(token as Tokens.Codespan).text}</code>);
        continue;
      case 'br':
        out.push(<br key={index} />);
        continue;
      case 'link':
        // Its words, not its URL.
        out.push(<Fragment key={index}>{inlineElements((token as Tokens.Link).tokens)}</Fragment>);
        continue;
      case 'image':
        out.push(plainText((token as Tokens.Image).tokens) || (token as Tokens.Image).text);
        continue;
      case 'html':
        // Raw HTML is skipped, never rendered, not even as text.
        continue;
      default:
        // Anything else (an extension the options leave off) keeps its words.
        out.push(plainText('tokens' in token ? token.tokens : undefined) || token.raw);
    }
  }
  return out;
}

/**
 * Block tokens as elements. `inline`: paragraphs and headings keep only their content (a Text of
 * variant `h1` whose text is `# Title` must not nest an `<h1>` in an `<h1>`). Headings are shifted
 * by `minHeadingLevel` (see `headingTag`).
 */
function blockElements(
  tokens: readonly Token[],
  inline: boolean,
  minHeadingLevel: number,
): ReactNode[] {
  const out: ReactNode[] = [];
  for (const token of tokens) {
    const index = out.length;
    switch (token.type) {
      case 'space':
      case 'def':
      case 'html':
        continue;
      case 'paragraph': {
        const children = inlineElements((token as Tokens.Paragraph).tokens);
        out.push(
          inline ? <Fragment key={index}>{children}</Fragment> : <p key={index}>{children}</p>,
        );
        continue;
      }
      case 'heading': {
        const heading = token as Tokens.Heading;
        const children = inlineElements(heading.tokens);
        const Tag = headingTag(heading.depth, minHeadingLevel);
        // The class keeps the look of the `#` count when minHeadingLevel changes the element.
        out.push(
          inline ? (
            <Fragment key={index}>{children}</Fragment>
          ) : (
            <Tag key={index} className={`a2ui-markdown-h${Math.min(6, heading.depth)}`}>
              {children}
            </Tag>
          ),
        );
        continue;
      }
      case 'text': {
        // A tight list item's text: inline content without a paragraph.
        const text = token as Tokens.Text;
        out.push(
          <Fragment key={index}>
            {text.tokens ? inlineElements(text.tokens) : decodeEntities(text.text)}
          </Fragment>,
        );
        continue;
      }
      case 'code':
        // As CommonMark renders it: the code's lines, each ending in a line break.
        out.push(
          <pre key={index}>
            <code>{`${(token as Tokens.Code).text}\n`}</code>
          </pre>,
        );
        continue;
      case 'blockquote':
        out.push(
          <blockquote key={index}>
            {blockElements((token as Tokens.Blockquote).tokens, inline, minHeadingLevel)}
          </blockquote>,
        );
        continue;
      case 'list': {
        const list = token as Tokens.List;
        const items: ReactNode[] = [];
        for (const item of list.items)
          items.push(
            <li key={items.length}>{blockElements(item.tokens, inline, minHeadingLevel)}</li>,
          );
        out.push(
          list.ordered ? (
            <ol
              key={index}
              start={typeof list.start === 'number' && list.start !== 1 ? list.start : undefined}
            >
              {items}
            </ol>
          ) : (
            <ul key={index}>{items}</ul>
          ),
        );
        continue;
      }
      case 'hr':
        out.push(<hr key={index} />);
        continue;
      default:
        out.push(
          <Fragment key={index}>
            {plainText('tokens' in token ? token.tokens : undefined) || token.raw}
          </Fragment>,
        );
    }
  }
  return out;
}

/**
 * Parses `source` as CommonMark and renders it as React elements (see the module comment for
 * what is kept). The caller bounds the source first: see `prepareMarkdown`.
 *
 * @throws ModuleNotLoadedError `MODULE_NOT_LOADED` before the parser has loaded (see
 *   `useMarkdownParser`, which components call first)
 * @param inline - paragraphs and headings render as their bare content
 * @param minHeadingLevel - the renderer option: `#` renders as `h<minHeadingLevel>` (default 1)
 */
export function renderMarkdown(source: string, inline: boolean, minHeadingLevel = 1): ReactNode {
  const { Lexer } = markdownParserModule.get();
  return blockElements(Lexer.lex(source, LEXER_OPTIONS), inline, minHeadingLevel);
}
