/**
 * Normalises what a processor is given — JSON text, one message, an array, `{messages}`, or a
 * sample file — into a list of messages, refusing oversized text before it is parsed.
 */
import { toMessageList } from '../validation/message-list.js';
import { DEFAULT_MAX_MESSAGE_BYTES, decodeJsonText } from '../validation/parse-messages.js';
import type { ValidationIssue } from '../validation/validation-issue.js';

/** Options of {@link parseMessageInput}. */
export interface MessageInputOptions {
  /** Largest JSON text accepted, in UTF-8 bytes. @default 1048576 */
  maxMessageBytes?: number;
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
 * list wrapper (and a sample file), anything else is one message. Strings are parsed as JSON
 * (`JSON.parse` does not recurse, so any nesting parses). Issues carry their error code in
 * `keyword`: `INVALID_JSON` or `MESSAGE_TOO_LARGE`. Nothing in a message is looked at: check each
 * message's nesting (`findJsonViolation`) before any recursive code sees it, as
 * `MessageProcessor` does, so the problem is reported with the message's surface.
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
  return { success: true, value: toMessageList(value) };
}
