// biome-ignore-all lint/suspicious/noTemplateCurlyInString: formatString templates are plain strings containing ${…} on purpose.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_FUNCTIONS } from './basic-functions.js';
import { type FormatStringExpression, formatString, parseFormatString } from './format-string.js';
import type { FunctionImplementation } from './function-types.js';
import { createTestFunctionContext } from './test-function-context.js';

const createContext = createTestFunctionContext;

/** Spy functions that echo their arguments, to observe what the evaluator passes. */
const echo: FunctionImplementation = {
  name: 'echo',
  returnType: 'any',
  execute: (args) => args,
};
const typeOf: FunctionImplementation = {
  name: 'typeOf',
  returnType: 'string',
  execute: (args) => (args.value === null ? 'null' : typeof args.value),
};
const upper: FunctionImplementation = {
  name: 'upper',
  returnType: 'string',
  execute: (args) => String(args.value).toUpperCase(),
};
const now: FunctionImplementation = { name: 'now', returnType: 'string', execute: () => 'NOW' };

function expectParseError(
  template: string,
  message: RegExp,
  offset?: number,
  maxDepth?: number,
): void {
  let thrown: unknown;
  try {
    parseFormatString(template, maxDepth === undefined ? undefined : { maxDepth });
  } catch (error) {
    thrown = error;
  }
  expect(A2uiError.isInstance(thrown), `expected "${template}" to fail`).toBe(true);
  const error = thrown as A2uiError;
  expect(error.code).toBe('EXPRESSION_ERROR');
  expect(error.message).toMatch(message);
  expect(error.message).toMatch(/at offset \d+/);
  if (offset !== undefined) expect(error.data).toMatchObject({ template, offset });
}

/**
 * The official conformance suite's representation (`conformance/core/expressions.yaml`):
 * literals, `{path}`, `{call, args, returnType: 'any'}`, adjacent literals joined, `null` as "".
 */
function toConformanceParts(template: string): unknown[] {
  const convert = (expression: FormatStringExpression): unknown => {
    switch (expression.kind) {
      case 'literal':
        return expression.value ?? '';
      case 'path':
        return { path: expression.path };
      case 'call':
        return {
          call: expression.name,
          args: Object.fromEntries(expression.args.map((arg) => [arg.name, convert(arg.value)])),
          returnType: 'any',
        };
    }
  };
  const parts: unknown[] = [];
  for (const part of parseFormatString(template).parts) {
    const value = part.kind === 'text' ? part.value : convert(part.expression);
    const last = parts.length - 1;
    if (typeof value === 'string' && typeof parts[last] === 'string')
      parts[last] = `${parts[last]}${value}`;
    else parts.push(value);
  }
  const joined = parts.filter((part) => part !== '');
  return joined.length === 0 ? [''] : joined;
}

