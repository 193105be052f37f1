// biome-ignore-all lint/suspicious/noTemplateCurlyInString: formatString templates are plain strings containing ${…} on purpose.
import { beforeAll, describe, expect, it } from 'vitest';
import { A2uiError, type A2uiErrorCode } from '../errors/a2ui-error.js';
import { BASIC_FUNCTIONS, createBasicFunctions } from './basic-functions.js';
import { regexEngineModule } from './regex-function.js';
import {
  createTestFunctionContext,
  type TestFunctionContextOptions,
} from './test-function-context.js';
import { createUrlPolicy } from './url-policy.js';

type TestContextOptions = TestFunctionContextOptions;
const createContext = createTestFunctionContext;

function call(
  name: string,
  args: Record<string, unknown>,
  options: TestContextOptions = {},
): unknown {
  return createContext({}, options).call(name, args);
}

function expectError(
  action: () => unknown,
  message: RegExp,
  code: A2uiErrorCode = 'EXPRESSION_ERROR',
): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(A2uiError.isInstance(thrown), 'expected an A2uiError').toBe(true);
  expect((thrown as A2uiError).code).toBe(code);
  expect((thrown as A2uiError).message).toMatch(message);
}

describe('BASIC_FUNCTIONS', () => {
  it('has the 14 catalog functions with their return types', () => {
    expect(Object.fromEntries(BASIC_FUNCTIONS.map((fn) => [fn.name, fn.returnType]))).toEqual({
      required: 'boolean',
      regex: 'boolean',
      length: 'boolean',
      numeric: 'boolean',
      email: 'boolean',
      formatString: 'string',
      formatNumber: 'string',
      formatCurrency: 'string',
      formatDate: 'string',
      pluralize: 'string',
      openUrl: 'void',
      and: 'boolean',
      or: 'boolean',
      not: 'boolean',
    });
    expect(Object.isFrozen(BASIC_FUNCTIONS)).toBe(true);
  });
});

describe('required', () => {
  it('is false for null, undefined, "" and []', () => {
    for (const value of [null, undefined, '', []]) expect(call('required', { value })).toBe(false);
    expect(call('required', {})).toBe(false);
  });

  it('is true for everything else, including 0, false and " "', () => {
    for (const value of [0, false, ' ', 'x', [0], {}])
      expect(call('required', { value })).toBe(true);
  });
});

describe('regex', () => {
  // Imported alone, not through `@a2ui-ts/core` (which hands RE2 over statically).
  beforeAll(() => regexEngineModule.load());

  it('refuses a named backreference instead of matching a literal k', () => {
    expectError(
      () => call('regex', { value: 'aa', pattern: '(?<n>a)\\k<n>' }),
      /named backreference/,
    );
    expect(call('regex', { value: 'a\\k<', pattern: 'a\\\\k<' })).toBe(true);
  });

  it('matches anywhere unless anchored, like RegExp#test', () => {
    expect(call('regex', { value: 'abc123', pattern: '\\d+' })).toBe(true);
    expect(call('regex', { value: 'abc123', pattern: '^\\d+$' })).toBe(false);
    expect(call('regex', { value: '12345', pattern: '^[0-9]{5}$' })).toBe(true);
    expect(call('regex', { value: 12345, pattern: '^[0-9]{5}$' })).toBe(true);
    expect(call('regex', { value: undefined, pattern: '^$' })).toBe(true);
  });

  it('translates JavaScript spellings (\\u escapes, named groups)', () => {
    expect(call('regex', { value: 'café', pattern: 'caf\\u00e9' })).toBe(true);
    expect(call('regex', { value: '2026-01', pattern: '^(?<year>\\d{4})-\\d{2}$' })).toBe(true);
  });

  it('runs catastrophic patterns in linear time', () => {
    const value = `${'a'.repeat(9_999)}!`;
    expect(typeof call('regex', { value, pattern: '(a+)+$' })).toBe('boolean');
    expect(call('regex', { value, pattern: '^(a|a)*$' })).toBe(false);
    expect(call('regex', { value, pattern: '^(a|aa)+$' })).toBe(false);
    expect(call('regex', { value: 'x'.repeat(10_000), pattern: '(x+x+)+y' })).toBe(false);
  }, 5_000);

  it('does not match inputs over maxRegexInputLength (default 10,000)', () => {
    expect(call('regex', { value: 'a'.repeat(10_000), pattern: 'a' })).toBe(true);
    expect(call('regex', { value: 'a'.repeat(10_001), pattern: 'a' })).toBe(false);
    const functions = createBasicFunctions({ maxRegexInputLength: 3 });
    expect(call('regex', { value: 'aaaa', pattern: 'a' }, { functions })).toBe(false);
    expect(call('regex', { value: 'aaa', pattern: 'a' }, { functions })).toBe(true);
  });

  it('rejects invalid and RE2-unsupported patterns', () => {
    expectError(
      () => call('regex', { value: 'x', pattern: '(a' }),
      /regex: argument 'pattern'.*missing closing \)/,
    );
    expectError(() => call('regex', { value: 'x', pattern: '(?=a)' }), /does not support/);
    expectError(() => call('regex', { value: 'aa', pattern: '(a)\\1' }), /pattern/);
    // Even when the value is too long to be tested: the pattern is wrong either way.
    expectError(() => call('regex', { value: 'a'.repeat(20_000), pattern: '[' }), /pattern/);
  });

  it('requires a string pattern and a textual value', () => {
    expectError(() => call('regex', { value: 'x' }), /regex: argument 'pattern' is required/);
    expectError(
      () => call('regex', { value: 'x', pattern: 1 }),
      /'pattern' must be a string, got number/,
    );
    expectError(
      () => call('regex', { value: { a: 1 }, pattern: 'a' }),
      /'value' must be a string, got object/,
    );
  });
});

