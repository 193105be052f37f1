/**
 * Conversion between the ISO 8601 strings of the data model (§9 DateTimeInput) and the values of
 * native `date`, `time` and `datetime-local` inputs, which have no time zone.
 */

/** Which native picker a DateTimeInput shows. */
export type DateTimeMode = 'date' | 'time' | 'datetime';

const DATE = /^(\d{4}-\d{2}-\d{2})$/;
const TIME = /^(\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** `enableDate`/`enableTime` → picker; neither (or both) → date and time, as the reference React renderer does. */
export function toDateTimeMode(enableDate: unknown, enableTime: unknown): DateTimeMode {
  const date = enableDate === true;
  const time = enableTime === true;
  if (date && !time) return 'date';
  if (time && !date) return 'time';
  return 'datetime';
}

const pad = (value: number): string => String(value).padStart(2, '0');

function localParts(date: Date): { date: string; time: string; seconds: number } {
  return {
    date: `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    time: `${pad(date.getHours())}:${pad(date.getMinutes())}`,
    seconds: date.getSeconds(),
  };
}

/** True when `value` is an ISO 8601 date-time with `Z` or an offset. */
export function hasTimeZone(value: unknown): boolean {
  return typeof value === 'string' && DATE_TIME.exec(value.trim())?.[4] !== undefined;
}

/**
 * The native input value for model value `iso` in `mode`: a zoned date-time is shown in local
 * time; a date alone becomes midnight for a date-time picker; anything unparseable gives `""`.
 */
export function toInputValue(iso: unknown, mode: DateTimeMode): string {
  if (typeof iso !== 'string') return '';
  const value = iso.trim();
  const dateOnly = DATE.exec(value);
  if (dateOnly)
    return mode === 'date' ? dateOnly[1]! : mode === 'datetime' ? `${dateOnly[1]}T00:00` : '';
  const timeOnly = TIME.exec(value);
  if (timeOnly) {
    if (mode !== 'time') return '';
    return timeOnly[2] && timeOnly[2] !== '00' ? `${timeOnly[1]}:${timeOnly[2]}` : timeOnly[1]!;
  }
  const match = DATE_TIME.exec(value);
  if (!match) return '';
  let date = match[1]!;
  let time = match[2]!;
  let seconds = Number(match[3] ?? 0);
  if (match[4] !== undefined) {
    const parsed = new Date(value.replace(' ', 'T'));
    if (Number.isNaN(parsed.getTime())) return '';
    ({ date, time, seconds } = localParts(parsed));
  }
  const withSeconds = seconds !== 0 ? `${time}:${pad(seconds)}` : time;
  if (mode === 'date') return date;
  if (mode === 'time') return withSeconds;
  return `${date}T${withSeconds}`;
}

/**
 * The model value for native input value `input`: dates as `YYYY-MM-DD`, times as `HH:mm[:ss]`,
 * date-times as local `YYYY-MM-DDTHH:mm[:ss]` — or, when the previous model value carried a time
 * zone, as UTC (`…Z`) so the model keeps one convention.
 */
export function fromInputValue(input: string, mode: DateTimeMode, previous: unknown): string {
  if (input === '') return '';
  if (mode !== 'datetime' || !hasTimeZone(previous)) return input;
  const parsed = new Date(input);
  if (Number.isNaN(parsed.getTime())) return input;
  return parsed.toISOString().replace(/\.000Z$/, 'Z');
}