describe('parseFormatString — official conformance cases (expressions.yaml)', () => {
  const cases: [string, unknown[]][] = [
    ['hello world', ['hello world']],
    ['', ['']],
    ['${user}', [{ path: 'user' }]],
    ['value is ${/user/name}', ['value is ', { path: '/user/name' }]],
    ['${my-path.with_underscores}', [{ path: 'my-path.with_underscores' }]],
    ['a ${x} b ${y} c', ['a ', { path: 'x' }, ' b ', { path: 'y' }, ' c']],
    ['${x}${y}', [{ path: 'x' }, { path: 'y' }]],
    ["${'hello world'}", ['hello world']],
    ['${"hello world"}', ['hello world']],
    ["${'line\\nbreak'}", ['line\nbreak']],
    ["${'it\\'s'}", ["it's"]],
    ['${42}', [42]],
    ['${1.5}', [1.5]],
    ['${007}', [7]],
    ['${true} ${false}', [true, ' ', false]],
    ['${trueish}', [{ path: 'trueish' }]],
    ['${now()}', [{ call: 'now', args: {}, returnType: 'any' }]],
    [
      'sum is ${add(a: 10, b: 20)}',
      ['sum is ', { call: 'add', args: { a: 10, b: 20 }, returnType: 'any' }],
    ],
    [
      "${format(value: /amount, suffix: ' USD', fallback: zero())}",
      [
        {
          call: 'format',
          args: {
            value: { path: '/amount' },
            suffix: ' USD',
            fallback: { call: 'zero', args: {}, returnType: 'any' },
          },
          returnType: 'any',
        },
      ],
    ],
    [
      '${outer(a: inner(b: 1))}',
      [
        {
          call: 'outer',
          args: { a: { call: 'inner', args: { b: 1 }, returnType: 'any' } },
          returnType: 'any',
        },
      ],
    ],
    ["${${'hello'}}", ['hello']],
    ['${   /user/name   }', [{ path: '/user/name' }]],
    ['\\${not_interpolated}', ['${not_interpolated}']],
    ['before \\${x} after', ['before ${x} after']],
    ['\\${literal} ${real}', ['${literal} ', { path: 'real' }]],
  ];
  for (const [template, expected] of cases) {
    it(`parses ${JSON.stringify(template)}`, () => {
      expect(toConformanceParts(template)).toEqual(expected);
    });
  }

  it('rejects the conformance error cases with the expected messages', () => {
    expectParseError('hello ${world', /Unclosed interpolation/, 6);
    expectParseError('${add(a: 1, b: 2}', /after function arguments/, 16);
    expectParseError('${add(a 1)}', /after argument name/, 8);
    expectParseError('${true false}', /Unexpected characters/, 7);
    expectParseError('${1.2.3}', /Invalid number literal/, 2);
  });
});

