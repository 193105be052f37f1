import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBoolean, toDisplayString, toNumber, toNumberOrNaN } from './coercion.js';

describe('toBoolean (digest §7.5)', () => {
  it('keeps booleans', () => {
    expect(toBoolean(true)).toBe(true);
    expect(toBoolean(false)).toBe(false);
  });

  it('reads "true"/"false" in any case and treats other strings as false', () => {
    expect(toBoolean('true')).toBe(true);
    expect(toBoolean('TRUE')).toBe(true);
    expect(toBoolean('False')).toBe(false);
    expect(toBoolean('yes')).toBe(false);
    expect(toBoolean('1')).toBe(false);
    expect(toBoolean('')).toBe(false);
  });

  it('treats non-zero numbers as true and 0/NaN as false', () => {
    expect(toBoolean(1)).toBe(true);
    expect(toBoolean(-0.5)).toBe(true);
    expect(toBoolean(0)).toBe(false);
    expect(toBoolean(-0)).toBe(false);
    expect(toBoolean(Number.NaN)).toBe(false);
  });

  it('treats null/undefined as false and objects as true', () => {
    expect(toBoolean(null)).toBe(false);
    expect(toBoolean(undefined)).toBe(false);
    expect(toBoolean({})).toBe(true);
    expect(toBoolean([])).toBe(true);
  });
});

describe('toNumber (digest §7.5)', () => {
  it('keeps numbers, parses numeric strings', () => {
    expect(toNumber(42)).toBe(42);
    expect(toNumber('42')).toBe(42);
    expect(toNumber(' -1.5e2 ')).toBe(-150);
    expect(toNumber('.5')).toBe(0.5);
  });

  it('maps null/undefined and non-numeric strings to 0', () => {
    expect(toNumber(null)).toBe(0);
    expect(toNumber(undefined)).toBe(0);
    expect(toNumber('abc')).toBe(0);
    expect(toNumber('0x10')).toBe(0);
    expect(toNumber('Infinity')).toBe(0);
    expect(toNumber('')).toBe(0);
  });

  it('maps booleans to 1/0 and objects to 0', () => {
    expect(toNumber(true)).toBe(1);
    expect(toNumber(false)).toBe(0);
    expect(toNumber({})).toBe(0);
    expect(toNumber([1])).toBe(0);
  });
});

describe('toNumberOrNaN', () => {
  it('is NaN for anything that is not a number or a decimal string', () => {
    expect(toNumberOrNaN('12')).toBe(12);
    expect(toNumberOrNaN(3)).toBe(3);
    for (const value of [null, undefined, '', '  ', 'abc', '1,5', true, {}, []]) {
      expect(toNumberOrNaN(value)).toBeNaN();
    }
  });
});

describe('toDisplayString (digest §7.5)', () => {
  it('renders primitives locale-neutrally', () => {
    expect(toDisplayString('text')).toBe('text');
    expect(toDisplayString(1234.5)).toBe('1234.5');
    expect(toDisplayString(-0)).toBe('0');
    expect(toDisplayString(true)).toBe('true');
    expect(toDisplayString(10n)).toBe('10');
  });

  it('renders null and undefined as the empty string', () => {
    expect(toDisplayString(null)).toBe('');
    expect(toDisplayString(undefined)).toBe('');
  });

  it('renders objects and arrays as JSON', () => {
    expect(toDisplayString({ a: 1, b: [true, null] })).toBe('{"a":1,"b":[true,null]}');
    expect(toDisplayString([1, 'x'])).toBe('[1,"x"]');
  });

  it('survives values JSON cannot represent', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toDisplayString(cyclic)).toBe('[object Object]');
    expect(toDisplayString(Object.create(null))).toBe('{}');
    expect(toDisplayString(() => 1)).toBe('');
    const hostile = {
      toJSON() {
        throw new Error('no');
      },
      toString() {
        throw new Error('no');
      },
    };
    expect(toDisplayString(hostile)).toBe('');
    expect(toDisplayString(new Date(Number.NaN))).toBe('');
    expect(toDisplayString(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
        }),
        (value) => {
          expect(typeof toDisplayString(value)).toBe('string');
        },
      ),
    );
  });
});
