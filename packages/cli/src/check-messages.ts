/**
 * What `a2ui validate` reports for a source: the problems of every message, in file order.
 */
import {
  type ClientError,
  detectMessageVersion,
  findJsonViolation,
  isRecord,
  type MessageProcessor,
  type MigrationVersion,
  VALIDATION_FAILED,
} from '@a2ui-ts/core';
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
  options: CheckMessagesOptions = {},
): ClientError[] {
  const problems: ClientError[] = [];
  for (const original of items) {
    if (isReadFailure(original)) {
      problems.push(original.error);
      continue;
    }
    const where = `${name} message ${original.number}${original.line === undefined ? '' : ` (line ${original.line})`}`;
    const item = options.version ? forceVersion(original, options.version) : original;
    if (typeof item === 'string') {
      problems.push({ code: VALIDATION_FAILED, path: '/version', message: `${where}: ${item}` });
      continue;
    }
    for (const error of processor.process(asReceived(item, processor)).errors) {
      problems.push({ ...error, message: `${where}: ${error.message}` });
    }
  }
  return problems;
}

/** Options of {@link checkMessages}. */
export interface CheckMessagesOptions {
  /**
   * Read every message as this version: a message without `version` gets it (v0.8 has none), a
   * message of another version is a problem and is not applied.
   * @default each message's own version (its envelope)
   */
  version?: MigrationVersion;
}

/** The message labelled `version`, or why it cannot be read as that version. */
function forceVersion(item: ReadMessage, version: MigrationVersion): ReadMessage | string {
  const detected = detectMessageVersion(item.value);
  if (detected === version) return item;
  if (!isRecord(item.value) || detected !== undefined || 'version' in item.value) {
    return `the message is ${detected ?? 'of no known version'}, but --version is ${version}; not applied.`;
  }
  if (version === 'v0.8') return item;
  return { number: item.number, line: item.line, value: { version, ...item.value } };
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
