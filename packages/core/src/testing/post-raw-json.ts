/**
 * What attack tests send and check on every HTTP binding: a raw request body, and an answer that
 * must never carry internal exception text.
 */

/**
 * Text that only an internal exception puts in a message (a JavaScript error's name or wording,
 * a stack frame, a schema library's error): an answer to a client must never match it.
 */
export const INTERNAL_ERROR_TEXT =
  /Cannot read propert|is not a function|is not iterable|\n\s+at |TypeError|RangeError|Maximum call stack|ZodError/;

/** An HTTP answer as attack tests read it. */
export interface RawJsonAnswer {
  /** The HTTP status. */
  status: number;
  /** The body as sent. */
  text: string;
  /** The body parsed as JSON, or `undefined` when it is empty. */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever the server answered
  body: any;
}

/**
 * POSTs `text` as-is with `content-type: application/json` (it need not be valid JSON) and reads
 * the answer.
 *
 * @param url - where to POST
 * @param text - the request body, sent unchanged
 * @param headers - more request headers @default {}
 * @throws SyntaxError when the answer's body is neither empty nor JSON
 */
export async function postRawJson(
  url: string,
  text: string,
  headers: Record<string, string> = {},
): Promise<RawJsonAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: text,
  });
  const body = await response.text();
  return { status: response.status, text: body, body: body ? JSON.parse(body) : undefined };
}
