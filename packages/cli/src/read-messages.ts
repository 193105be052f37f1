/**
 * Reads A2UI message files: `.jsonl` (one message per line) or `.json` (one message, an array,
 * `{messages}`, or a sample file `{name, description, messages}`).
 */
import { type ClientError, toMessageList } from '@a2ui-ts/core';

/** One message read from input, with where it came from. */
export interface ReadMessage {
  /** 0-based position in the stream. */
  readonly index: number;
  /** 1-based line for JSONL input. */
  readonly line?: number;
  readonly value: unknown;
}

/** Messages and the input errors (unparsable lines) of one source. */
export interface ReadResult {
  readonly messages: ReadMessage[];
  readonly errors: ClientError[];
}

/**
 * Parses `text`. JSONL is used when `name` ends in `.jsonl`, or when the whole text is not one
 * JSON document but its lines are.
 */
export function readMessages(text: string, name: string): ReadResult {
  if (!name.endsWith('.jsonl')) {
    try {
      const value = JSON.parse(text) as unknown;
      return {
        messages: toMessageList(value).map((message, index) => ({ index, value: message })),
        errors: [],
      };
    } catch (error) {
      if (!looksLikeJsonLines(text)) {
        return { messages: [], errors: [invalidJson(`${name}: ${(error as Error).message}`)] };
      }
    }
  }
  const messages: ReadMessage[] = [];
  const errors: ClientError[] = [];
  text.split(/\r?\n/).forEach((raw, lineIndex) => {
    if (raw.trim() === '') return;
    try {
      messages.push({ index: messages.length, line: lineIndex + 1, value: JSON.parse(raw) });
    } catch (error) {
      errors.push(invalidJson(`${name}:${lineIndex + 1}: ${(error as Error).message}`));
    }
  });
  return { messages, errors };
}

function looksLikeJsonLines(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.length > 1 && lines.every((line) => line.trimStart().startsWith('{'));
}

function invalidJson(message: string): ClientError {
  return { code: 'INVALID_JSON', surfaceId: '', message: `Not valid JSON: ${message}` };
}