describe('length', () => {
  it('counts string code points', () => {
    expect(call('length', { value: 'abc', min: 3, max: 3 })).toBe(true);
    expect(call('length', { value: '😀😀', max: 2 })).toBe(true);
    expect(call('length', { value: '😀😀', min: 3 })).toBe(false);
    expect(call('length', { value: 'ab', min: 3 })).toBe(false);
    expect(call('length', { value: 'abcd', max: 3 })).toBe(false);
    expect(call('length', { value: undefined, max: 0 })).toBe(true);
    expect(call('length', { value: 12345, max: 4 })).toBe(false);
  });

  it('counts array elements (digest §17 item 12)', () => {
    expect(call('length', { value: ['a', 'b'], min: 2, max: 2 })).toBe(true);
    expect(call('length', { value: ['a'], min: 2, max: 2 })).toBe(false);
    expect(call('length', { value: [], max: 0 })).toBe(true);
  });

  it('works through a bound path', () => {
    const context = createContext({ selection: ['x', 'y'] });
    expect(context.call('length', { value: context.read('/selection'), min: 2, max: 2 })).toBe(
      true,
    );
  });

  it('validates min and max', () => {
    expectError(
      () => call('length', { value: 'a', min: -1 }),
      /length: argument 'min' must be at least 0/,
    );
    expectError(() => call('length', { value: 'a', max: 1.5 }), /'max' must be an integer/);
    expectError(() => call('length', { value: 'a', max: 'many' }), /'max' must be a number/);
    expectError(() => call('length', { value: { a: 1 }, max: 1 }), /'value' must be a string/);
  });
});

describe('numeric', () => {
  it('checks range on numbers and numeric strings', () => {
    expect(call('numeric', { value: 5, min: 1, max: 10 })).toBe(true);
    expect(call('numeric', { value: '5.5', min: 1, max: 10 })).toBe(true);
    expect(call('numeric', { value: 0, min: 1 })).toBe(false);
    expect(call('numeric', { value: 11, max: 10 })).toBe(false);
    expect(call('numeric', { value: -3, min: -5, max: -1 })).toBe(true);
  });

  it('is false for NaN and non-numeric values', () => {
    for (const value of [Number.NaN, 'abc', '', null, undefined, '1,5', true]) {
      expect(call('numeric', { value, min: 0 })).toBe(false);
    }
  });

  it('validates min and max', () => {
    expectError(
      () => call('numeric', { value: 1, min: 'low' }),
      /numeric: argument 'min' must be a number/,
    );
  });
});

