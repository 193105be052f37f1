import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInvalidUtf8 } from './find-invalid-utf8.js';

const strict = new TextDecoder('utf-8', { fatal: true });
const decodes = (bytes: Uint8Array): boolean => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('findInvalidUtf8', () => {
  it.each([
    ['ASCII and multi-byte text', [0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], -1],
    ['a byte that starts nothing', [0x61, 0xff], 1],
    ['a lone continuation byte', [0x80], 0],
    ['an overlong "/"', [0x61, 0xc0, 0xaf], 1],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf], 0],
    ['a UTF-16 surrogate', [0xed, 0xa0, 0x80], 0],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a truncated sequence', [0x61, 0x62, 0xe2, 0x82], 2],
  ])('%s', (_, bytes, offset) => {
    expect(findInvalidUtf8(new Uint8Array(bytes))).toBe(offset);
  });

  it('agrees with a fatal TextDecoder, and everything before the offset decodes', () => {
    fc.assert(
      fc.property(
        // Mostly well-formed text with one byte replaced, and arbitrary bytes.
        fc.oneof(
          fc
            .tuple(fc.string({ unit: 'binary', maxLength: 8 }), fc.nat(), fc.nat({ max: 255 }))
            .map(([text, at, byte]) => {
              const bytes = new TextEncoder().encode(text);
              if (bytes.length > 0) bytes[at % bytes.length] = byte;
              return bytes;
            }),
          fc.uint8Array({ maxLength: 24 }),
        ),
        (bytes) => {
          const offset = findInvalidUtf8(bytes);
          expect(offset === -1).toBe(decodes(bytes));
          if (offset !== -1) expect(decodes(bytes.subarray(0, offset))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('checks only the given range', () => {
    expect(findInvalidUtf8(new Uint8Array([0xff, 0x61, 0xff]), 1, 2)).toBe(-1);
  });
});
