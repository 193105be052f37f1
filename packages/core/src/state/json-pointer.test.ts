import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import {
  encodeSegment,
  formatPointer,
  isPointerWithin,
  normalizePointer,
  parsePointer,
  resolvePointer,
} from './json-pointer.js';

describe('parsePointer', () => {
  it('treats "" and "/" as the root', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual([]);
  });

  it('decodes ~1 and ~0 in that order (RFC 6901 §4)', () => {
    expect(parsePointer('/a~1b/c~0d/~01')).toEqual(['a/b', 'c~d', '~1']);
  });

  it('drops trailing and doubled slashes like the reference processor', () => {
    expect(parsePointer('/a//b/')).toEqual(['a', 'b']);
  });

  it.each(['/__proto__', '/a/constructor', '/x/prototype/y'])(
    'rejects the prototype segment in %s',
    (pointer) => {
      expect(() => parsePointer(pointer)).toThrowError(
        expect.objectContaining({ code: 'INVALID_PATH' }),
      );
    },
  );

  it('rejects a bad escape and a relative pointer', () => {
    for (const pointer of ['/a~2', '/a~', 'relative']) {
      let error: unknown;
      try {
        parsePointer(pointer);
      } catch (caught) {
        error = caught;
      }
      expect(A2uiError.isInstance(error) && error.code).toBe('INVALID_PATH');
    }
  });
});

describe('resolvePointer', () => {
  it('resolves relative paths against the scope and ignores it for absolute ones', () => {
    expect(resolvePointer('name', '/items/0')).toBe('/items/0/name');
    expect(resolvePointer('./name', '/items/0')).toBe('/items/0/name');
    expect(resolvePointer('', '/items/0')).toBe('/items/0');
    expect(resolvePointer('.', '/items/0')).toBe('/items/0');
    expect(resolvePointer('/abs', '/items/0')).toBe('/abs');
    expect(resolvePointer('a/b', '/')).toBe('/a/b');
  });
});

describe('isPointerWithin', () => {
  it('matches the path itself and descendants, not siblings sharing a prefix', () => {
    expect(isPointerWithin('/a/b', '/a')).toBe(true);
    expect(isPointerWithin('/a', '/a')).toBe(true);
    expect(isPointerWithin('/ab', '/a')).toBe(false);
    expect(isPointerWithin('/x', '/')).toBe(true);
  });
});

describe('properties', () => {
  const segment = fc
    .string({ minLength: 1 })
    .filter((s) => !['__proto__', 'constructor', 'prototype'].includes(s));

  it('format → parse round-trips any non-empty segments', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        expect(parsePointer(formatPointer(segments))).toEqual(segments);
      }),
    );
  });

  it('normalisation is idempotent', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        const once = normalizePointer(formatPointer(segments));
        expect(normalizePointer(once)).toBe(once);
      }),
    );
  });

  it('an encoded segment never contains "/" or a lone "~"', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const encoded = encodeSegment(raw);
        expect(encoded.includes('/')).toBe(false);
        expect(/~(?![01])/.test(encoded)).toBe(false);
      }),
    );
  });
});
