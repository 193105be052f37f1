/**
 * The `formatString` expression language (digest §8.3): a template of literal text and `${…}`
 * interpolations, each holding one expression — a data path, a literal, a function call with named
 * arguments, or another `${…}`.
 *
 * Grammar (whitespace is allowed between tokens inside `${…}`):
 * ```text
 * template   := ( text | "\${" | "${" expression? "}" )*
 * expression := "${" expression "}" | string | number | "true" | "false" | "null" | call | path
 * call       := identifier "(" ( argument ( "," argument )* ","? )? ")"
 * argument   := identifier ":" expression
 * identifier := [A-Za-z_][A-Za-z0-9_]*   (a call's name may also be a system function: `@index`)
 * path       := a run of letters, digits, "/", ".", "_", "~", "-"  (absolute if it starts with "/")
 * number     := "-"? digits ( "." digits? )?
 * string     := '…' | "…"  with escapes \n \t \r \\ \' \" (any other escaped character is itself)
 * ```
 * `\${` in text is a literal `${`; every other backslash in text is literal. An empty `${}` is
 * an empty string, as in `@a2ui/web_core`. Beyond `@a2ui/web_core`'s grammar this parser accepts
 * negative numbers and Unicode letters and `~` (RFC 6901 escapes) in paths, and it rejects what
 * web_core silently tolerates: missing commas between arguments, duplicate argument names and
 * function names that are not identifiers.
 */

import { toDisplayString } from '../binding/coercion.js';
import { isSystemFunction } from '../binding/system-functions.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { FunctionContext } from './function-types.js';

/** Default of {@link FormatStringOptions.maxDepth}. */
export const DEFAULT_FORMAT_STRING_MAX_DEPTH = 10;

/** Parsed templates kept by {@link parseFormatString}; the oldest entry is evicted first. */
const CACHE_MAX_ENTRIES = 500;

/**
 * Longer templates are parsed on every call instead of cached, so the cache holds at most
 * `CACHE_MAX_ENTRIES × CACHE_MAX_TEMPLATE_LENGTH` characters of source.
 */
const CACHE_MAX_TEMPLATE_LENGTH = 10_000;

/** Options of {@link parseFormatString} and {@link formatString}. */
export interface FormatStringOptions {
  /**
   * Deepest allowed nesting. Each `${…}` and each function call's argument list adds one level,
   * so `${f(a: ${/x})}` reaches 3. Deeper templates are rejected with `EXPRESSION_ERROR`; this
   * bounds both the parser's and the evaluator's recursion.
   * @default 10
   */
  maxDepth?: number;
  /**
   * Longest result, in UTF-16 code units. A short template interpolating one large value many
   * times would otherwise build a string of hundreds of megabytes; past this it is refused with
   * `LIMIT_EXCEEDED`.
   * @default 1048576
   */
  maxOutputLength?: number;
}

/** Default of {@link FormatStringOptions.maxOutputLength}: as long as the largest message. */
export const DEFAULT_FORMAT_STRING_MAX_OUTPUT_LENGTH = 1_048_576;

/** A literal in an expression: `'text'`, `"text"`, `42`, `-1.5`, `true`, `false`, `null`. */
export interface FormatStringLiteral {
  readonly kind: 'literal';
  readonly value: string | number | boolean | null;
  /** Offset of the literal's first character in the template (0-based, UTF-16 code units). */
  readonly offset: number;
}

/** A data path, absolute (`/user/name`) or relative to the caller's scope (`name`). */
export interface FormatStringPath {
  readonly kind: 'path';
  readonly path: string;
  /** Offset of the path's first character in the template (0-based, UTF-16 code units). */
  readonly offset: number;
}

/** A named argument of a {@link FormatStringCall}. */
export interface FormatStringArgument {
  readonly name: string;
  readonly value: FormatStringExpression;
}

