/**
 * The `regex` check cannot freeze a page (issue 13): screened patterns, a byte-bounded cache.
 */
import { RE2JS } from 're2js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluateChecks } from '../binding/checks.js';
import { DataContext } from '../binding/data-context.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import type { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { MessageProcessor } from '../state/message-processor.js';
import {
  createRegexFunction,
  DEFAULT_REGEX_LIMITS,
  estimateRegexProgramSize,
  type RegexLimits,
} from './regex-function.js';
import { createTestFunctionContext } from './test-function-context.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function regex(limits: RegexLimits = {}) {
  const fn = createRegexFunction(limits);
  const context = createTestFunctionContext({}, { functions: [fn] });
  return (pattern: string, value = 'x') => fn.execute({ pattern, value }, context);
}

function thrown(action: () => unknown): A2uiError {
  try {
    action();
  } catch (error) {
    return error as A2uiError;
  }
  throw new Error('expected an error');
}

describe('estimateRegexProgramSize', () => {
  it.each([
    '^[0-9]{5}$',
    "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$",
    '(?:ab|cd){3,10}',
    'a{999}',
    '.{8,64}',
    '^\\+?[1-9]\\d{1,14}$',
    '[[:alpha:]]{3}x',
    'a{999}'.repeat(10),
  ])('is close to what RE2 compiles %s to', (pattern) => {
    const actual = RE2JS.compile(RE2JS.translateRegExp(pattern)).programSize();
    const estimate = estimateRegexProgramSize(pattern);
    expect(estimate).toBeGreaterThanOrEqual(actual * 0.8);
    expect(estimate).toBeLessThanOrEqual(actual * 2 + 10);
  });
});

describe('the regex function on hostile patterns', () => {
  it('refuses a pattern over maxRegexPatternLength without compiling it', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    const test = regex();
    const error = thrown(() => test('a'.repeat(100_000)));
    expect(error.code).toBe('EXPRESSION_ERROR');
    expect(error.message).toContain('maxRegexPatternLength');
    expect(String(error.data?.pattern).length).toBeLessThanOrEqual(200);
    // The longest pattern allowed (a class is one instruction, whatever its length).
    const longest = `[${'a'.repeat(DEFAULT_REGEX_LIMITS.maxRegexPatternLength - 2)}]`;
    expect(test(longest, 'a')).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('refuses a short pattern whose repetition would compile to a huge program, without compiling', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    // 996 characters, 165,836 instructions: about half a second and 12 MB to compile.
    const pattern = 'a{999}'.repeat(166);
    expect(pattern.length).toBeLessThan(DEFAULT_REGEX_LIMITS.maxRegexPatternLength);
    const error = thrown(() => regex()(pattern));
    expect(error).toMatchObject({ code: 'EXPRESSION_ERROR' });
    expect(error.message).toContain('maxRegexProgramSize');
    expect(compile).not.toHaveBeenCalled();
  });

  it('remembers a pattern that failed, so it is checked once', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    const test = regex();
    for (let i = 0; i < 3; i++) expect(thrown(() => test('(a')).code).toBe('EXPRESSION_ERROR');
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('caches compiled patterns within maxRegexCacheBytes, least recently used dropped first', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    // Room for one compiled `.{1,99}` (about 200 instructions and their DFA, some 60 KB).
    const test = regex({ maxRegexCacheBytes: 100_000 });
    const [a, b] = ['^a.{1,99}$', '^b.{1,99}$'];
    test(a);
    test(a);
    expect(compile).toHaveBeenCalledTimes(1);
    test(b); // evicts a
    test(a);
    expect(compile).toHaveBeenCalledTimes(3);
    // The default budget holds both.
    const roomy = regex();
    compile.mockClear();
    for (let i = 0; i < 3; i++) {
      roomy(a);
      roomy(b);
    }
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('eight 100 KB patterns in one 0.8 MB message cost no compilation and fail their checks', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const components = Array.from({ length: 8 }, (_, i) => ({
      id: i === 0 ? 'root' : `f${i}`,
      component: 'TextField',
      label: `Field ${i}`,
      value: { path: `/v${i}` },
      checks: [
        {
          condition: {
            call: 'regex',
            args: { value: { path: `/v${i}` }, pattern: `${'a'.repeat(100_000)}${i}` },
          },
          message: 'Does not match',
        },
      ],
    }));
    const { errors } = processor.process(
      JSON.stringify([
        { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
        { version: 'v0.9', updateComponents: { surfaceId: 's', components } },
      ]),
    );
    expect(errors).toEqual([]);
    const surface = processor.getSurface('s')!;
    const reported: A2uiError[] = [];
    const context = new DataContext({
      surfaceId: 's',
      dataModel: surface.dataModel,
      functions: surface.catalog.functions,
      locale: 'en-US',
      reportError: (error) => reported.push(error),
    });
    for (const record of surface.components.values()) {
      expect(evaluateChecks(record.properties.checks, context)).toMatchObject({
        isValid: false,
        messages: ['Does not match'],
      });
    }
    expect(reported).toHaveLength(8);
    expect(reported.every((error) => error.message.includes('maxRegexPatternLength'))).toBe(true);
    expect(compile).not.toHaveBeenCalled();
  });
});
