/**
 * Reads A2UI message files: `.jsonl` (one message per line) or `.json` (one message, an array,
 * `{messages}`, or a sample file `{name, description, messages}`).
 */
import { type ClientError, toMessageList } from '@a2ui-ts/core';

/** One message read from input, with where it came from. */
export interface ReadMessage {
  /** 1-based position among the messages of the source. */
  readonly number: number;
  /** 1-based line for JSONL input. */
  readonly line?: number;
  readonly value: unknown;
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

/**
 * Parses `text`. JSONL is used when `name` ends in `.jsonl`, or when the whole text is not one
 * JSON document but its lines are.
 *
 * @returns the messages and unreadable lines, in file order
 */
export function readMessages(input: string, name: string): ReadItem[] {
  // Editors on some systems start UTF-8 files with a byte order mark; it is not JSON.
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (!name.endsWith('.jsonl')) {
    try {
      const value = JSON.parse(text) as unknown;
      return toMessageList(value).map((message, index) => ({ number: index + 1, value: message }));
    } catch (error) {
      if (!looksLikeJsonLines(text))
        return [{ error: invalidJson(`${name}: ${(error as Error).message}`) }];
    }
  }
  const items: ReadItem[] = [];
  let number = 0;
  text.split(/\r?\n/).forEach((raw, lineIndex) => {
    if (raw.trim() === '') return;
    const line = lineIndex + 1;
    try {
      const value = JSON.parse(raw) as unknown;
      items.push({ number: ++number, line, value });
    } catch (error) {
      items.push({ line, error: invalidJson(`${name}:${line}: ${(error as Error).message}`) });
    }
  });
  return items;
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
  return { code: 'INVALID_JSON', surfaceId: '', message: `Not valid JSON: ${message}` };
}
