/**
 * Locates the first byte sequence that is not well-formed UTF-8 (the Unicode standard's table
 * 3-7, as the WHATWG decoder applies it): a decoder would silently turn it into U+FFFD.
 */

/**
 * Byte offset of the first ill-formed UTF-8 sequence in `bytes[start, end)`, or `-1` when the
 * range is well-formed. Overlong forms, surrogates (U+D800–U+DFFF), code points above U+10FFFF
 * and truncated sequences are ill-formed.
 *
 * @param bytes - the raw input
 * @param start - first byte to check @default 0
 * @param end - one past the last byte to check @default bytes.length
 * @returns the offset of the sequence's first byte, or -1
 *
 * @example
 * ```ts
 * findInvalidUtf8(new Uint8Array([0x61, 0xff])); // 1
 * ```
 */
export function findInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let index = start;
  while (index < end) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let length: number;
    // The range of the second byte; later continuation bytes are always 0x80–0xBF.
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return index;
    if (index + length > end) return index;
    const second = bytes[index + 1]!;
    if (second < low || second > high) return index;
    for (let offset = 2; offset < length; offset++) {
      const next = bytes[index + offset]!;
      if (next < 0x80 || next > 0xbf) return index;
    }
    index += length;
  }
  return -1;
}