/** A catalog function call with named arguments: `formatDate(value: ${/now}, format: 'yyyy')`. */
export interface FormatStringCall {
  readonly kind: 'call';
  readonly name: string;
  /** In source order; names are unique. */
  readonly args: readonly FormatStringArgument[];
  /** Offset of the function name in the template (0-based, UTF-16 code units). */
  readonly offset: number;
}

/**
 * One expression. A nested `${…}` inside an expression is transparent: it parses to the
 * expression it contains, whose value is passed on uncoerced (a number stays a number).
 */
export type FormatStringExpression = FormatStringLiteral | FormatStringPath | FormatStringCall;

/** A run of literal text, with `\${` already unescaped to `${`. */
export interface FormatStringText {
  readonly kind: 'text';
  readonly value: string;
}

/** A top-level `${…}`; its value is coerced with `toDisplayString` (digest §7.5). */
export interface FormatStringInterpolation {
  readonly kind: 'interpolation';
  readonly expression: FormatStringExpression;
  /** Offset of the `${` in the template (0-based, UTF-16 code units). */
  readonly offset: number;
}

/** A parsed template: what {@link parseFormatString} returns and {@link evaluateFormatString} runs. */
export interface FormatStringTemplate {
  readonly source: string;
  /** Text and interpolations in source order; adjacent text runs are merged, empty ones dropped. */
  readonly parts: readonly (FormatStringText | FormatStringInterpolation)[];
}

type TokenKind =
  | 'interpolationStart'
  | 'rightBrace'
  | 'leftParen'
  | 'rightParen'
  | 'colon'
  | 'comma'
  | 'string'
  | 'number'
  | 'word'
  | 'end';

interface Token {
  readonly kind: TokenKind;
  /** Raw source text of the token (for `string`, including its quotes). */
  readonly text: string;
  /** Decoded value of `string` and `number` tokens. */
  readonly value: string | number | undefined;
  readonly start: number;
  readonly end: number;
}

const PUNCTUATION: Readonly<Record<string, TokenKind>> = {
  '}': 'rightBrace',
  '(': 'leftParen',
  ')': 'rightParen',
  ':': 'colon',
  ',': 'comma',
};

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r' };

const WORD_CHARACTER = /[\p{L}\p{M}\p{N}_/.~-]/u;
const DIGIT = /[0-9]/;
const NUMBER_LITERAL = /^-?\d+\.?\d*$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const WHITESPACE = /\s/;

function parseError(message: string, template: string, offset: number): A2uiError {
  return new A2uiError('EXPRESSION_ERROR', `formatString: ${message} at offset ${offset}.`, {
    data: { template, offset },
  });
}

/** Describes a token for an error message: `'}'`, `end of template`. */
function describe(token: Token): string {
  return token.kind === 'end' ? 'end of template' : `'${token.text}'`;
}

/**
 * Splits the inside of `${…}` into tokens on demand. The template's literal text is scanned by
 * the parser itself, because text and expressions have different lexical rules; the parser only
 * hands control back to text scanning right after consuming a `}`, when no token is buffered.
 */
class Lexer {
  private lookahead: Token | undefined;

  constructor(
    private readonly source: string,
    public position: number,
  ) {}

  peek(): Token {
    this.lookahead ??= this.scan();
    return this.lookahead;
  }

  next(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    this.position = token.end;
    return token;
  }

  private scan(): Token {
    const source = this.source;
    let start = this.position;
    while (start < source.length && WHITESPACE.test(source[start]!)) start++;
    if (start >= source.length) return this.token('end', start, start);
    const char = source[start]!;
    if (char === '$' && source[start + 1] === '{')
      return this.token('interpolationStart', start, start + 2);
    const punctuation = PUNCTUATION[char];
    if (punctuation !== undefined) return this.token(punctuation, start, start + 1);
    if (char === "'" || char === '"') return this.scanString(start);
    if (DIGIT.test(char) || (char === '-' && DIGIT.test(source[start + 1] ?? ''))) {
      return this.scanNumber(start);
    }
    // `@` starts a v1.0 system function name (`${@index(offset: 1)}`), never a path.
    if (
      WORD_CHARACTER.test(char) ||
      (char === '@' && WORD_CHARACTER.test(source[start + 1] ?? ''))
    ) {
      let end = start + 1;
      while (end < source.length && WORD_CHARACTER.test(source[end]!)) end++;
      return this.token('word', start, end);
    }
    throw parseError(`Unexpected character '${char}'`, source, start);
  }

