/**
 * `a2ui migrate --to <version> <file|->`: converts a message stream between A2UI versions and
 * reports on stderr everything the target version cannot express.
 */
import { isRecord, type MigrationVersion, migrateMessages } from '@a2ui-ts/core';
import { isReadFailure, type ReadItem } from './read-messages.js';

/** The versions `--to` and `--version` accept. */
export const CLI_VERSIONS: readonly MigrationVersion[] = ['v0.8', 'v0.9', 'v1.0'];

/**
 * Reads a `--to` / `--version` value (`v0.9.1` is v0.9's wire format; `1.0` is v1.0).
 * @throws Error when the value names no supported version
 */
export function parseCliVersion(value: string, option: string): MigrationVersion {
  const normalised = value === 'v0.9.1' ? 'v0.9' : value === '1.0' ? 'v1.0' : value;
  if ((CLI_VERSIONS as readonly string[]).includes(normalised))
    return normalised as MigrationVersion;
  throw new Error(`${option} must be one of ${CLI_VERSIONS.join(', ')}, got "${value}".`);
}

/** What {@link migrateSource} writes. */
export interface MigratedSource {
  /**
   * The converted stream, as JSON Lines or JSON like the input; `undefined` when nothing is to be
   * written: the input was one message (not an array or `{messages}`) and it could not be
   * migrated, or the input was not JSON at all. Writing `[]` then would change the container.
   */
  text: string | undefined;
  /** One line per message that could not be read or lost something, for stderr. */
  problems: string[];
}

/**
 * Converts the messages of one source. JSON Lines input (any item with a line number) gives JSON
 * Lines output; a JSON document keeps its container: one message, an array, `{messages}` or a
 * sample file `{name, description, messages}` (a single message that becomes several is written
 * as an array; one that is dropped leaves nothing to write, `text: undefined`).
 *
 * @param items - what `readMessages` read from the source
 * @param document - the parsed JSON document, for non-JSONL input (its container is kept)
 */
export function migrateSource(
  items: readonly ReadItem[],
  document: unknown,
  options: { name: string; to: MigrationVersion; from?: MigrationVersion },
): MigratedSource {
  const problems: string[] = [];
  const messages: unknown[] = [];
  const lineOf: (number | undefined)[] = [];
  for (const item of items) {
    if (isReadFailure(item)) problems.push(`${item.error.message}; not migrated`);
    else {
      messages.push(item.value);
      lineOf.push(item.line);
    }
  }
  const result = migrateMessages(messages, { to: options.to, from: options.from });
  for (const issue of result.issues) {
    const line = lineOf[issue.index];
    const where =
      issue.index < 0
        ? options.name
        : `${options.name} message ${issue.index + 1}${line === undefined ? '' : ` (line ${line})`}`;
    problems.push(`${where}${issue.path ? ` at ${issue.path}` : ''}: ${issue.message}`);
  }
  const jsonLines = items.some((item) => item.line !== undefined);
  if (jsonLines) {
    return {
      text: result.messages.map((message) => `${JSON.stringify(message)}\n`).join(''),
      problems,
    };
  }
  const rewrapped = rewrap(document, result.messages);
  return {
    text: rewrapped === undefined ? undefined : `${JSON.stringify(rewrapped, null, 2)}\n`,
    problems,
  };
}

/** The converted messages in the input's container; `undefined` when one message was dropped. */
function rewrap(document: unknown, messages: unknown[]): unknown {
  if (Array.isArray(document)) return messages;
  if (isRecord(document) && Array.isArray(document.messages)) return { ...document, messages };
  if (messages.length === 0) return undefined;
  return messages.length === 1 ? messages[0] : messages;
}
