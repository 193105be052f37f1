/**
 * Date formatting with Unicode TR35 patterns for the basic catalog's `formatDate` (digest §8.2),
 * built on `Intl` only (no date library): numbers come from the date's wall-clock fields in the
 * requested time zone and are rendered with the locale's digits; month, weekday, day period and
 * time-zone names come from `Intl.DateTimeFormat#formatToParts` in the locale. The Gregorian
 * calendar is always used, so `yyyy-MM-dd` means the same thing in `th-TH` as in `en-US`.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/** Options of {@link formatDate}. */
export interface FormatDateOptions {
  /**
   * A TR35 pattern (see {@link formatDate} for the supported fields), or `"ISO"` for
   * `Date#toISOString()` (always UTC, e.g. `2026-01-16T14:30:00.000Z`).
   */
  format: string;
  /** BCP 47 locale for names and digits. @default the runtime's default locale */
  locale?: string | undefined;
  /** IANA time zone the wall-clock fields are shown in, e.g. `"Europe/Paris"`. @default the runtime's time zone */
  timeZone?: string | undefined;
}

type Field =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'field'; readonly letter: string; readonly count: number };

/** Longest supported run of each pattern letter. */
const MAX_COUNT: Readonly<Record<string, number>> = {
  y: 4, // y, yy (two-digit), yyy, yyyy
  M: 5, // 1, 01, Jan, January, J (format form)
  L: 5, // the same, stand-alone form
  d: 2,
  E: 5, // E–EEE Fri, EEEE Friday, EEEEE F
  a: 5, // AM/PM
  h: 2, // 1–12
  H: 2, // 0–23
  K: 2, // 0–11
  k: 2, // 1–24
  m: 2,
  s: 2,
  S: 9, // fraction of a second, truncated to the count
  z: 4, // z–zzz short zone name, zzzz long zone name
};

const MAX_CACHE_ENTRIES = 200;

const patternCache = new Map<string, readonly Field[]>();
const dateTimeFormatCache = new Map<string, Intl.DateTimeFormat>();
const numberFormatCache = new Map<string, Intl.NumberFormat>();