  private scanString(start: number): Token {
    const source = this.source;
    const quote = source[start]!;
    let value = '';
    let index = start + 1;
    while (index < source.length) {
      const char = source[index]!;
      if (char === quote) return this.token('string', start, index + 1, value);
      if (char === '\\') {
        const escaped = source[index + 1];
        if (escaped === undefined) break;
        value += ESCAPES[escaped] ?? escaped;
        index += 2;
      } else {
        value += char;
        index += 1;
      }
    }
    throw parseError(`Unterminated string literal (missing closing ${quote})`, source, start);
  }

  private scanNumber(start: number): Token {
    const source = this.source;
    let end = start + 1;
    while (end < source.length && (DIGIT.test(source[end]!) || source[end] === '.')) end++;
    const text = source.slice(start, end);
    // Spelled out instead of trusting Number(): `1.2.3` must fail here, identically everywhere.
    if (!NUMBER_LITERAL.test(text))
      throw parseError(`Invalid number literal '${text}'`, source, start);
    return this.token('number', start, end, Number(text));
  }

  private token(kind: TokenKind, start: number, end: number, value?: string | number): Token {
    return { kind, text: this.source.slice(start, end), value, start, end };
  }
}

class Parser {
  private readonly lexer: Lexer;
  /** Offsets of the `${` markers enclosing the current position, innermost last. */
  private readonly open: number[] = [];

  constructor(
    private readonly source: string,
    private readonly maxDepth: number,
  ) {
    this.lexer = new Lexer(source, 0);
  }

  parseTemplate(): FormatStringTemplate {
    const source = this.source;
    const parts: (FormatStringText | FormatStringInterpolation)[] = [];
    let text = '';
    let index = 0;
    while (index < source.length) {
      const start = source.indexOf('${', index);
      if (start === -1) {
        text += source.slice(index);
        break;
      }
      // `\${` is an escaped marker. `start > index` keeps a backslash consumed earlier (by a
      // previous escape) from escaping this marker too.
      if (start > index && source[start - 1] === '\\') {
        text += `${source.slice(index, start - 1)}\${`;
        index = start + 2;
        continue;
      }
      text += source.slice(index, start);
      this.lexer.position = start + 2;
      const expression = this.parseInterpolationBody(start, 1);
      index = this.lexer.position;
      if (expression === undefined) continue;
      if (text !== '') parts.push({ kind: 'text', value: text });
      text = '';
      parts.push({ kind: 'interpolation', expression, offset: start });
    }
    if (text !== '') parts.push({ kind: 'text', value: text });
    return { source, parts };
  }

  /**
   * Parses what follows a `${` up to and including its `}`. `undefined` stands for an empty
   * `${}`, which contributes nothing.
   */
  private parseInterpolationBody(
    offset: number,
    depth: number,
  ): FormatStringExpression | undefined {
    this.checkDepth(depth, offset);
    this.open.push(offset);
    if (this.lexer.peek().kind === 'rightBrace') {
      this.lexer.next();
      this.open.pop();
      return undefined;
    }
    const expression = this.parseExpression(depth);
    const closing = this.lexer.next();
    if (closing.kind !== 'rightBrace') {
      throw this.unexpected(
        closing,
        `Unexpected characters at end of expression: ${describe(closing)}`,
      );
    }
    this.open.pop();
    return expression;
  }

  private parseExpression(depth: number): FormatStringExpression {
    const token = this.lexer.next();
    switch (token.kind) {
      case 'interpolationStart': {
        const inner = this.parseInterpolationBody(token.start, depth + 1);
        return inner ?? { kind: 'literal', value: '', offset: token.start };
      }
      case 'string':
      case 'number':
        return { kind: 'literal', value: token.value!, offset: token.start };
      case 'word':
        return this.parseWord(token, depth);
      default:
        throw this.unexpected(token, `Expected an expression but found ${describe(token)}`);
    }
  }