describe('email', () => {
  it('accepts plausible addresses', () => {
    for (const value of ['a@b.co', 'first.last+tag@sub.example.org', 'x_y%z@a-b.io']) {
      expect(call('email', { value })).toBe(true);
    }
  });

  it('rejects implausible ones', () => {
    for (const value of ['', undefined, 'a@b', 'a@b.c', '@b.co', 'a b@c.de', 'a@b.co ', 'plain']) {
      expect(call('email', { value })).toBe(false);
    }
  });

  it('rejects addresses over 254 characters without backtracking', () => {
    expect(call('email', { value: `${'a'.repeat(64)}@${'b'.repeat(185)}.com` })).toBe(true);
    expect(call('email', { value: `${'a'.repeat(64)}@${'b'.repeat(186)}.com` })).toBe(false);
    expect(call('email', { value: `a@${'a.'.repeat(50_000)}!` })).toBe(false);
  });
});

describe('formatString', () => {
  const data = { user: { name: 'Ada' }, total: 1234.5, items: [{ name: 'Tea' }] };

  it('interpolates paths and nested calls', () => {
    const context = createContext(data, { scope: '/items/0' });
    expect(context.call('formatString', { value: 'Hi ${/user/name}, ${name}!' })).toBe(
      'Hi Ada, Tea!',
    );
    expect(
      context.call('formatString', {
        value: "${formatCurrency(value: ${/total}, currency: 'USD')}",
      }),
    ).toBe('$1,234.50');
    expect(context.call('formatString', { value: undefined })).toBe('');
  });

  it('reports syntax errors', () => {
    expectError(() => call('formatString', { value: 'Hi ${/user' }), /Unclosed interpolation/);
  });

  it('honours formatStringMaxDepth', () => {
    const functions = createBasicFunctions({ formatStringMaxDepth: 2 });
    expectError(() => call('formatString', { value: '${${${/x}}}' }, { functions }), /limit of 2/);
  });

  it('stops templates that interpolate themselves through data', () => {
    const loop = { t: '${formatString(value: ${/t})}' };
    expectError(
      () => createContext(loop).call('formatString', { value: loop.t }),
      /nested deeper than the limit/,
    );
    // The guard is released after the failure.
    expect(createContext(data).call('formatString', { value: '${/user/name}' })).toBe('Ada');
  });
});

describe('formatNumber', () => {
  it('formats with the locale, decimals and grouping', () => {
    expect(call('formatNumber', { value: 1234567.891 })).toBe('1,234,567.891');
    expect(call('formatNumber', { value: 1234.5, decimals: 2 })).toBe('1,234.50');
    expect(call('formatNumber', { value: 1234.567, decimals: 0 })).toBe('1,235');
    expect(call('formatNumber', { value: 1234.5, grouping: false })).toBe('1234.5');
    expect(call('formatNumber', { value: 1234.5, grouping: 'false', decimals: '1' })).toBe(
      '1234.5',
    );
    expect(call('formatNumber', { value: '42' })).toBe('42');
    expect(call('formatNumber', { value: 1234.5, decimals: 2 }, { locale: 'de-DE' })).toBe(
      '1.234,50',
    );
    expect(call('formatNumber', { value: 1234567 }, { locale: 'hi-IN' })).toBe('12,34,567');
  });

  it('formats NaN and missing values as ""', () => {
    for (const value of [Number.NaN, undefined, null, 'abc'])
      expect(call('formatNumber', { value })).toBe('');
  });

  it('validates decimals and the locale', () => {
    expectError(
      () => call('formatNumber', { value: 1, decimals: -1 }),
      /formatNumber: argument 'decimals' must be at least 0/,
    );
    expectError(
      () => call('formatNumber', { value: 1, decimals: 21 }),
      /'decimals' must be at most 20/,
    );
    expect(call('formatNumber', { value: 1, decimals: 20 })).toBe('1.00000000000000000000');
    expectError(
      () => call('formatNumber', { value: 1, decimals: 1.5 }),
      /'decimals' must be an integer/,
    );
    expectError(
      () => call('formatNumber', { value: 1 }, { locale: 'not a locale!' }),
      /formatNumber:/,
    );
  });
});