function remember<T>(cache: Map<string, T>, key: string, create: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = create();
    if (cache.size >= MAX_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

function patternError(message: string, pattern: string): A2uiError {
  return new A2uiError('EXPRESSION_ERROR', `formatDate: ${message} in pattern "${pattern}".`, {
    data: { format: pattern },
  });
}

/**
 * Splits a TR35 pattern into fields and literal text. ASCII letters are fields; `'text'` is
 * literal text and `''` a single quote (inside or outside quoted text); everything else is
 * literal as written.
 */
function parsePattern(pattern: string): readonly Field[] {
  return remember(patternCache, pattern, () => {
    const fields: Field[] = [];
    let literal = '';
    let index = 0;
    while (index < pattern.length) {
      const char = pattern[index]!;
      if (char === "'") {
        if (pattern[index + 1] === "'") {
          literal += "'";
          index += 2;
          continue;
        }
        index += 1;
        for (;;) {
          if (index >= pattern.length) throw patternError('unterminated quoted text', pattern);
          if (pattern[index] === "'") {
            if (pattern[index + 1] === "'") {
              literal += "'";
              index += 2;
              continue;
            }
            index += 1;
            break;
          }
          literal += pattern[index];
          index += 1;
        }
      } else if (/[A-Za-z]/.test(char)) {
        let count = 1;
        while (pattern[index + count] === char) count++;
        const max = MAX_COUNT[char];
        if (max === undefined) {
          // Rejected instead of copied through: an unquoted letter is a field in TR35, and
          // printing it literally would hide a pattern bug (e.g. `T` in `yyyy-MM-ddTHH:mm`).
          throw patternError(`unsupported field '${char}' (quote literal letters: 'T')`, pattern);
        }
        if (count > max) throw patternError(`unsupported field '${char.repeat(count)}'`, pattern);
        if (literal !== '') fields.push({ kind: 'literal', text: literal });
        literal = '';
        fields.push({ kind: 'field', letter: char, count });
        index += count;
      } else {
        literal += char;
        index += 1;
      }
    }
    if (literal !== '') fields.push({ kind: 'literal', text: literal });
    return fields;
  });
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** The instant to format, and whether it came from a date-only string (see {@link formatDate}). */
interface ParsedDate {
  readonly date: Date;
  readonly dateOnly: boolean;
}

function parseIsoString(text: string): ParsedDate | undefined {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [year, month, day] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    if (!validDate(year, month, day)) return undefined;
    return { date: new Date(Date.UTC(year, month - 1, day)), dateOnly: true };
  }
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, offsetHours, offsetMinutes] = match;
  const [year, month, day, hour, minute] = [
    Number(y),
    Number(mo),
    Number(d),
    Number(h),
    Number(mi),
  ];
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || Number(s ?? 0) > 59)
    return undefined;
  if (offsetHours !== undefined && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59))
    return undefined;
  // Rebuilt in the ECMAScript date-time string format, the one form `Date.parse` must accept
  // identically everywhere (milliseconds: exactly three digits, offsets with a colon).
  const milliseconds = (fraction ?? '').padEnd(3, '0').slice(0, 3);
  const zone =
    zulu !== undefined ? 'Z' : sign !== undefined ? `${sign}${offsetHours}:${offsetMinutes}` : '';
  const time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}.${milliseconds}${zone}`);
  return Number.isNaN(time) ? undefined : { date: new Date(time), dateOnly: false };
}

function parseDateValue(value: unknown): ParsedDate | undefined {
  let date: Date | undefined;
  if (value instanceof Date) date = new Date(value.getTime());
  else if (typeof value === 'number' && Number.isFinite(value)) date = new Date(value);
  else if (typeof value === 'string') return parseIsoString(value.trim());
  if (date === undefined || Number.isNaN(date.getTime())) return undefined;
  return { date, dateOnly: false };
}

function intlError(
  error: unknown,
  locale: string | undefined,
  timeZone: string | undefined,
): A2uiError {
  const reason = error instanceof Error ? error.message : String(error);
  return new A2uiError(
    'EXPRESSION_ERROR',
    `formatDate: invalid locale "${locale ?? ''}" or time zone "${timeZone ?? ''}": ${reason}`,
    { cause: error, data: { locale, timeZone } },
  );
}

function dateTimeFormat(
  locale: string | undefined,
  timeZone: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = JSON.stringify([locale ?? null, timeZone ?? null, options]);
  return remember(dateTimeFormatCache, key, () => {
    try {
      return new Intl.DateTimeFormat(locale, { ...options, timeZone, calendar: 'gregory' });
    } catch (error) {
      throw intlError(error, locale, timeZone);
    }
  });
}

function numberFormat(locale: string | undefined, minimumIntegerDigits: number): Intl.NumberFormat {
  return remember(numberFormatCache, `${locale ?? ''}|${minimumIntegerDigits}`, () => {
    try {
      return new Intl.NumberFormat(locale, { minimumIntegerDigits, useGrouping: false });
    } catch (error) {
      throw intlError(error, locale, undefined);
    }
  });
}

function partOf(
  date: Date,
  type: Intl.DateTimeFormatPartTypes | 'dayperiod',
  format: Intl.DateTimeFormat,
): string {
  for (const part of format.formatToParts(date)) {
    // Older engines spell the day period `dayperiod`.
    if (part.type === type || (type === 'dayPeriod' && (part.type as string) === 'dayperiod'))
      return part.value;
  }
  return '';
}

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The date's fields as a clock in `timeZone` shows them, read in ASCII digits. */
function wallClock(date: Date, timeZone: string | undefined): WallClock {
  const format = dateTimeFormat('en-US', timeZone, {
    numberingSystem: 'latn',
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const fields: Record<string, number> = {};
  for (const part of format.formatToParts(date)) fields[part.type] = Number(part.value);
  return {
    year: fields.year ?? 0,
    month: fields.month ?? 1,
    day: fields.day ?? 1,
    hour: fields.hour ?? 0,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  };
}

const TEXT_WIDTH: Readonly<Record<number, 'short' | 'long' | 'narrow'>> = {
  1: 'short',
  2: 'short',
  3: 'short',
  4: 'long',
  5: 'narrow',
};

function monthName(
  date: Date,
  count: number,
  standAlone: boolean,
  locale: string | undefined,
  timeZone: string | undefined,
): string {
  const month = TEXT_WIDTH[count]!;
  if (!standAlone) {
    // With a day in the same format, Intl picks the format (e.g. genitive) form: Polish
    // "stycznia", not the stand-alone "styczeń".
    const withDay = partOf(
      date,
      'month',
      dateTimeFormat(locale, timeZone, { month, day: 'numeric' }),
    );
    // Some locales (ja: "1月16日") render the month as a bare number next to a literal; the
    // stand-alone name ("1月") is then the better text.
    if (/\p{L}/u.test(withDay)) return withDay;
  }
  // The whole output, not the month part: ja formats the stand-alone month as the parts
  // "1" + literal "月", and the name is both.
  return dateTimeFormat(locale, timeZone, { month }).format(date);
}

function renderField(
  field: { letter: string; count: number },
  date: Date,
  clock: WallClock,
  locale: string | undefined,
  timeZone: string | undefined,
): string {
  const { letter, count } = field;
  const number = (value: number, digits: number) => numberFormat(locale, digits).format(value);
  switch (letter) {
    case 'y':
      return count === 2 ? number(clock.year % 100, 2) : number(clock.year, count);
    case 'M':
    case 'L':
      return count <= 2
        ? number(clock.month, count)
        : monthName(date, count, letter === 'L', locale, timeZone);
    case 'd':
      return number(clock.day, count);
    case 'E':
      return partOf(
        date,
        'weekday',
        dateTimeFormat(locale, timeZone, { weekday: TEXT_WIDTH[count]! }),
      );
    case 'a':
      return partOf(
        date,
        'dayPeriod',
        dateTimeFormat(locale, timeZone, { hour: 'numeric', hourCycle: 'h12' }),
      );
    case 'h':
      return number(clock.hour % 12 === 0 ? 12 : clock.hour % 12, count);
    case 'H':
      return number(clock.hour, count);
    case 'K':
      return number(clock.hour % 12, count);
    case 'k':
      return number(clock.hour === 0 ? 24 : clock.hour, count);
    case 'm':
      return number(clock.minute, count);
    case 's':
      return number(clock.second, count);
    case 'S': {
      const milliseconds = String(date.getUTCMilliseconds()).padStart(3, '0');
      return number(Number(milliseconds.padEnd(count, '0').slice(0, count)), count);
    }
    case 'z':
      return partOf(
        date,
        'timeZoneName',
        dateTimeFormat(locale, timeZone, { timeZoneName: count === 4 ? 'long' : 'short' }),
      );
    default:
      return '';
  }
}

/**
 * Formats a date with a Unicode TR35 pattern or as ISO 8601 (basic catalog `formatDate`,
 * digest §8.2).
 *
 * Values: a `Date`; epoch milliseconds (finite number); or an ISO 8601 string — `2026-01-16`,
 * `2026-01-16T14:30`, `2026-01-16T14:30:05.123Z`, `2026-01-16 14:30:05+05:30`. Anything else,
 * including out-of-range fields (`2026-02-30`) and other date spellings (whose parsing differs
 * between JavaScript engines), gives `""`, as do `null` and `undefined` (data not yet loaded).
 * Date-times without an offset are local time of the runtime (ECMAScript rules). A date-only
 * string names a calendar day, not an instant, so it is always shown as that day (formatted in
 * UTC, where it was parsed), whatever `timeZone` says.
 *
 * Pattern fields: `y` (2026), `yy` (26), `yyyy` (2026); `M` (1), `MM` (01), `MMM` (Jan),
 * `MMMM` (January), `MMMMM` (J), and `L…` for the stand-alone month forms; `d`, `dd`; `E`/`EEE`
 * (Fri), `EEEE` (Friday), `EEEEE` (F); `a` (PM); `h`/`hh` (1–12), `H`/`HH` (0–23), `K`/`KK`
 * (0–11), `k`/`kk` (1–24); `m`/`mm`; `s`/`ss`; `S`… (fraction of a second); `z`/`zzzz` (zone
 * name). `'text'` is literal text and `''` a quote. Other ASCII letters are rejected.
 *
 * @param value - the date, see above
 * @param options - `format` (required), `locale`, `timeZone`; see {@link FormatDateOptions}
 * @returns the formatted date, or `""` when `value` is not a valid date
 * @throws A2uiError `EXPRESSION_ERROR` for an unsupported field or unterminated quote in the
 *   pattern, or an invalid locale or time zone
 * @example
 * ```ts
 * formatDate('2026-01-16T14:30:00Z', { format: 'EEEE, MMMM d, h:mm a', locale: 'en-US', timeZone: 'UTC' });
 * // 'Friday, January 16, 2:30 PM'
 * ```
 */
export function formatDate(value: unknown, options: FormatDateOptions): string {
  const { format, locale } = options;
  // Parse the pattern first so that a bad pattern is reported even while the value is missing.
  const fields = format === 'ISO' ? undefined : parsePattern(format);
  const parsed = parseDateValue(value);
  if (parsed === undefined) return '';
  if (fields === undefined) return parsed.date.toISOString();
  const timeZone = parsed.dateOnly ? 'UTC' : options.timeZone;
  const clock = wallClock(parsed.date, timeZone);
  let out = '';
  for (const field of fields) {
    out +=
      field.kind === 'literal'
        ? field.text
        : renderField(field, parsed.date, clock, locale, timeZone);
  }
  return out;
}
