/**
 * What `a2ui validate` reports for a source: the problems of every message, in file order.
 */
import type { ClientError, MessageProcessor } from '@a2ui-ts/core';
import { isReadFailure, type ReadItem } from './read-messages.js';

/**
 * Runs every message of `items` (from {@link readMessages}) through `processor`, in file order,
 * and returns the problems found: unreadable lines as they were read, schema and processing
 * errors with `<name> message <n> (line <l>): ` before the message. This is exactly what
 * `a2ui validate` prints, one object per line; the demo's paste panel shows the same list.
 *
 * Each message is processed as JSON text, so the processor's size limit (`maxMessageBytes`)
 * applies exactly as on a wire.
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
    for (const error of processor.process(JSON.stringify(item.value)).errors) {
      problems.push({ ...error, message: `${where}: ${error.message}` });
    }
  }
  return problems;
}
