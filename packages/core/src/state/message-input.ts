/**
 * Normalises what a processor is given — JSON text, one message, an array, `{messages}`, or a
 * sample file — into a list of messages, refusing oversized or hostile-deep input before any
 * recursive code sees it.
 */
import { findDepthViolation } from '../validation/find-depth-violation.js';
import { toMessageList } from '../validation/message-list.js';
import { DEFAULT_MAX_MESSAGE_BYTES, decodeJsonText } from '../validation/parse-messages.js';
import type { ValidationIssue } from '../validation/validation-issue.js';

/** Options of {@link parseMessageInput}. */
export interface MessageInputOptions {
  /** Largest JSON text accepted, in UTF-8 bytes. @default 1048576 */
  maxMessageBytes?: number;
  /** Deepest nesting of objects and arrays inside one message. @default 64 */
  maxDepth?: number;
}

/** The messages of the input, or why there are none; issue `keyword`s name the error code. */
export type MessageInputResult =
  | { success: true; value: unknown[] }
  | { success: false; errors: ValidationIssue[] };

/** Maps the validation layer's pseudo-keywords to the processor's error codes. */
const CODES: Record<string, string> = {
  json: 'INVALID_JSON',
  maxMessageBytes: 'MESSAGE_TOO_LARGE',
};

/**
 * Turns `input` into a message list (spec §1): an array is a batch, `{messages: [...]}` is the
 * list wrapper (and a sample file), anything else is one message. Strings are parsed as JSON.
 * Issues carry their error code in `keyword`: `INVALID_JSON`, `MESSAGE_TOO_LARGE` or
 * `VALIDATION_FAILED` (nested deeper than `maxDepth`, path of the first too-deep container).
 */
export function parseMessageInput(
  input: unknown,
  options: MessageInputOptions = {},
): MessageInputResult {
  let value = input;
  if (typeof input === 'string') {
    const decoded = decodeJsonText(input, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    if (!decoded.ok) {
      const issue = decoded.issue;
      return {
        success: false,
        errors: [{ ...issue, keyword: CODES[issue.keyword ?? ''] ?? 'VALIDATION_FAILED' }],
      };
    }
    value = decoded.value;
  }
  // One level more than a message allows: the batch array or wrapper around it.
  const deep = findDepthViolation(value, (options.maxDepth ?? 64) + 2);
  if (deep) return { success: false, errors: [{ ...deep, keyword: 'VALIDATION_FAILED' }] };
  return { success: true, value: toMessageList(value) };
}
