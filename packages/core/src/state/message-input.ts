/**
 * Normalises what a processor is given — JSON text, one message, an array, `{messages}`, or a
 * sample file — into a list of messages, refusing oversized or hostile-deep input before any
 * recursive code sees it.
 */
import { isRecord } from '../protocol/guards.js';
import type { ValidationIssue } from '../validation/index.js';

/** Options of {@link parseMessageInput}. */
export interface MessageInputOptions {
  /** Largest JSON text accepted, in UTF-8 bytes. @default 1048576 */
  maxMessageBytes?: number;
  /** Deepest nesting of objects and arrays inside one message. @default 64 */
  maxDepth?: number;
}

export type MessageInputResult = { success: true; value: unknown[] } | { success: false; errors: ValidationIssue[] };

/** UTF-8 length of `text`, stopping early once it is known to exceed `limit`. */
export function utf8ByteLength(text: string, limit = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > limit) return bytes;
  }
  return bytes;
}

/**
 * The path of the first place where `value` nests deeper than `maxDepth`, or `undefined`.
 * Iterative, so a 100,000-deep array cannot overflow the stack.
 */
export function findExcessiveDepth(value: unknown, maxDepth: number): string | undefined {
  const stack: Array<[unknown, number, string]> = [[value, 0, '']];
  while (stack.length > 0) {
    const [current, depth, path] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) return path;
    const entries = Array.isArray(current) ? current.map((item, index) => [String(index), item] as const) : Object.entries(current);
    for (const [key, child] of entries) {
      if (typeof child === 'object' && child !== null) {
        stack.push([child, depth + 1, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
      }
    }
  }
  return undefined;
}

/**
 * Turns `input` into a message list (spec §1): an array is a batch, `{messages: [...]}` is the
 * list wrapper (and a sample file), anything else is one message. Strings are parsed as JSON.
 * Returns issues with codes in `keyword`: `INVALID_JSON`, `MESSAGE_TOO_LARGE`, `VALIDATION_FAILED`.
 */
export function parseMessageInput(input: unknown, options: MessageInputOptions = {}): MessageInputResult {
  const maxBytes = options.maxMessageBytes ?? 1_048_576;
  const maxDepth = options.maxDepth ?? 64;
  let value = input;
  if (typeof input === 'string') {
    const bytes = input.length > maxBytes ? input.length : utf8ByteLength(input, maxBytes);
    if (bytes > maxBytes) {
      return fail('MESSAGE_TOO_LARGE', '', `The message is larger than ${maxBytes} bytes (at least ${bytes}).`);
    }
    try {
      value = JSON.parse(input);
    } catch (error) {
      return fail('INVALID_JSON', '', `The message is not valid JSON: ${(error as Error).message}`);
    }
  }
  const deep = findExcessiveDepth(value, maxDepth + 1);
  if (deep !== undefined) {
    return fail('VALIDATION_FAILED', deep, `The message nests deeper than ${maxDepth} levels.`);
  }
  if (Array.isArray(value)) return { success: true, value };
  if (isRecord(value) && Array.isArray(value.messages) && !('version' in value)) return { success: true, value: value.messages };
  return { success: true, value: [value] };
}

function fail(keyword: string, path: string, message: string): MessageInputResult {
  return { success: false, errors: [{ path, message, keyword }] };
}