describe('formatCurrency', () => {
  it('formats in de-DE', () => {
    expect(call('formatCurrency', { value: 1234.5, currency: 'EUR' }, { locale: 'de-DE' })).toBe(
      '1.234,50\u00a0€',
    );
  });

  it('formats with decimals, grouping and currency minor units', () => {
    expect(call('formatCurrency', { value: 1234.5, currency: 'USD' })).toBe('$1,234.50');
    expect(call('formatCurrency', { value: 1234.5, currency: 'usd', decimals: 0 })).toBe('$1,235');
    expect(call('formatCurrency', { value: 1234.5, currency: 'USD', grouping: false })).toBe(
      '$1234.50',
    );
    expect(call('formatCurrency', { value: 1234, currency: 'JPY' }, { locale: 'ja-JP' })).toBe(
      '￥1,234',
    );
    expect(call('formatCurrency', { value: Number.NaN, currency: 'USD' })).toBe('');
  });

  it('rejects a missing or unknown currency', () => {
    expectError(
      () => call('formatCurrency', { value: 1 }),
      /formatCurrency: argument 'currency' is required/,
    );
    expectError(
      () => call('formatCurrency', { value: 1, currency: 'XYZ' }),
      /'currency' must be an ISO 4217/,
    );
    expectError(
      () => call('formatCurrency', { value: 1, currency: 'dollars' }),
      /'currency' must be an ISO 4217/,
    );
    expectError(
      () => call('formatCurrency', { value: 1, currency: 840 }),
      /'currency' must be a string/,
    );
  });
});

describe('formatDate', () => {
  const utc = createBasicFunctions({ timeZone: 'UTC' });

  it("formats in the context's locale and the configured time zone", () => {
    const value = '2026-01-16T14:30:00Z';
    expect(call('formatDate', { value, format: 'EEEE, MMMM d' }, { functions: utc })).toBe(
      'Friday, January 16',
    );
    expect(
      call(
        'formatDate',
        { value, format: 'yyyy年M月d日 EEEE' },
        { functions: utc, locale: 'ja-JP' },
      ),
    ).toBe('2026年1月16日 金曜日');
    expect(call('formatDate', { value, format: 'ISO' })).toBe('2026-01-16T14:30:00.000Z');
    expect(call('formatDate', { value: 'soon', format: 'yyyy' })).toBe('');
  });

  it('requires a format', () => {
    expectError(
      () => call('formatDate', { value: 0 }),
      /formatDate: argument 'format' is required/,
    );
    expectError(
      () => call('formatDate', { value: 0, format: 'yyyy-MM-ddTHH' }),
      /unsupported field 'T'/,
    );
  });
});

