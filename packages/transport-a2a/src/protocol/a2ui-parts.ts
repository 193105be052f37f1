/**
 * The codec of A2UI data parts (`a2a-mcp-lavs.md` §2.3): one A2UI message per `DataPart`, its MIME
 * type in `metadata.mimeType` (and `mediaType`, which A2A v1.0 has), and the forms a receiver
 * accepts — a single message, an array, or `{messages: [...]}` — under either MIME spelling. A
 * v1.0 message goes out as a list of one: v1.0's A2A extension says a part's `data` "MUST be an
 * array of messages" (`v1_0/extensions/a2a/docs/a2ui_extension_specification.md` "Data
 * encoding"); older versions' messages go out as the object itself, as v0.9 peers read them. Parts
 * are in `@a2a-js/sdk`'s in-memory form (`{content: {$case, value}, mediaType, filename, metadata}`);
 * the SDK maps them to the v1.0 and v0.3 wire shapes.
 */

import type { Part } from '@a2a-js/sdk';
import {
  defaultProtocolVersions,
  getProtocolVersion,
  isRecord,
  SERVER_MESSAGE_KINDS,
  toMessageList,
} from '@a2ui-ts/core';
import { A2UI_METADATA, A2UI_MIME_TYPE, isA2uiMimeType } from './a2ui-extension.js';

/** The message keys of each direction, for parts that do not declare their MIME type. */
const MESSAGE_KINDS: Readonly<Record<'server' | 'client' | 'any', readonly string[]>> = {
  server: SERVER_MESSAGE_KINDS,
  client: ['action', 'error'],
  any: [...SERVER_MESSAGE_KINDS, 'action', 'error'],
};

/**
 * An A2UI data part carrying `message`.
 *
 * @param message - one A2UI message (server or client), as an object
 * @param options - `seq`: its sequence number in the session, written to `metadata.a2uiSeq`;
 *   `version`: the A2UI version whose MIME type the part carries (`v0.8`, `"0.9.1"`, …)
 *   @default version: none (`application/a2ui+json`)
 * @returns the part, with `mediaType` and `metadata.mimeType` set to the MIME type; its `data` is
 *   `[message]` for a v1.0 message (the v1.0 extension's rule), else `message`
 * @throws A2uiError `VALIDATION_FAILED` for a `version` core does not speak
 *
 * @example
 * ```ts
 * const part = createA2uiDataPart({ version: 'v0.9', deleteSurface: { surfaceId: 'main' } }, { seq: 7 });
 * ```
 */
export function createA2uiDataPart(
  message: unknown,
  options: { seq?: number; version?: string } = {},
): Part {
  // A version names the MIME type it writes (v0.8: the older `application/json+a2ui`).
  const mimeType =
    options.version === undefined
      ? A2UI_MIME_TYPE
      : ((defaultProtocolVersions.byName(options.version) ?? getProtocolVersion(options.version))
          .mimeTypes[0] ?? A2UI_MIME_TYPE);
  const metadata: Record<string, unknown> = { [A2UI_METADATA.mimeType]: mimeType };
  if (options.seq !== undefined) metadata[A2UI_METADATA.seq] = options.seq;
  return {
    content: { $case: 'data', value: isV10Message(message) ? [message] : message },
    mediaType: mimeType,
    filename: '',
    metadata,
  };
}

/** Whether `message` is in a v1.0 (or later) envelope: its part's `data` is then a list. */
function isV10Message(message: unknown): boolean {
  if (!isRecord(message) || typeof message.version !== 'string') return false;
  const major = Number(/^v?(\d+)\./.exec(message.version)?.[1]);
  return major >= 1;
}

/** A text part. */
export function createTextPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    mediaType: '',
    filename: '',
    metadata: undefined,
  };
}

/** The MIME type a part declares: `metadata.mimeType` (normative) or `mediaType` (A2A v1.0). */
export function partMimeType(part: Part): string | undefined {
  const declared = isRecord(part.metadata) ? part.metadata[A2UI_METADATA.mimeType] : undefined;
  if (typeof declared === 'string' && declared !== '') return declared;
  return part.mediaType ? part.mediaType : undefined;
}

/** True when `value` has the shape of one A2UI message of one of `kinds` (`version` + a kind key). */
function hasMessageShape(value: unknown, kinds: readonly string[]): boolean {
  return (
    isRecord(value) && typeof value.version === 'string' && kinds.some((kind) => kind in value)
  );
}

/** True when every message of an A2UI payload (single, array, `{messages}`) has one of `kinds`. */
function isPayloadOf(value: unknown, kinds: readonly string[]): boolean {
  const list = toMessageList(value);
  return list.length > 0 && list.every((message) => hasMessageShape(message, kinds));
}

/**
 * True for a data part that carries A2UI: either MIME type, or — for senders that omit it, as
 * some samples do — a payload shaped like A2UI messages of `kinds`.
 */
export function isA2uiDataPart(
  part: Part,
  direction: 'server' | 'client' | 'any' = 'any',
): boolean {
  if (part.content?.$case !== 'data') return false;
  if (isA2uiMimeType(partMimeType(part))) return true;
  return isPayloadOf(part.content.value, MESSAGE_KINDS[direction]);
}

/** The `a2uiSeq` of a part written by this package's server, when it has one. */
export function partSeq(part: Part): number | undefined {
  const seq = isRecord(part.metadata) ? part.metadata[A2UI_METADATA.seq] : undefined;
  return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : undefined;
}

/** The A2UI messages of an A2UI data part's payload, in order. */
export function a2uiMessagesOf(part: Part): unknown[] {
  return part.content?.$case === 'data' ? toMessageList(part.content.value) : [];
}
