import { describe, expect, it } from 'vitest';
import { boundedPrefix, describeEchoedValue } from './describe-echoed-value.js';

describe('describeEchoedValue', () => {
  it('quotes a short string whole and cuts a long one to a marked prefix', () => {
    expect(describeEchoedValue('v99.0')).toBe("'v99.0'");
    expect(describeEchoedValue('a"b', { quote: 'json' })).toBe('"a\\"b"');
    const huge = 'x'.repeat(1_000_000);
    expect(describeEchoedValue(huge)).toBe(`'${'x'.repeat(64)}'…`);
    expect(describeEchoedValue(huge, { maxLength: 8, quote: 'json' })).toBe('"xxxxxxxx"…');
  });

  it('names a container by its JSON type, never walking it', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(describeEchoedValue(deep)).toBe('(a JSON array)');
    expect(describeEchoedValue({ a: 1 })).toBe('(a JSON object)');
    expect(describeEchoedValue(9)).toBe('9');
    expect(describeEchoedValue(null)).toBe('null');
  });

  it('never cuts a surrogate pair in half', () => {
    expect(boundedPrefix('ab😀', 3)).toBe('ab');
    expect(boundedPrefix('ab😀', 4)).toBe('ab😀');
  });
});
