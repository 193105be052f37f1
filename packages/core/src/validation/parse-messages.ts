import { A2uiError, type A2uiErrorCode } from '../errors/a2ui-error.js';
import type { ClientMessage, ServerMessage } from '../protocol/messages.js';
import {
  type ValidateOptions,
  type ValidateServerMessageOptions,
  validateClientMessage,
  validateServerMessage,
} from './validate-messages.js';
import type { SafeParseResult, ValidationIssue } from './validation-issue.js';

/** Default size limit of one message given as text, in UTF-8 bytes (1 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 1_048_576;

/** Limits applied while decoding text input, before schema validation. */
export interface ParseLimits {
  /**
   * Largest accepted text input, in UTF-8 bytes. Only applies when the input is a string.
   * @default 1_048_576
   */
  maxMessageBytes?: number;
  /**
   * Deepest allowed nesting of arrays/objects, checked iteratively before schema validation.
   * @default 64
   */
  maxDepth?: number;
}

/** Options of {@link parseServerMessage} and {@link safeParseServerMessage}. */
export interface ParseServerMessageOptions extends ValidateServerMessageOptions, ParseLimits {}

/** Options of {@link parseClientMessage} and {@link safeParseClientMessage}. */
export interface ParseClientMessageOptions extends ValidateOptions, ParseLimits {}

/**
 * UTF-8 length of a string in bytes, counting until it passes `stopAfter` (so a 10 MB string is
 * not walked to the end just to be refused). Lone surrogates count as U+FFFD (3 bytes), as
 * `TextEncoder` encodes them.
 *
 * @param text - Any string.
 * @param stopAfter - Return as soon as the count exceeds this many bytes. @default Infinity
 * @returns The byte count, or a number just above `stopAfter`.
 *
 * @example
 * ```ts
 * utf8ByteLength('héllo'); // 6
 * ```
 */
export function utf8ByteLength(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
    if (bytes > stopAfter) return bytes;
  }
  return bytes;
}

/**
 * Decodes text input under the size limit. Exported for the JSON Lines reader.
 *
 * @returns The parsed value, or a `json` / `maxMessageBytes` issue.
 */
export function decodeJsonText(
  text: string,
  maxMessageBytes: number,
): { ok: true; value: unknown } | { ok: false; issue: ValidationIssue } {
  // UTF-8 needs at least one byte per UTF-16 unit and at most three, so most inputs skip counting.
  const tooLarge =
    text.length > maxMessageBytes ||
    (text.length * 3 > maxMessageBytes && utf8ByteLength(text, maxMessageBytes) > maxMessageBytes);
  if (tooLarge) {
    return {
      ok: false,
      issue: {
        path: '',
        keyword: 'maxMessageBytes',
        message: `Message is larger than ${maxMessageBytes} bytes (maxMessageBytes); send smaller messages.`,
      },
    };
  }
  try {
    // A UTF-8 byte order mark is an encoding artefact, not JSON: editors and some HTTP stacks add it.
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, issue: { path: '', keyword: 'json', message: `Invalid JSON: ${reason}` } };
  }
}

