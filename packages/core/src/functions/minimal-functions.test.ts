import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import type { FunctionContext } from './function-types.js';
import { MINIMAL_FUNCTIONS } from './minimal-functions.js';

function capitalize(value: unknown, locale = 'en-US'): unknown {
  const context: FunctionContext = {
    locale,
    openUrl: undefined,
    read: () => undefined,
    call: () => undefined,
  };
  const fn = MINIMAL_FUNCTIONS.find((candidate) => candidate.name === 'capitalize')!;
  return fn.execute({ value }, context);
}

describe('MINIMAL_FUNCTIONS', () => {
  it('has capitalize only', () => {
    expect(MINIMAL_FUNCTIONS.map((fn) => [fn.name, fn.returnType])).toEqual([
      ['capitalize', 'string'],
    ]);
  });
});

describe('capitalize', () => {
  it('upper-cases the first character and keeps the rest', () => {
    expect(capitalize('hello world')).toBe('Hello world');
    expect(capitalize('hELLO')).toBe('HELLO');
    expect(capitalize('élan')).toBe('Élan');
    expect(capitalize('1st')).toBe('1st');
    expect(capitalize('')).toBe('');
    expect(capitalize(undefined)).toBe('');
    expect(capitalize(42)).toBe('42');
  });

  it('treats the first code point as one character', () => {
    expect(capitalize('𐐨x')).toBe('𐐀x'); // Deseret small → capital letter (astral plane)
  });

  it("uses the locale's casing rules", () => {
    expect(capitalize('istanbul', 'tr-TR')).toBe('İstanbul');
    expect(capitalize('istanbul', 'en-US')).toBe('Istanbul');
  });

  it('rejects objects and malformed locales', () => {
    expect(() => capitalize({ a: 1 })).toThrow(/capitalize: argument 'value' must be a string/);
    let thrown: unknown;
    try {
      capitalize('x', 'not a locale!');
    } catch (error) {
      thrown = error;
    }
    expect(A2uiError.isInstance(thrown) && thrown.code).toBe('EXPRESSION_ERROR');
  });
});
