/**
 * What `a2ui validate` reports for a source: the problems of every message, in file order.
 */
import { type ClientError, findJsonViolation, type MessageProcessor } from '@a2ui-ts/core';
import { isReadFailure, type ReadItem, type ReadMessage } from './read-messages.js';

/**
 * Runs every message of `items` (from {@link readMessages}) through `processor`, in file order,
 * and returns the problems found: unreadable lines as they were read, schema and processing
 * errors with `<name> message <n> (line <l>): ` before the message. This is exactly what
 * `a2ui validate` prints, one object per line; the demo's paste panel shows the same list.
 *
 * Each message is processed as a client would receive it: JSON text, so the processor's size
 * limit (`maxMessageBytes`) applies exactly as on a wire (see {@link asReceived}).
 *
 * @param items - the messages and unreadable parts of one source
 * @param name - the source as the messages should name it (a file name, `stdin`, `pasted`)
 * @param processor - a fresh processor per source: the messages are applied to it
 * @returns spec `error` payloads (digest §8.6), in file order; empty when the source is clean
 * @example
 * ```ts
 * const problems = checkMessages(readMessages(text, 'stream.jsonl'), 'stream.jsonl',
 *   new MessageProcessor({ catalogs: createDefaultCatalogs() }));
 * ```
 */
export function checkMessages(
  items: readonly ReadItem[],
  name: string,
  processor: MessageProcessor,
): ClientError[] {
  const problems: ClientError[] = [];
  for (const item of items) {
    if (isReadFailure(item)) {
      problems.push(item.error);
      continue;
    }
    const where = `${name} message ${item.number}${item.line === undefined ? '' : ` (line ${item.line})`}`;
    for (const error of processor.process(asReceived(item, processor)).errors) {
      problems.push({ ...error, message: `${where}: ${error.message}` });
    }
  }
  return problems;
}

/**
 * A message as a client would receive it: JSON text. A line is passed as read; a message of a
 * `.json` document is serialised again, unless that would change or break it: a value nested too
 * deep (serialising it could overflow the stack) or a number beyond double range (`1e999` parses
 * as Infinity and would be serialised as null). The processor reports the value itself then.
 */
function asReceived(item: ReadMessage, processor: MessageProcessor): unknown {
  if (item.text !== undefined) return item.text;
  if (findJsonViolation(item.value, processor.limits.maxDepth)) return item.value;
  return JSON.stringify(item.value);
}