function safeParse<T>(
  input: unknown,
  options: ParseLimits,
  validate: (value: unknown) => ValidationIssue[],
): SafeParseResult<T> {
  let value = input;
  if (typeof input === 'string') {
    const decoded = decodeJsonText(input, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    if (!decoded.ok) return { success: false, errors: [decoded.issue] };
    value = decoded.value;
  }
  // Depth is checked by the validators themselves, before any recursive code sees the value.
  try {
    const errors = validate(value);
    return errors.length === 0 ? { success: true, value: value as T } : { success: false, errors };
  } catch (error) {
    if (A2uiError.isInstance(error) && error.code === 'CATALOG_NOT_FOUND') {
      return { success: false, errors: [{ path: '', keyword: 'catalog', message: error.message }] };
    }
    throw error;
  }
}

const CODE_BY_KEYWORD: Readonly<Record<string, A2uiErrorCode>> = {
  json: 'INVALID_JSON',
  maxMessageBytes: 'MESSAGE_TOO_LARGE',
  catalog: 'CATALOG_NOT_FOUND',
};

function unwrap<T>(result: SafeParseResult<T>, what: string): T {
  if (result.success) return result.value;
  const [first, ...rest] = result.errors;
  const code = CODE_BY_KEYWORD[first?.keyword ?? ''] ?? 'VALIDATION_FAILED';
  const where = first?.path ? `${first.path}: ` : '';
  const more =
    rest.length > 0 ? ` (and ${rest.length} more issue${rest.length === 1 ? '' : 's'})` : '';
  throw new A2uiError(
    code,
    `Invalid ${what}: ${where}${first?.message ?? 'unknown problem'}${more}`,
    {
      ...(first ? { path: first.path } : {}),
      data: { issues: result.errors },
    },
  );
}

/**
 * Parses and validates one server→client message (spec §2) without throwing.
 *
 * @param input - JSON text, or an already parsed value.
 * @param options - Catalog selection and limits; see {@link ParseServerMessageOptions}.
 * @returns `{success: true, value}` or `{success: false, errors}`; `errors[].keyword` is `json`
 *   for bad JSON, `maxMessageBytes` for oversized text, `maxDepth` for over-deep nesting and
 *   `catalog` for an unregistered `options.catalogId`.
 *
 * @example
 * ```ts
 * const result = safeParseServerMessage(line, { catalogId: surfaceCatalogId });
 * if (!result.success) reportError(result.errors[0]);
 * ```
 */
export function safeParseServerMessage(
  input: unknown,
  options: ParseServerMessageOptions = {},
): SafeParseResult<ServerMessage> {
  return safeParse<ServerMessage>(input, options, (value) => validateServerMessage(value, options));
}

/**
 * Parses and validates one server→client message (spec §2).
 *
 * @param input - JSON text, or an already parsed value.
 * @param options - Catalog selection and limits; see {@link ParseServerMessageOptions}.
 * @returns The message, typed.
 * @throws A2uiError `INVALID_JSON` (syntax error), `MESSAGE_TOO_LARGE` (text over
 *   `maxMessageBytes`), `CATALOG_NOT_FOUND` (unregistered `options.catalogId`) or
 *   `VALIDATION_FAILED` (schema or depth violation); `path` is the first issue's JSON Pointer and
 *   `data.issues` holds every issue.
 *
 * @example
 * ```ts
 * const message = parseServerMessage('{"version":"v0.9","deleteSurface":{"surfaceId":"s1"}}');
 * ```
 */
export function parseServerMessage(
  input: unknown,
  options: ParseServerMessageOptions = {},
): ServerMessage {
  return unwrap(safeParseServerMessage(input, options), 'A2UI server message');
}

/**
 * Parses and validates one client→server message (spec §3) without throwing.
 *
 * @param input - JSON text, or an already parsed value.
 * @param options - Limits; see {@link ParseClientMessageOptions}.
 * @returns `{success: true, value}` or `{success: false, errors}` (keywords as in
 *   {@link safeParseServerMessage}).
 *
 * @example
 * ```ts
 * const result = safeParseClientMessage(requestBody);
 * if (!result.success) return new Response(JSON.stringify(result.errors), { status: 400 });
 * ```
 */
export function safeParseClientMessage(
  input: unknown,
  options: ParseClientMessageOptions = {},
): SafeParseResult<ClientMessage> {
  return safeParse<ClientMessage>(input, options, (value) => validateClientMessage(value, options));
}

/**
 * Parses and validates one client→server message (spec §3).
 *
 * @param input - JSON text, or an already parsed value.
 * @param options - Limits; see {@link ParseClientMessageOptions}.
 * @returns The message, typed.
 * @throws A2uiError `INVALID_JSON`, `MESSAGE_TOO_LARGE` or `VALIDATION_FAILED`, as
 *   {@link parseServerMessage}.
 *
 * @example
 * ```ts
 * const message = parseClientMessage(body);
 * if ('action' in message) console.log(message.action.name);
 * ```
 */
export function parseClientMessage(
  input: unknown,
  options: ParseClientMessageOptions = {},
): ClientMessage {
  return unwrap(safeParseClientMessage(input, options), 'A2UI client message');
}
