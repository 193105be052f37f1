import { describe, expect, it } from 'vitest';
import { fromInputValue, hasTimeZone, toDateTimeMode, toInputValue } from './date-time-value.js';

// test/setup.ts pins TZ=UTC, so local time equals UTC here.
describe('date-time conversion', () => {
  it('picks the picker from enableDate/enableTime', () => {
    expect(toDateTimeMode(true, false)).toBe('date');
    expect(toDateTimeMode(false, true)).toBe('time');
    expect(toDateTimeMode(true, true)).toBe('datetime');
    expect(toDateTimeMode(undefined, undefined)).toBe('datetime');
  });

  it.each([
    ['2025-07-15', 'date', '2025-07-15'],
    ['2025-07-15', 'datetime', '2025-07-15T00:00'],
    ['2025-07-15', 'time', ''],
    ['19:05', 'time', '19:05'],
    ['19:05:30', 'time', '19:05:30'],
    ['19:05', 'date', ''],
    ['2025-07-15T19:05:00Z', 'datetime', '2025-07-15T19:05'],
    ['2025-07-15T19:05:09+02:00', 'datetime', '2025-07-15T17:05:09'],
    ['2025-07-15T19:05', 'datetime', '2025-07-15T19:05'],
    ['2025-07-15T19:05:00Z', 'date', '2025-07-15'],
    ['2025-07-15T19:05:00Z', 'time', '19:05'],
    ['not a date', 'datetime', ''],
    [42, 'date', ''],
  ] as const)('%s as %s → %s', (iso, mode, expected) => {
    expect(toInputValue(iso, mode)).toBe(expected);
  });

  it('writes dates and times as typed, zoned date-times as UTC', () => {
    expect(fromInputValue('2025-01-02', 'date', '')).toBe('2025-01-02');
    expect(fromInputValue('08:15', 'time', '')).toBe('08:15');
    expect(fromInputValue('2025-01-02T08:15', 'datetime', '')).toBe('2025-01-02T08:15');
    expect(fromInputValue('2025-01-02T08:15', 'datetime', '2024-01-01T00:00:00Z')).toBe(
      '2025-01-02T08:15:00Z',
    );
    expect(fromInputValue('', 'datetime', '2024-01-01T00:00:00Z')).toBe('');
    expect(hasTimeZone('2024-01-01T00:00:00-05:00')).toBe(true);
    expect(hasTimeZone('2024-01-01T00:00')).toBe(false);
  });
});
