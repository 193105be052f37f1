/**
 * Reads A2UI message files: `.jsonl` (one message per line) or `.json` (one message, an array,
 * `{messages}`, or a sample file `{name, description, messages}`), as bytes, so that bytes that are
 * not UTF-8 are reported instead of silently decoded to U+FFFD.
 */
import { type ClientError, toMessageList } from '@a2ui-ts/core';
import { findInvalidUtf8 } from './find-invalid-utf8.js';

/** One message read from input, with where it came from. */
export interface ReadMessage {
  /** 1-based position among the messages of the source. */
  readonly number: number;
  /** 1-based line for JSONL input. */
  readonly line?: number;
  readonly value: unknown;
  /** The message's JSON text as read, for JSONL input (a line). */
  readonly text?: string;
}

/** A part of the input that could not be read, with where it is. */
export interface ReadFailure {
  /** 1-based line for JSONL input. */
  readonly line?: number;
  readonly error: ClientError;
}

/** What a source holds, in file order. */
export type ReadItem = ReadMessage | ReadFailure;

/** True for an item that failed to read. */
export function isReadFailure(item: ReadItem): item is ReadFailure {
  return 'error' in item;
}

/** One line of the input: its text, or the offset of its first byte that is not UTF-8. */
type Line = { number: number; text: string } | { number: number; invalidAt: number; byte: number };

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Parses `input` (raw bytes, or text already decoded). JSONL is used when `name` ends in `.jsonl`,
 * or when the whole input is not one JSON document but its lines are. Bytes that are not
 * well-formed UTF-8 are an `INVALID_JSON` problem (JSON text is UTF-8, RFC 8259 §8.1) carrying
 * `byteOffset`, the 0-based offset of the first bad byte in the input; in JSONL only that line is
 * lost.
 *
 * @returns the messages and unreadable parts, in file order
 */
export function readMessages(input: string | Uint8Array, name: string): ReadItem[] {
  const bytes = typeof input === 'string' ? undefined : input;
  // Editors on some systems start UTF-8 files with a byte order mark; it is not JSON.
  const bom =
    bytes === undefined
      ? input.length > 0 && (input as string).charCodeAt(0) === 0xfeff
      : bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const start = bom ? 3 : 0;
  const { text, invalidAt } =
    bytes === undefined
      ? { text: (input as string).slice(bom ? 1 : 0), invalidAt: -1 }
      : decodeBytes(bytes, start);
  // A document that parses is never split into lines; only one that does not may be JSONL.
  if (!name.endsWith('.jsonl')) {
    if (invalidAt === -1) {
      try {
        const value = JSON.parse(text) as unknown;
        return toMessageList(value).map((message, index) => ({
          number: index + 1,
          value: message,
        }));
      } catch (error) {
        if (!looksLikeJsonLines(text))
          return [{ error: invalidJson(`${name}: ${(error as Error).message}`) }];
      }
    } else if (!looksLikeJsonLines(text)) {
      return [{ error: encodingError(name, undefined, invalidAt, bytes![invalidAt]!) }];
    }
  }
  const items: ReadItem[] = [];
  let number = 0;
  // Well-formed input is split as text; only input with bad bytes is split (and checked) line by line.
  for (const line of invalidAt === -1 ? textLines(text) : byteLines(bytes!, start)) {
    if ('invalidAt' in line) {
      items.push({
        line: line.number,
        error: encodingError(name, line.number, line.invalidAt, line.byte),
      });
      continue;
    }
    if (line.text.trim() === '') continue;
    try {
      const value = JSON.parse(line.text) as unknown;
      items.push({ number: ++number, line: line.number, value, text: line.text });
    } catch (error) {
      items.push({
        line: line.number,
        error: invalidJson(`${name}:${line.number}: ${(error as Error).message}`),
      });
    }
  }
  return items;
}

/**
 * `bytes` from `start` as text, and the offset of the first byte that is not UTF-8 (-1 when none).
 * The runtime's strict decoder checks it; only input it refuses is scanned for the offset, and
 * decoded leniently (U+FFFD) so that its lines can still be told apart.
 */
function decodeBytes(bytes: Uint8Array, start: number): { text: string; invalidAt: number } {
  const body = bytes.subarray(start);
  try {
    return { text: strict.decode(body), invalidAt: -1 };
  } catch {
    return { text: lenient.decode(body), invalidAt: findInvalidUtf8(bytes, start) };
  }
}

function* textLines(text: string): Generator<Line> {
  let number = 0;
  for (const raw of text.split(/\r?\n/)) yield { number: ++number, text: raw };
}

/** Lines of raw bytes, each decoded on its own so one bad line does not hide the others. */
function* byteLines(bytes: Uint8Array, start: number): Generator<Line> {
  let number = 0;
  let from = start;
  while (from <= bytes.length) {
    let to = bytes.indexOf(0x0a, from);
    if (to === -1) to = bytes.length;
    const end = to > from && bytes[to - 1] === 0x0d ? to - 1 : to;
    number++;
    const invalidAt = findInvalidUtf8(bytes, from, end);
    if (invalidAt === -1) yield { number, text: strict.decode(bytes.subarray(from, end)) };
    else yield { number, invalidAt, byte: bytes[invalidAt]! };
    from = to + 1;
  }
}

/**
 * JSONL when most non-blank lines start an object: then a line that is not JSON is one bad
 * message among good ones, and every other line is still checked. A pretty-printed document has
 * few such lines (most start with a key or a closing bracket), so its syntax error is reported
 * once for the whole text.
 */
function looksLikeJsonLines(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const objects = lines.filter((line) => line.trimStart().startsWith('{')).length;
  return lines.length > 1 && objects * 2 > lines.length;
}

function invalidJson(message: string): ClientError {
  return { code: 'INVALID_JSON', message: `Not valid JSON: ${message}` };
}

function encodingError(
  name: string,
  line: number | undefined,
  byteOffset: number,
  byte: number,
): ClientError {
  const where = line === undefined ? name : `${name}:${line}`;
  const hex = byte.toString(16).toUpperCase().padStart(2, '0');
  return {
    code: 'INVALID_JSON',
    message: `Not valid UTF-8: ${where}: byte ${byteOffset} (0x${hex}) does not start a well-formed UTF-8 sequence; JSON text must be UTF-8.`,
    byteOffset,
  };
}
