/**
 * Reads the drafted `@`-prefixed v1.0 keys (see `v1-0-spelling.ts`) as the bare keys the engine
 * works with. Copies only what changes; a message without `@` keys comes back as it is.
 */
import { isRecord, setOwn } from '../protocol/guards.js';
import { encodeSegment, parsePointer } from '../state/json-pointer.js';
import { specError } from './read-envelope.js';
import {
  V1_0_AT_ESCAPE,
  V1_0_ENVELOPE_VERSIONS,
  V1_0_RESERVED_KEY_ALIASES,
} from './v1-0-spelling.js';

/** Messages parsed from JSON text in which no key can start with `@` (see {@link notePlainText}). */
const plainMessages = new WeakSet<object>();
/**
 * The noted message of a text that held one message, the common case, kept apart from
 * {@link plainMessages}: a WeakSet `add` and `delete` cost about 0.2 µs per message, a slot
 * nothing. Taken by {@link takePlainNote}, dropped by {@link dropPlainNotes}.
 */
let plainSingle: object | undefined;

/**
 * Notes the messages parsed from `text` as holding no `@` key when the text cannot hold one: a
 * key starting with `@` is written `"@` or, escaped, `"\u0040` (digits only, so no other
 * spelling). Searching the text is far cheaper than walking what it parsed into.
 */
export function notePlainText(text: string, messages: readonly unknown[]): void {
  // Only v1.0 messages are ever normalised (and take their note): other versions pay nothing.
  let searched = false;
  for (const message of messages) {
    if (!isRecord(message) || !V1_0_ENVELOPE_VERSIONS.includes(message.version as string)) continue;
    if (!searched && mayHoldReservedKey(text)) return;
    searched = true;
    if (messages.length === 1) plainSingle = message;
    else plainMessages.add(message);
  }
}

/**
 * Whether `text` holds `"@` or `\u0040`. Each is found from its rare character (`@`, `\`):
 * `text.includes('"@')` scans from every `"`, the commonest character of JSON, and cost 15% of
 * `JSON.parse` of the same text.
 */
function mayHoldReservedKey(text: string): boolean {
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 34 /* " */) return true;
  }
  return text.indexOf('\\') !== -1 && text.includes('\\u0040');
}

/**
 * Whether {@link notePlainText} proved `message` free of `@` keys; the note is used up, so a
 * message changed afterwards (by an in-process caller) is walked again next time.
 */
export function takePlainNote(message: object): boolean {
  if (message === plainSingle) {
    plainSingle = undefined;
    return true;
  }
  return plainMessages.delete(message);
}

/**
 * Forgets the note of a single message not taken (a message that failed before it was read), so
 * that the slot does not keep it alive; call it once the text's messages have been applied.
 */
export function dropPlainNotes(): void {
  plainSingle = undefined;
}

/**
 * Where a value sits in its message: the message's JSON Pointer, or a key under a parent. The
 * pointer text is built only for an error, not for every key visited (it was most of the walk).
 */
type Where = string | { readonly up: Where; readonly key: string | number };

/** The JSON Pointer of `where`. */
function pointer(where: Where): string {
  if (typeof where === 'string') return where;
  return `${pointer(where.up)}/${String(where.key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * `value` with every alias key renamed and `@@x` unescaped to `@x`, at any depth.
 *
 * @param path - JSON Pointer of `value` in its message, for errors.
 * @throws A2uiError `VALIDATION_FAILED` when an object holds both spellings of one key, or an
 *   unknown `@` key (the `@` namespace is reserved)
 */
export function normalizeReservedKeys(value: unknown, path: string): unknown {
  // Nearly every message has no `@` key at all: one allocation-free scan proves it, and spares
  // the walk below its per-key bookkeeping.
  return holdsReservedKey(value) ? normalize(value, path) : value;
}

/** Whether any object at any depth of `value` has a key starting with `@`. */
function holdsReservedKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (holdsReservedKey(value[index])) return true;
    }
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.charCodeAt(0) === 64 /* @ */) return true;
    if (holdsReservedKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function normalize(value: unknown, where: Where): unknown {
  // Only objects and arrays can hold keys to rename; everything else comes back as it is.
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = normalize(item, { up: where, key: index });
      if (next !== item) {
        copy ??= value.slice();
        copy[index] = next;
      }
    });
    return copy ?? value;
  }
  if (!isRecord(value)) return value;
  let copy: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (const key of keys) {
    const item = value[key];
    const next = normalize(item, { up: where, key });
    const renamed = renameKey(key, where);
    if (copy === undefined && renamed === key && next === item) continue;
    copy ??= rebuild(value, keys, key);
    if (renamed !== key && Object.hasOwn(value, renamed)) {
      throw specError(
        `${pointer(where)}/${key}`,
        `"${key}" and "${renamed}" are two spellings of one key; send only one.`,
      );
    }
    setOwn(copy, renamed, next);
  }
  return copy ?? value;
}

function renameKey(key: string, where: Where): string {
  if (!key.startsWith('@')) return key;
  if (key.startsWith(V1_0_AT_ESCAPE)) return key.slice(1);
  const alias = V1_0_RESERVED_KEY_ALIASES[key];
  if (alias === undefined) {
    throw specError(
      `${pointer(where)}/${key}`,
      `Unknown reserved key "${key}": the "@" prefix is reserved (${Object.keys(V1_0_RESERVED_KEY_ALIASES).join(', ')}); write "@${key}" for a literal key.`,
    );
  }
  return alias;
}

/** A copy of `value` holding the keys before `stop` (the rest are added as they are visited). */
function rebuild(
  value: Record<string, unknown>,
  keys: readonly string[],
  stop: string,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    if (key === stop) break;
    setOwn(copy, key, value[key]);
  }
  return copy;
}

/**
 * `path`, a JSON Pointer into what {@link normalizeReservedKeys} made of `message`, with each key
 * spelled as the agent wrote it (`@path` for `path`, `@@x` for the literal key `@x`), so that an
 * error points into the message sent. Segments that are keys of `message` as written stay as
 * they are (a data-model key may start with `@`).
 *
 * @returns the pointer into `message`; `path` itself when it is not a pointer the engine reads
 */
export function pointerAsSent(message: unknown, path: string): string {
  let segments: string[];
  try {
    segments = parsePointer(path);
  } catch {
    return path;
  }
  let value: unknown = message;
  let out = '';
  for (const segment of segments) {
    let key = segment;
    if (isRecord(value) && !Object.hasOwn(value, segment)) {
      const alias = segment.startsWith('@')
        ? `${V1_0_AT_ESCAPE.slice(1)}${segment}`
        : Object.keys(V1_0_RESERVED_KEY_ALIASES).find(
            (spelling) => V1_0_RESERVED_KEY_ALIASES[spelling] === segment,
          );
      if (alias !== undefined && Object.hasOwn(value, alias)) key = alias;
    }
    out += `/${encodeSegment(key)}`;
    value =
      isRecord(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return out;
}