describe('pluralize', () => {
  const forms = { zero: 'zero', one: 'one', two: 'two', few: 'few', many: 'many', other: 'other' };

  it('follows CLDR strictly in English (0 is "other")', () => {
    expect(call('pluralize', { value: 1, one: 'review', other: 'reviews' })).toBe('review');
    expect(call('pluralize', { value: 2, one: 'review', other: 'reviews' })).toBe('reviews');
    // Explicit exact categories win where CLDR says "other" (en files 0 and 2 there).
    expect(call('pluralize', { value: 0, ...forms })).toBe('zero');
    expect(call('pluralize', { value: 2, ...forms })).toBe('two');
    expect(call('pluralize', { value: 0, one: 'item', other: 'items' })).toBe('items');
    expect(call('pluralize', { value: 0, zero: '', other: 'items' })).toBe('');
    expect(call('pluralize', { value: 1, one: '', other: 'items' })).toBe('');
  });

  it('selects zero/one/two/few/many in ar-EG', () => {
    const pick = (value: number) => call('pluralize', { value, ...forms }, { locale: 'ar-EG' });
    expect([0, 1, 2, 3, 11, 100].map(pick)).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it('selects one/few/many in pl-PL', () => {
    const pick = (value: number) => call('pluralize', { value, ...forms }, { locale: 'pl-PL' });
    expect([1, 2, 5, 22, 25, 1.5].map(pick)).toEqual([
      'one',
      'few',
      'many',
      'few',
      'many',
      'other',
    ]);
  });

  it('selects zero/one/two/few/many in cy', () => {
    const pick = (value: number) => call('pluralize', { value, ...forms }, { locale: 'cy' });
    expect([0, 1, 2, 3, 6, 7].map(pick)).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it('falls back to other when the category text is missing or the value is not a number', () => {
    expect(call('pluralize', { value: 3, other: 'rzeczy' }, { locale: 'pl-PL' })).toBe('rzeczy');
    expect(call('pluralize', { value: 1, one: null, other: 'items' })).toBe('items');
    expect(call('pluralize', { value: undefined, one: 'item', other: 'items' })).toBe('items');
    expect(call('pluralize', { value: '1', one: 'item', other: 'items' })).toBe('item');
  });

  it('requires other', () => {
    expectError(
      () => call('pluralize', { value: 1, one: 'item' }),
      /pluralize: argument 'other' is required/,
    );
  });
});

describe('openUrl', () => {
  it('opens URLs the policy allows, from a user action', () => {
    const opened: string[] = [];
    const result = call(
      'openUrl',
      { url: 'https://a2ui.org/help' },
      { openUrl: (url) => opened.push(url) },
    );
    expect(result).toBeUndefined();
    expect(opened).toEqual(['https://a2ui.org/help']);
  });

  it('refuses URLs the policy blocks', () => {
    const opened: string[] = [];
    const openUrl = (url: string) => opened.push(url);
    for (const url of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      '//evil.com',
      'mailto:a@b.co',
    ]) {
      expectError(() => call('openUrl', { url }, { openUrl }), /URL policy refused/, 'URL_BLOCKED');
    }
    expect(opened).toEqual([]);
  });

  it('uses the policy given to createBasicFunctions', () => {
    const opened: string[] = [];
    const functions = createBasicFunctions({
      urlPolicy: createUrlPolicy({ allowedProtocols: ['mailto:'] }),
    });
    call('openUrl', { url: 'mailto:a@b.co' }, { functions, openUrl: (url) => opened.push(url) });
    expect(opened).toEqual(['mailto:a@b.co']);
    expectError(
      () => call('openUrl', { url: 'https://a2ui.org' }, { functions, openUrl: () => {} }),
      /refused/,
      'URL_BLOCKED',
    );
  });

  it('refuses to run outside a user action', () => {
    expectError(
      () => call('openUrl', { url: 'https://a2ui.org' }),
      /^openUrl can only run from a user action/,
    );
  });

  it('requires a string url', () => {
    expectError(
      () => call('openUrl', {}, { openUrl: () => {} }),
      /openUrl: argument 'url' is required/,
    );
    expectError(() => call('openUrl', { url: 1 }, { openUrl: () => {} }), /'url' must be a string/);
  });
});

describe('and / or / not', () => {
  it('combines values coerced with toBoolean', () => {
    expect(call('and', { values: [true, true] })).toBe(true);
    expect(call('and', { values: [true, false, true] })).toBe(false);
    expect(call('and', { values: ['TRUE', 1] })).toBe(true);
    expect(call('and', { values: ['yes', true] })).toBe(false);
    expect(call('or', { values: [false, false] })).toBe(false);
    expect(call('or', { values: [false, 'true'] })).toBe(true);
    expect(call('or', { values: [0, null, undefined, ''] })).toBe(false);
    expect(() => call('and', { values: [true] })).toThrow(/at least 2 values/);
    expect(() => call('or', { values: [] })).toThrow(/at least 2 values/);
  });

  it('negates', () => {
    expect(call('not', { value: true })).toBe(false);
    expect(call('not', { value: 'false' })).toBe(true);
    expect(call('not', { value: undefined })).toBe(true);
    expect(call('not', { value: 2 })).toBe(false);
  });

  it('requires an array of values', () => {
    expectError(() => call('and', {}), /and: argument 'values' is required/);
    expectError(
      () => call('or', { values: true }),
      /or: argument 'values' must be an array, got boolean/,
    );
  });

  it('composes through formatString', () => {
    const context = createContext({ a: true, b: false });
    expect(context.call('formatString', { value: '${not(value: /b)} ${not(value: ${/a})}' })).toBe(
      'true false',
    );
    // formatString has no array literal, so `values` from a path must hold an array.
    expectError(
      () => context.call('formatString', { value: '${and(values: /a)}' }),
      /'values' must be an array/,
    );
  });
});