  private parseWord(token: Token, depth: number): FormatStringExpression {
    if (this.lexer.peek().kind === 'leftParen') return this.parseCall(token, depth);
    if (token.text === 'true') return { kind: 'literal', value: true, offset: token.start };
    if (token.text === 'false') return { kind: 'literal', value: false, offset: token.start };
    if (token.text === 'null') return { kind: 'literal', value: null, offset: token.start };
    return { kind: 'path', path: token.text, offset: token.start };
  }

  private parseCall(nameToken: Token, depth: number): FormatStringCall {
    const name = nameToken.text;
    if (!IDENTIFIER.test(name) && !isSystemFunction(name)) {
      throw parseError(`Invalid function name '${name}'`, this.source, nameToken.start);
    }
    this.checkDepth(depth + 1, nameToken.start);
    this.lexer.next(); // "("
    const args: FormatStringArgument[] = [];
    const seen = new Set<string>();
    for (;;) {
      const token = this.lexer.next();
      if (token.kind === 'rightParen') break;
      if (token.kind !== 'word' || !IDENTIFIER.test(token.text)) {
        throw this.unexpected(
          token,
          `Expected an argument name or ')' in call to '${name}' but found ${describe(token)}`,
        );
      }
      const colon = this.lexer.next();
      if (colon.kind !== 'colon') {
        throw this.unexpected(
          colon,
          `Expected ':' after argument name '${token.text}' in call to '${name}' but found ${describe(colon)}`,
        );
      }
      if (seen.has(token.text)) {
        throw parseError(
          `Duplicate argument '${token.text}' in call to '${name}'`,
          this.source,
          token.start,
        );
      }
      seen.add(token.text);
      args.push({ name: token.text, value: this.parseExpression(depth + 1) });
      const separator = this.lexer.next();
      if (separator.kind === 'rightParen') break;
      if (separator.kind !== 'comma') {
        throw this.unexpected(
          separator,
          `Expected ',' or ')' after function arguments of '${name}' but found ${describe(separator)}`,
        );
      }
    }
    return { kind: 'call', name, args, offset: nameToken.start };
  }

  private checkDepth(depth: number, offset: number): void {
    if (depth > this.maxDepth) {
      throw parseError(
        `Expression nested deeper than the limit of ${this.maxDepth}`,
        this.source,
        offset,
      );
    }
  }

  /**
   * The error for `token` where something else was expected. Running out of input inside an
   * expression always means the same thing, so it is reported against the innermost open `${`.
   */
  private unexpected(token: Token, message: string): A2uiError {
    if (token.kind === 'end') {
      return parseError(
        "Unclosed interpolation: missing '}' for '${'",
        this.source,
        this.open.at(-1) ?? token.start,
      );
    }
    return parseError(message, this.source, token.start);
  }
}

const cache = new Map<string, FormatStringTemplate>();

function resolveMaxDepth(options: FormatStringOptions | undefined): number {
  const maxDepth = options?.maxDepth ?? DEFAULT_FORMAT_STRING_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) {
    throw new A2uiError(
      'EXPRESSION_ERROR',
      `formatString: maxDepth must be a positive integer, got ${maxDepth}.`,
    );
  }
  return maxDepth;
}

/**
 * Parses a `formatString` template into its parts (digest §8.3). Results are cached (up to 500
 * templates of at most 10,000 characters, least recently used evicted first), so calling this on
 * every render is cheap; the returned tree is shared and must not be mutated.
 *
 * @param template - the template, e.g. `"Hello ${/user/name}!"`
 * @param options - see {@link FormatStringOptions}
 * @returns the parsed template
 * @throws A2uiError `EXPRESSION_ERROR` on any syntax error or when nesting exceeds `maxDepth`;
 *   the message names the problem and its 0-based offset, `data` carries `{ template, offset }`.
 * @example
 * ```ts
 * parseFormatString('Total: ${formatCurrency(value: ${/total}, currency: "USD")}').parts.length; // 2
 * ```
 */
