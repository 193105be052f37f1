/**
 * Reads an A2A user message as A2UI (`a2a-mcp-lavs.md` §2.3–2.4): its A2UI data parts (either MIME
 * spelling; one message, an array or `{messages}` each) become client messages, its text parts the
 * user's text, its other JSON data parts extras for the agent; its metadata splits into A2UI's and
 * the rest. Everything is checked before the agent sees anything, so a bad part refuses the whole
 * request with a JSON Pointer to it and disturbs nothing.
 */

import { Role, type SendMessageRequest } from '@a2a-js/sdk';
import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';
import { A2uiError, isRecord, toMessageList } from '@a2ui-ts/core';
import {
  checkInboundMessage,
  checkMetadata,
  INBOUND_DEFAULTS,
  type InboundLimits,
} from '@a2ui-ts/core/host';
import { A2UI_METADATA, isA2uiExtensionUri } from '../protocol/a2ui-extension.js';
import { isA2uiDataPart, partMimeType } from '../protocol/a2ui-parts.js';
import { splitClientMetadata } from '../protocol/client-metadata.js';

/** One A2UI client message of the request, checked. */
export interface ParsedClientMessage {
  readonly message: Record<string, unknown>;
  /** Its size with the metadata, as the session host counts it. */
  readonly bytes: number;
}

/** An A2A message read as A2UI. */
export interface ParsedA2uiRequest {
  readonly items: readonly ParsedClientMessage[];
  /** The text parts, joined by newlines; `undefined` without any. */
  readonly text: string | undefined;
  /** JSON data parts that are not A2UI (e.g. a sample's `{useStreaming: false}`). */
  readonly data: readonly unknown[];
  /** `a2uiClientCapabilities` / `a2uiClientDataModel`, checked. */
  readonly metadata: Record<string, unknown> | undefined;
  /** Every other metadata key. */
  readonly extras: Record<string, unknown> | undefined;
  /** The message activates A2UI (`message.extensions`) or sends client capabilities. */
  readonly a2uiCapable: boolean;
}

/** Limits of {@link parseA2uiRequest}. */
export interface ParseA2uiRequestLimits extends InboundLimits {
  /** Most A2UI client messages in one A2A message. @default 100 */
  maxMessagesPerRequest?: number;
}

/** Defaults of {@link ParseA2uiRequestLimits}. */
export const PARSE_REQUEST_DEFAULTS = { ...INBOUND_DEFAULTS, maxMessagesPerRequest: 100 } as const;

const invalid = (message: string, path: string, data?: Record<string, unknown>) =>
  new A2uiError('VALIDATION_FAILED', message, { path, data });

/**
 * Reads `request.message` as A2UI.
 *
 * @throws A2uiError `VALIDATION_FAILED` (`path` into the request, e.g. `/message/parts/0/data/action`;
 *   `data.issues`), `MESSAGE_TOO_LARGE`; `ContentTypeNotSupportedError` (A2A -32005) for a file,
 *   raw or URL part, or a data part of another media type
 *
 * @example
 * ```ts
 * const parsed = parseA2uiRequest(request, { maxClientMessageBytes: 65_536 });
 * for (const item of parsed.items) await host.receive(id, { principal, message: item.message, metadata: parsed.metadata, bytes: item.bytes });
 * ```
 */
export function parseA2uiRequest(
  request: SendMessageRequest,
  limits: ParseA2uiRequestLimits = {},
): ParsedA2uiRequest {
  const message = request.message;
  if (!message) throw invalid('The request has no message.', '/message');
  if (message.role === Role.ROLE_AGENT)
    throw invalid('A client message has the role "user".', '/message/role');
  const split = splitClientMetadata(request.metadata, message.metadata);
  const checked = checkMetadata(split.a2ui, limits);
  if (!checked.ok) {
    const first = checked.issues[0]!;
    throw invalid(first.message, `/message${first.path}`, { issues: [...checked.issues] });
  }
  const metadataBytes = split.a2ui ? JSON.stringify(split.a2ui).length : 0;
  const maxBytes = limits.maxClientMessageBytes ?? PARSE_REQUEST_DEFAULTS.maxClientMessageBytes;
  const maxMessages = limits.maxMessagesPerRequest ?? PARSE_REQUEST_DEFAULTS.maxMessagesPerRequest;

  const items: ParsedClientMessage[] = [];
  const texts: string[] = [];
  const data: unknown[] = [];
  (message.parts ?? []).forEach((part, index) => {
    const at = `/message/parts/${index}`;
    const content = part.content;
    if (content?.$case === 'text') {
      if (typeof content.value !== 'string')
        throw invalid('A text part needs a string.', `${at}/text`);
      texts.push(content.value);
      return;
    }
    if (content?.$case === 'data') {
      if (!isA2uiDataPart(part, 'client')) {
        const mime = partMimeType(part);
        if (mime === undefined || /^application\/json\s*(;|$)/i.test(mime)) {
          data.push(content.value);
          return;
        }
        throw new ContentTypeNotSupportedError(
          `Part ${index} is ${mime} data; this agent reads A2UI (application/a2ui+json), JSON and text.`,
        );
      }
      const list = toMessageList(content.value);
      list.forEach((entry, position) => {
        const path = `${at}/data${pathOf(content.value, position)}`;
        const issues = checkInboundMessage(entry);
        if (issues.length > 0)
          throw invalid(issues[0]!.message, `${path}${issues[0]!.path}`, { issues });
        const bytes = JSON.stringify(entry).length + metadataBytes;
        if (bytes > maxBytes) {
          throw new A2uiError(
            'MESSAGE_TOO_LARGE',
            `The client message is ${bytes} bytes with its metadata; at most ${maxBytes} are accepted.`,
            { path, data: { maxClientMessageBytes: maxBytes } },
          );
        }
        items.push({ message: entry as Record<string, unknown>, bytes });
      });
      if (items.length > maxMessages)
        throw invalid(`At most ${maxMessages} A2UI messages per A2A message.`, at);
      return;
    }
    const kind = content?.$case ?? 'empty';
    throw new ContentTypeNotSupportedError(
      `Part ${index} is a ${kind} part; this agent reads A2UI (application/a2ui+json), JSON and text.`,
    );
  });

  const capabilities = split.a2ui?.[A2UI_METADATA.clientCapabilities];
  return {
    items,
    text: texts.length > 0 ? texts.join('\n') : undefined,
    data,
    metadata: checked.metadata as Record<string, unknown> | undefined,
    extras: split.extras,
    a2uiCapable:
      capabilities !== undefined ||
      (message.extensions ?? []).some(isA2uiExtensionUri) ||
      items.length > 0,
  };
}

/** The pointer suffix of message `position` of a payload (single, array, or `{messages}`). */
function pathOf(payload: unknown, position: number): string {
  if (Array.isArray(payload)) return `/${position}`;
  if (isRecord(payload) && Array.isArray(payload.messages)) return `/messages/${position}`;
  return '';
}
