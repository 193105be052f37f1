import { isRecord } from '../protocol/guards.js';
import { DEFAULT_MAX_MESSAGE_BYTES, decodeJsonText } from './parse-messages.js';
import type { ValidationIssue } from './validation-issue.js';

/**
 * Flattens the batch forms of spec §1 into a list of messages: a single message, an array
 * (`server_to_client_list.json`), a `{messages: [...]}` wrapper
 * (`server_to_client_list_wrapper.json`) or a sample file `{name, description, messages}`
 * (`sample.json`). Nothing is validated; validate each element so that every issue names its
 * message and one bad message does not hide the rest (batches are not transactional).
 *
 * @param value - A parsed JSON value.
 * @returns The messages, in order (the same array when `value` is one).
 *
 * @example
 * ```ts
 * toMessageList({ messages: [a, b] }); // [a, b]
 * toMessageList(a);                    // [a]
 * ```
 */
export function toMessageList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Array.isArray(value.messages) && !('version' in value))
    return value.messages;
  return [value];
}

/** One non-blank line of a JSON Lines text: its value, or why it could not be read. */
export interface JsonLine {
  /** 1-based line number in the input. */
  line: number;
  /** The parsed value, when the line is valid JSON. */
  value?: unknown;
  /** A `json` or `maxMessageBytes` issue, when it is not. */
  error?: ValidationIssue;
}

/** Options of {@link parseJsonLines}. */
export interface ParseJsonLinesOptions {
  /**
   * Largest accepted line, in UTF-8 bytes.
   * @default 1_048_576
   */
  maxMessageBytes?: number;
}

/**
 * Splits JSON Lines text (`.jsonl`, one message per line, `\n` or `\r\n`) and parses each
 * non-blank line on its own, so a bad line is reported with its number and the others survive.
 *
 * @param text - JSON Lines text.
 * @param options - See {@link ParseJsonLinesOptions}.
 * @returns One entry per non-blank line, in order.
 *
 * @example
 * ```ts
 * for (const { line, value, error } of parseJsonLines(text)) {
 *   if (error) console.warn(`line ${line}: ${error.message}`);
 *   else processor.process(value);
 * }
 * ```
 */
export function parseJsonLines(text: string, options: ParseJsonLinesOptions = {}): JsonLine[] {
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const result: JsonLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const source = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (source.trim() === '') return;
    const decoded = decodeJsonText(source, maxMessageBytes);
    const line = index + 1;
    if (decoded.ok) result.push({ line, value: decoded.value });
    else
      result.push({
        line,
        error: { ...decoded.issue, message: `Line ${line}: ${decoded.issue.message}` },
      });
  });
  return result;
}
