import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { formatDate } from './format-date.js';

const INSTANT = '2026-01-16T14:30:05.123Z'; // a Friday

function utc(format: string, locale = 'en-US', value: unknown = INSTANT): string {
  return formatDate(value, { format, locale, timeZone: 'UTC' });
}

describe('formatDate — TR35 patterns', () => {
  it('formats the catalog examples', () => {
    expect(utc('MMM dd, yyyy')).toBe('Jan 16, 2026');
    expect(utc('HH:mm')).toBe('14:30');
    expect(utc('h:mm a')).toBe('2:30 PM');
    expect(utc('EEEE, d MMMM')).toBe('Friday, 16 January');
    expect(utc('EEEE, MMMM d')).toBe('Friday, January 16');
  });

  it('supports every field', () => {
    expect(utc('y yy yyyy')).toBe('2026 26 2026');
    expect(utc('M MM MMM MMMM MMMMM')).toBe('1 01 Jan January J');
    expect(utc('L LL LLL LLLL')).toBe('1 01 Jan January');
    expect(utc('d dd')).toBe('16 16');
    expect(utc('E EEE EEEE EEEEE')).toBe('Fri Fri Friday F');
    expect(utc('h hh H HH K KK k kk')).toBe('2 02 14 14 2 02 14 14');
    expect(utc('m mm s ss')).toBe('30 30 5 05');
    expect(utc('S SS SSS SSSS')).toBe('1 12 123 1230');
    expect(utc('z / zzzz')).toBe('UTC / Coordinated Universal Time');
    expect(utc('a')).toBe('PM');
  });

  it('pads and wraps hours around midnight and noon', () => {
    const midnight = '2026-01-16T00:05:00Z';
    expect(utc('h:mm a|H|HH|K|k', 'en-US', midnight)).toBe('12:05 AM|0|00|0|24');
    expect(utc('h:mm a|HH', 'en-US', '2026-01-16T12:00:00Z')).toBe('12:00 PM|12');
  });

  it('handles quoted literals and escaped quotes', () => {
    expect(utc("yyyy-MM-dd'T'HH:mm")).toBe('2026-01-16T14:30');
    expect(utc("h 'o''clock'")).toBe("2 o'clock");
    expect(utc("''h''")).toBe("'2'");
    expect(utc("'at' 'noon, yes'")).toBe('at noon, yes');
    expect(utc('dd.MM.yyyy — HH:mm!')).toBe('16.01.2026 — 14:30!');
  });

  it('formats in ja-JP', () => {
    expect(utc('yyyy年M月d日(E) H:mm', 'ja-JP')).toBe('2026年1月16日(金) 14:30');
    expect(utc('MMMM', 'ja-JP')).toBe('1月');
    expect(utc('EEEE', 'ja-JP')).toBe('金曜日');
    expect(utc('a h:mm', 'ja-JP')).toBe('午後 2:30');
  });

  it('uses the format (genitive) month form next to a day, the stand-alone form with L', () => {
    expect(utc('d MMMM yyyy', 'pl-PL')).toBe('16 stycznia 2026');
    expect(utc('LLLL', 'pl-PL')).toBe('styczeń');
    expect(utc('EEEE, d. MMMM yyyy', 'de-DE')).toBe('Freitag, 16. Januar 2026');
  });

  it("uses the locale's digits and the Gregorian calendar", () => {
    expect(utc('dd/MM/yyyy', 'ar-EG')).toBe('١٦/٠١/٢٠٢٦');
    expect(utc('yyyy-MM-dd', 'th-TH')).toBe('2026-01-16');
  });

  it('shows the time in the requested time zone', () => {
    expect(
      formatDate(INSTANT, { format: 'yyyy-MM-dd HH:mm', locale: 'en-US', timeZone: 'Asia/Tokyo' }),
    ).toBe('2026-01-16 23:30');
    expect(
      formatDate(INSTANT, { format: 'd HH:mm', locale: 'en-US', timeZone: 'America/Los_Angeles' }),
    ).toBe('16 06:30');
  });

  it('returns ISO 8601 for format "ISO"', () => {
    expect(utc('ISO')).toBe('2026-01-16T14:30:05.123Z');
    expect(utc('ISO', 'en-US', '2026-01-16T14:30:05+05:30')).toBe('2026-01-16T09:00:05.000Z');
  });
});

describe('formatDate — values', () => {
  it('accepts ISO strings, epoch milliseconds and Date objects', () => {
    expect(utc('yyyy-MM-dd HH:mm:ss', 'en-US', '2026-01-16T14:30:05Z')).toBe('2026-01-16 14:30:05');
    expect(utc('yyyy-MM-dd HH:mm', 'en-US', '2026-01-16 14:30+0100')).toBe('2026-01-16 13:30');
    expect(utc('HH:mm:ss.SSS', 'en-US', '2026-01-16t14:30:05.123456789z')).toBe('14:30:05.123');
    expect(utc('yyyy-MM-dd HH:mm', 'en-US', Date.UTC(2026, 0, 16, 14, 30))).toBe(
      '2026-01-16 14:30',
    );
    expect(utc('yyyy-MM-dd', 'en-US', new Date(Date.UTC(2026, 0, 16)))).toBe('2026-01-16');
    expect(utc('yyyy', 'en-US', ' 2026-01-16 ')).toBe('2026');
  });

  it('shows a date-only string as that calendar day in every time zone', () => {
    for (const timeZone of ['Pacific/Honolulu', 'UTC', 'Pacific/Kiritimati']) {
      expect(formatDate('2026-01-16', { format: 'EEEE d MMMM', locale: 'en-US', timeZone })).toBe(
        'Friday 16 January',
      );
    }
  });

  it('returns "" for missing or invalid dates', () => {
    for (const value of [
      undefined,
      null,
      '',
      'yesterday',
      'January 16, 2026',
      '2026-02-30',
      '2026-13-01',
      '2026-01-16T25:00Z',
      '2026-01-16T14:30+25:00',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      9e15,
      new Date(Number.NaN),
      {},
      [],
      true,
    ]) {
      expect(formatDate(value, { format: 'yyyy-MM-dd', timeZone: 'UTC' }), String(value)).toBe('');
    }
  });
});

describe('formatDate — errors', () => {
  function expectError(action: () => unknown, message: RegExp): void {
    try {
      action();
    } catch (error) {
      expect(A2uiError.isInstance(error) && error.code).toBe('EXPRESSION_ERROR');
      expect((error as Error).message).toMatch(message);
      return;
    }
    expect.unreachable('expected an EXPRESSION_ERROR');
  }

  it('rejects unsupported fields, over-long fields and unterminated quotes, even without a value', () => {
    expectError(() => utc('yyyy-MM-ddTHH:mm'), /unsupported field 'T'/);
    expectError(() => formatDate(undefined, { format: 'Q yyyy' }), /unsupported field 'Q'/);
    expectError(() => utc('ddd'), /unsupported field 'ddd'/);
    expectError(() => utc('MMMMMM'), /unsupported field 'MMMMMM'/);
    expectError(() => utc("yyyy 'at"), /unterminated quoted text/);
  });

  it('rejects an invalid time zone or locale', () => {
    expectError(() => formatDate(INSTANT, { format: 'HH', timeZone: 'Mars/Olympus' }), /time zone/);
    expectError(() => formatDate(INSTANT, { format: 'MMMM', locale: 'not a locale!' }), /locale/);
  });
});
