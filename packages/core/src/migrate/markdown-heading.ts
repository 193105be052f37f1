/**
 * A Text heading across v0.9 and v1.0. v0.9 says "heading" with `variant: 'h1'`–`'h5'`; the v1.0
 * basic catalog removed those variants (evolution guide §2.2) and keeps Markdown in Text (basic
 * catalog implementation guide, "Text": rendered with a Markdown parser), so v1.0 says it with an
 * ATX heading line: `# Title`. Converting one into the other keeps the heading (and the page's
 * outline) instead of dropping it.
 */
import { type FormatStringExpression, parseFormatString } from '../functions/format-string.js';
import { isRecord } from '../protocol/guards.js';

/** The Markdown prefix of a heading of `level` (1–5): `'## '` for 2. */
function prefixOf(level: number): string {
  return `${'#'.repeat(level)} `;
}

const ATX_HEADING = /^(#{1,5}) (?=\S)([^\n]*)$/;

/**
 * `text` (a Text's DynamicString) as a v1.0 Markdown heading of `level`, or `undefined` when it
 * cannot be written as one (a value the `formatString` language cannot spell).
 *
 * - a literal `"Title"` → `"# Title"`;
 * - `formatString` of a literal → the same call, its literal prefixed;
 * - a binding or another call → `formatString("# ${…}")`: `{ path: "/name" }` gives
 *   `"# ${/name}"`, `formatDate` gives `"# ${formatDate(value: /date, format: 'd')}"`.
 */
export function toMarkdownHeading(text: unknown, level: number): unknown {
  const prefix = prefixOf(level);
  if (typeof text === 'string') return prefix + text;
  if (!isRecord(text)) return undefined;
  if (text.call === 'formatString' && isRecord(text.args) && typeof text.args.value === 'string')
    return { ...text, args: { ...text.args, value: prefix + text.args.value } };
  const expression = expressionOf(text, 0);
  return expression === undefined
    ? undefined
    : { call: 'formatString', args: { value: `${prefix}\${${expression}}` } };
}

const PATH = /^[\p{L}\p{N}/._~-]+$/u;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Deeper values are left as they are (reported), never walked further. */
const MAX_EXPRESSION_DEPTH = 8;

/** A DynamicValue in the `formatString` expression language, if it has a spelling there. */
function expressionOf(value: unknown, depth: number): string | undefined {
  if (depth > MAX_EXPRESSION_DEPTH) return undefined;
  if (typeof value === 'string')
    return `'${value.replace(/[\\']/g, (char) => `\\${char}`).replace(/\n/g, '\\n')}'`;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean' || value === null) return String(value);
  if (!isRecord(value)) return undefined;
  if (typeof value.path === 'string' && Object.keys(value).length === 1)
    return PATH.test(value.path) ? value.path : undefined;
  if (typeof value.call !== 'string' || !IDENTIFIER.test(value.call)) return undefined;
  if (Object.keys(value).some((key) => key !== 'call' && key !== 'args' && key !== 'returnType'))
    return undefined;
  const args = isRecord(value.args) ? Object.entries(value.args) : [];
  const spelled: string[] = [];
  for (const [name, argument] of args) {
    const expression = IDENTIFIER.test(name) ? expressionOf(argument, depth + 1) : undefined;
    if (expression === undefined) return undefined;
    spelled.push(`${name}: ${expression}`);
  }
  return `${value.call}(${spelled.join(', ')})`;
}

/**
 * The reverse of {@link toMarkdownHeading}: a v1.0 Text's `text` that is one ATX heading line (and
 * nothing else) as the v0.9 heading `variant` and the text without its `#`s; `undefined` for any
 * other text.
 */
export function fromMarkdownHeading(
  text: unknown,
): { variant: `h${1 | 2 | 3 | 4 | 5}`; text: unknown } | undefined {
  if (typeof text === 'string') {
    const match = ATX_HEADING.exec(text);
    return match ? { variant: variantOf(match[1]!), text: match[2] } : undefined;
  }
  if (!isRecord(text) || text.call !== 'formatString' || !isRecord(text.args)) return undefined;
  const value = text.args.value;
  const match = typeof value === 'string' ? ATX_HEADING.exec(value) : null;
  if (!match) return undefined;
  const rest = match[2]!;
  // `# ${…}` and nothing else is what a binding or a call became: give that value back.
  const single = singleInterpolation(rest);
  if (single !== undefined && Object.keys(text).length === 2 && Object.keys(text.args).length === 1)
    return { variant: variantOf(match[1]!), text: single };
  return { variant: variantOf(match[1]!), text: { ...text, args: { ...text.args, value: rest } } };
}

/** The DynamicValue of a template that is one `${…}` holding a path or a call, else undefined. */
function singleInterpolation(template: string): unknown {
  let parts: ReturnType<typeof parseFormatString>['parts'];
  try {
    parts = parseFormatString(template).parts;
  } catch {
    return undefined; // not a template core reads: left as text
  }
  const [only] = parts;
  if (parts.length !== 1 || only?.kind !== 'interpolation' || only.expression.kind === 'literal')
    return undefined;
  return dynamicValueOf(only.expression);
}

function dynamicValueOf(expression: FormatStringExpression): unknown {
  switch (expression.kind) {
    case 'literal':
      return expression.value;
    case 'path':
      return { path: expression.path };
    case 'call':
      return {
        call: expression.name,
        args: Object.fromEntries(
          expression.args.map((arg) => [arg.name, dynamicValueOf(arg.value)]),
        ),
      };
  }
}

function variantOf(hashes: string): `h${1 | 2 | 3 | 4 | 5}` {
  return `h${hashes.length as 1 | 2 | 3 | 4 | 5}`;
}