describe('parseFormatString — AST', () => {
  it('produces typed nodes with offsets', () => {
    const template = parseFormatString('Hi ${/name}, ${f(a: -2, b: null, c: ${x})}!');
    expect(template.parts).toEqual([
      { kind: 'text', value: 'Hi ' },
      { kind: 'interpolation', offset: 3, expression: { kind: 'path', path: '/name', offset: 5 } },
      { kind: 'text', value: ', ' },
      {
        kind: 'interpolation',
        offset: 13,
        expression: {
          kind: 'call',
          name: 'f',
          offset: 15,
          args: [
            { name: 'a', value: { kind: 'literal', value: -2, offset: 20 } },
            { name: 'b', value: { kind: 'literal', value: null, offset: 27 } },
            { name: 'c', value: { kind: 'path', path: 'x', offset: 38 } },
          ],
        },
      },
      { kind: 'text', value: '!' },
    ]);
  });

  it('accepts every string escape', () => {
    const template = '${\'a\\nb\\tc\\rd\\\\e\\\'f\\"g\\qh\'}${"x\\"y"}';
    expect(parseFormatString(template).parts.map((part) => part.kind)).toEqual([
      'interpolation',
      'interpolation',
    ]);
    expect(toConformanceParts(template)).toEqual(['a\nb\tc\rd\\e\'f"gqhx"y']);
  });

  it('accepts negative and trailing-point numbers, Unicode and ~ in paths, a trailing comma', () => {
    expect(toConformanceParts('${-3}${1.}')).toEqual([-3, 1]);
    expect(toConformanceParts('${/prénom/a~1b}')).toEqual([{ path: '/prénom/a~1b' }]);
    expect(toConformanceParts('${f(a: 1,)}')).toEqual([
      { call: 'f', args: { a: 1 }, returnType: 'any' },
    ]);
  });

  it('treats an empty interpolation as nothing and keeps other backslashes literal', () => {
    expect(toConformanceParts('a${}b${  }c')).toEqual(['abc']);
    expect(parseFormatString('a${}b').parts).toEqual([{ kind: 'text', value: 'ab' }]);
    expect(toConformanceParts('C:\\path \\n $x {y} }')).toEqual(['C:\\path \\n $x {y} }']);
    expect(toConformanceParts('\\\\${x}')).toEqual(['\\${x}']);
    expect(toConformanceParts('\\${${x}')).toEqual(['${', { path: 'x' }]);
  });

  it('caches parsed templates', () => {
    const template = 'cached ${/a}';
    expect(parseFormatString(template)).toBe(parseFormatString(template));
  });

  it('reports every syntax error with its offset', () => {
    expectParseError('${', /Unclosed interpolation/, 0);
    expectParseError('${   ', /Unclosed interpolation/, 0);
    expectParseError('${f(a: ${/x)}', /Unexpected characters at end of expression: '\)'/, 11);
    expectParseError('${f(a: ${/x}', /Unclosed interpolation/, 0);
    expectParseError("${'abc}", /Unterminated string literal/, 2);
    expectParseError('${"abc\\"}', /Unterminated string literal/, 2);
    expectParseError('${a # b}', /Unexpected character '#'/, 4);
    expectParseError('${$x}', /Unexpected character '\$'/, 2);
    expectParseError('${{x}}', /Unexpected character '\{'/, 2);
    expectParseError(
      '${f(1)}',
      /Expected an argument name or '\)' in call to 'f' but found '1'/,
      4,
    );
    expectParseError('${f(a:)}', /Expected an expression but found '\)'/, 6);
    expectParseError(
      '${f(a: 1 b: 2)}',
      /Expected ',' or '\)' after function arguments of 'f' but found 'b'/,
      9,
    );
    expectParseError('${f(a: 1, a: 2)}', /Duplicate argument 'a'/, 10);
    expectParseError('${f(a: 1', /Unclosed interpolation/, 0);
    expectParseError('${f(', /Unclosed interpolation/, 0);
    expectParseError('${f(a', /Unclosed interpolation/, 0);
    expectParseError('x ${f(a: ${', /Unclosed interpolation/, 9);
    expectParseError('${a/b()}', /Invalid function name 'a\/b'/, 2);
    expectParseError('${f(a-b: 1)}', /Expected an argument name/, 4);
    expectParseError('${)}', /Expected an expression but found '\)'/, 2);
    expectParseError('${1abc}', /Unexpected characters at end of expression: 'abc'/, 3);
  });

  it('limits nesting depth (default 10)', () => {
    const nested = (depth: number) => `${'${'.repeat(depth)}/x${'}'.repeat(depth)}`;
    expect(() => parseFormatString(nested(10))).not.toThrow();
    expectParseError(nested(11), /nested deeper than the limit of 10/);
    // A call's argument list is a level too: interpolation (1) → call args (2) → interpolation (3).
    expect(() => parseFormatString('${f(a: ${/x})}', { maxDepth: 3 })).not.toThrow();
    expectParseError('${f(a: ${/x})}', /limit of 2/, 7, 2);
    expectParseError('${f(a: g(b: 1))}', /limit of 2/, 7, 2);
    expect(() => parseFormatString('${/x}', { maxDepth: 0 })).toThrow(/maxDepth/);
  });

  it('never throws anything but EXPRESSION_ERROR on arbitrary input (property)', () => {
    const alphabet = fc.constantFrom(
      '$',
      '{',
      '}',
      '(',
      ')',
      ':',
      ',',
      "'",
      '"',
      '\\',
      ' ',
      'a',
      '/',
      '1',
      '.',
      '-',
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join('')),
        (template) => {
          try {
            parseFormatString(template);
          } catch (error) {
            expect(A2uiError.isInstance(error) && error.code === 'EXPRESSION_ERROR').toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('formatString — evaluation', () => {
  const data = {
    user: { name: 'Ada', age: 36 },
    items: [
      { name: 'Tea', price: 3.5 },
      { name: 'Cake', price: 4 },
    ],
    total: 1234.5,
    reviewCount: 1,
    flags: { on: true, none: null },
    now: '2026-01-16T14:30:00Z',
  };

  it('interpolates absolute paths and coerces parts', () => {
    const context = createContext(data);
    expect(formatString('Hi ${/user/name}, ${/user/age} ${/flags/on}', context)).toBe(
      'Hi Ada, 36 true',
    );
    expect(formatString('[${/flags/none}][${/missing}]', context)).toBe('[][]');
    expect(formatString('${/user}', context)).toBe('{"name":"Ada","age":36}');
    expect(formatString('${/items/1/name}', context)).toBe('Cake');
  });

  it('resolves relative paths against the caller scope', () => {
    const context = createContext(data, { scope: '/items/1' });
    expect(formatString('${name} costs ${price}, total ${/total}', context)).toBe(
      'Cake costs 4, total 1234.5',
    );
  });

  it('calls catalog functions with named, evaluated arguments', () => {
    const context = createContext(data);
    expect(formatString("${formatCurrency(value: ${/total}, currency: 'USD')}/year", context)).toBe(
      '$1,234.50/year',
    );
    expect(
      formatString("${formatCurrency(value: /total, currency: 'EUR', decimals: 0)}", context),
    ).toBe('€1,235');
    expect(
      formatString(
        "${formatNumber(value: ${/reviewCount})} ${pluralize(value: ${/reviewCount}, one: 'review', other: 'reviews')}",
        context,
      ),
    ).toBe('1 review');
    expect(
      formatString("Today is ${formatDate(value: ${/now}, format: 'yyyy-MM-dd')}.", context),
    ).toMatch(/^Today is 2026-01-1[5-7]\.$/);
  });

  it('passes nested values uncoerced and nests calls', () => {
    const context = createContext(data, {
      functions: [...BASIC_FUNCTIONS, echo, typeOf, upper, now],
    });
    expect(formatString('${typeOf(value: ${/total})}', context)).toBe('number');
    expect(
      formatString('${typeOf(value: 7)}|${typeOf(value: true)}|${typeOf(value: null)}', context),
    ).toBe('number|boolean|null');
    expect(formatString('${upper(value: ${now()})}', context)).toBe('NOW');
    expect(formatString('${upper(value: upper(value: /user/name))}', context)).toBe('ADA');
    expect(formatString("${echo(a: 1, b: 'x', c: /user/age)}", context)).toBe(
      '{"a":1,"b":"x","c":36}',
    );
  });

  it('gives arguments named like Object.prototype members no special meaning', () => {
    const context = createContext(data, { functions: [echo] });
    expect(formatString('${echo(__proto__: 1, constructor: 2)}', context)).toBe(
      '{"__proto__":1,"constructor":2}',
    );
  });

  it('returns templates without ${ unchanged without reading anything', () => {
    const context = createContext(data);
    expect(formatString('plain $ text {with} braces \\n', context)).toBe(
      'plain $ text {with} braces \\n',
    );
    expect(context.reads).toEqual([]);
  });

  it('unescapes \\${', () => {
    expect(formatString('cost: \\${/total} = ${/total}', createContext(data))).toBe(
      'cost: ${/total} = 1234.5',
    );
  });

  it('propagates errors of unknown functions and bad arguments', () => {
    const context = createContext(data);
    expect(() => formatString('${nope()}', context)).toThrow(/Unknown function 'nope'/);
    expect(() => formatString('${formatCurrency(value: 1)}', context)).toThrow(
      /'currency' is required/,
    );
  });

  it('returns any template without ${ unchanged (property)', () => {
    const context = createContext(data);
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).filter((s) => !s.includes('${')),
        (template) => formatString(template, context) === template,
      ),
    );
  });
});

describe('formatString output size', () => {
  it('refuses a result longer than maxOutputLength instead of amplifying a value', () => {
    const context = createContext({ big: 'x'.repeat(20_000) });
    const template = '${/big}'.repeat(100);
    let error: unknown;
    try {
      formatString(template, context);
    } catch (caught) {
      error = caught;
    }
    expect(A2uiError.isInstance(error) && error.code).toBe('LIMIT_EXCEEDED');
    expect(formatString('${/big}${/big}', context, { maxOutputLength: 40_000 })).toHaveLength(
      40_000,
    );
    expect(() => formatString('${/big}${/big}', context, { maxOutputLength: 39_999 })).toThrow(
      /maxOutputLength/,
    );
  });
});