export function parseFormatString(
  template: string,
  options?: FormatStringOptions,
): FormatStringTemplate {
  const maxDepth = resolveMaxDepth(options);
  if (!template.includes('${'))
    return { source: template, parts: template === '' ? [] : [{ kind: 'text', value: template }] };
  const key = `${maxDepth}:${template}`;
  const cached = cache.get(key);
  if (cached !== undefined) {
    // Re-insert so that Map order doubles as recency order.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const parsed = new Parser(template, maxDepth).parseTemplate();
  if (template.length <= CACHE_MAX_TEMPLATE_LENGTH) {
    if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, parsed);
  }
  return parsed;
}

/**
 * Evaluates one expression: literals as they are, paths through `context.read` (so they become
 * dependencies), calls through `context.call` with their arguments evaluated first, in order.
 *
 * @throws whatever `context.read` or `context.call` throws (typically A2uiError `EXPRESSION_ERROR`
 *   for an unknown function or bad arguments)
 */
export function evaluateFormatStringExpression(
  expression: FormatStringExpression,
  context: FunctionContext,
): unknown {
  switch (expression.kind) {
    case 'literal':
      return expression.value;
    case 'path':
      return context.read(expression.path);
    case 'call': {
      // No prototype: an argument named `__proto__` or `constructor` stays an ordinary key.
      const args = Object.create(null) as Record<string, unknown>;
      for (const argument of expression.args) {
        args[argument.name] = evaluateFormatStringExpression(argument.value, context);
      }
      return context.call(expression.name, args);
    }
  }
}

/**
 * Evaluates a parsed template: each interpolation's value is coerced with `toDisplayString`
 * (digest §7.5: `null`/`undefined` → `""`, objects → JSON) and the parts are concatenated.
 *
 * @param template - a result of {@link parseFormatString}
 * @param context - data reads and function calls of the calling scope
 * @returns the interpolated string
 * @throws whatever `context.read` or `context.call` throws
 */
export function evaluateFormatString(
  template: FormatStringTemplate,
  context: FunctionContext,
  options: Pick<FormatStringOptions, 'maxOutputLength'> = {},
): string {
  const max = options.maxOutputLength ?? DEFAULT_FORMAT_STRING_MAX_OUTPUT_LENGTH;
  let out = '';
  for (const part of template.parts) {
    out +=
      part.kind === 'text'
        ? part.value
        : toDisplayString(evaluateFormatStringExpression(part.expression, context));
    if (out.length > max) {
      throw new A2uiError(
        'LIMIT_EXCEEDED',
        `formatString: the result is longer than ${max} characters (maxOutputLength).`,
      );
    }
  }
  return out;
}

/**
 * Parses (cached) and evaluates a `formatString` template (digest §8.3). A template without `${`
 * is returned unchanged without touching the context.
 *
 * @param template - e.g. `"${/user/name} has ${pluralize(value: ${/count}, one: 'item', other: 'items')}"`
 * @param context - data reads (absolute or relative to the caller's scope) and catalog calls
 * @param options - see {@link FormatStringOptions}
 * @returns the interpolated string
 * @throws A2uiError `EXPRESSION_ERROR` on a syntax error, too deep nesting, or a failing call
 * @example
 * ```ts
 * const context: FunctionContext = {
 *   locale: 'en-US',
 *   read: (path) => (path === '/name' ? 'Ada' : undefined),
 *   call: () => undefined,
 *   openUrl: undefined,
 * };
 * formatString('Hello ${/name}!', context); // 'Hello Ada!'
 * ```
 */
export function formatString(
  template: string,
  context: FunctionContext,
  options?: FormatStringOptions,
): string {
  if (!template.includes('${')) return template;
  return evaluateFormatString(parseFormatString(template, options), context, options);
}
