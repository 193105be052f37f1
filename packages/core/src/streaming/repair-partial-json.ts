/**
 * Closes a JSON fragment cut off mid-stream so that what has arrived can be shown early. A cut
 * string is closed only when it is the value of a "cuttable" key (free text such as `text` or
 * `literalString`): a cut id, path or URL would name the wrong thing, so such a fragment is not
 * repaired at all and the caller waits for more input.
 */
import { parseCounted, type StreamReadMeter } from './stream-read-meter.js';

/** Keys whose string values may be shown cut (spec-agnostic free text), as the official SDKs use. */
export const DEFAULT_CUTTABLE_KEYS: readonly string[] = [
  'literalString',
  'valueString',
  'label',
  'hint',
  'caption',
  'altText',
  'text',
];

/** Data-model keys whose string values are links; a cut link would load the wrong resource. */
const LINK_KEY_HINTS = ['url', 'link', 'src', 'href', 'image'];
const LINK_PREFIXES = ['http://', 'https://', 'data:', '/'];

interface FragmentScan {
  /** Open `{` / `[` in order. */
  readonly open: string[];
  readonly inString: boolean;
  /** Index of the opening quote of the last string. */
  readonly lastQuote: number;
}

function scanFragment(text: string): FragmentScan {
  const open: string[] = [];
  let inString = false;
  let escaped = false;
  let lastQuote = -1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (escaped) {
      escaped = false;
    } else if (char === '\\') {
      escaped = true;
    } else if (char === '"') {
      inString = !inString;
      if (inString) lastQuote = index;
    } else if (!inString) {
      if (char === '{' || char === '[') open.push(char);
      else if (char === '}' || char === ']') open.pop();
    }
  }
  return { open, inString, lastQuote };
}

/** The key a cut string value belongs to, or undefined when the string is a key or array item. */
function keyOfCutValue(prefix: string): string | undefined {
  return /"([^"]+)"\s*:\s*$/.exec(prefix)?.[1];
}

/** A cut `valueString` that is, or belongs to a key that names, a link must not be shown cut. */
function isCutLink(value: string, prefix: string): boolean {
  if (LINK_PREFIXES.some((start) => value.startsWith(start))) return true;
  const keys = [...prefix.slice(-200).matchAll(/"key"\s*:\s*"([^"]+)"/g)];
  const dataKey = keys.at(-1)?.[1]?.toLowerCase();
  return dataKey !== undefined && LINK_KEY_HINTS.some((hint) => dataKey.includes(hint));
}

/**
 * Completes a cut JSON fragment: closes a cut cuttable string, drops a trailing comma and closes
 * the open objects and arrays. The result may still not parse (a cut key, a cut `true`).
 *
 * @param fragment - JSON text cut anywhere.
 * @param cuttableKeys - Keys whose cut string values may be closed.
 * @param meter - Counts the characters read (tests prove the parser's work is linear with it).
 * @returns The completed text, or `''` when the fragment ends inside a string that must not be cut.
 */
export function repairPartialJson(
  fragment: string,
  cuttableKeys: ReadonlySet<string>,
  meter?: StreamReadMeter,
): string {
  if (meter !== undefined) meter.charsRead += fragment.length;
  let fixed = fragment.trimEnd();
  if (fixed === '') return '';
  const { open, inString, lastQuote } = scanFragment(fixed);
  if (inString) {
    const prefix = fixed.slice(0, lastQuote).trimEnd();
    const key = prefix.endsWith(':') ? keyOfCutValue(prefix) : undefined;
    if (key !== undefined) {
      if (!cuttableKeys.has(key)) return '';
      if (key === 'valueString' && isCutLink(fixed.slice(lastQuote + 1), prefix)) return '';
    }
    fixed += '"';
  }
  fixed = fixed.trimEnd();
  if (fixed.endsWith(',')) fixed = fixed.slice(0, -1).trimEnd();
  for (let index = open.length - 1; index >= 0; index--) fixed += open[index] === '{' ? '}' : ']';
  return fixed;
}

/**
 * Parses a cut fragment as far as it goes: repaired whole, else repaired after dropping trailing
 * elements one comma at a time (a cut key such as `{"a": 1, "ke` cannot be closed into JSON).
 *
 * @returns The parsed value, or undefined when nothing parses.
 */
export function parsePartialJson(
  fragment: string,
  cuttableKeys: ReadonlySet<string>,
  meter?: StreamReadMeter,
): unknown {
  const whole = parseCounted(repairPartialJson(fragment, cuttableKeys, meter), meter);
  if (whole !== undefined) return whole;
  let trimmed = fragment;
  for (let comma = trimmed.lastIndexOf(','); comma >= 0; comma = trimmed.lastIndexOf(',')) {
    trimmed = trimmed.slice(0, comma);
    const repaired = repairPartialJson(trimmed, cuttableKeys, meter);
    if (repaired === '') continue;
    const value = parseCounted(repaired, meter);
    if (value !== undefined) return value;
  }
  return undefined;
}
