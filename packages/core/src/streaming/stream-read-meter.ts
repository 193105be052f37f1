/**
 * Counts the characters the streaming parser reads (scanning, repairing and parsing JSON text),
 * so that tests can prove its work grows with its input rather than with input × buffer length,
 * without asserting a duration.
 */

/** A running count of characters read; one per parser. */
export interface StreamReadMeter {
  charsRead: number;
}

/** `text` parsed as JSON (undefined when it is not), counted on `meter`. */
export function parseCounted(text: string, meter: StreamReadMeter | undefined): unknown {
  if (meter !== undefined) meter.charsRead += text.length;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
