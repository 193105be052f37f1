/**
 * The JSON-RPC payloads that carry the agent's messages to an MCP client, built from replay-log
 * entries alone: a session builds them when it answers, the event store builds the same bytes
 * again when a client resumes a dropped stream — so the log is the only copy of the messages.
 */
import type { ReplayEntry } from '@a2ui-ts/core/host';
import type { CallToolResult, ProgressNotification } from '@modelcontextprotocol/sdk/types.js';
import {
  A2UI_MESSAGES_NOTIFICATION,
  A2UI_META_KEY,
  describeA2uiMessages,
  toA2uiResource,
} from '../protocol/mcp-a2ui.js';

/** Messages for the client, in `seq` order, and why the connection ended if the agent closed it. */
export interface DeliveryBatch {
  readonly entries: readonly ReplayEntry[];
  readonly closed?: string;
}

const messageOf = (entry: ReplayEntry): unknown => entry.message ?? JSON.parse(entry.data);

/**
 * The result of a tool call: the text fallback, and (for a client that reads A2UI, when there
 * are messages) the `application/a2ui+json` embedded resource; `_meta.a2ui.closed` once the
 * agent ended the connection.
 */
export function toToolResult({ entries, closed }: DeliveryBatch, a2ui: boolean): CallToolResult {
  const messages = entries.map(messageOf);
  const text = { type: 'text' as const, text: describeA2uiMessages(messages) };
  // Tells an A2UI client that no more UI comes from this connection.
  const meta = closed === undefined ? {} : { _meta: { [A2UI_META_KEY]: { closed } } };
  if (!a2ui || entries.length === 0) return { content: [text], ...meta };
  return {
    content: [
      text,
      toA2uiResource(
        entries.map((entry) => entry.data),
        messages,
      ),
    ],
    ...meta,
  };
}

/** The A2UI `_meta` of a notification: where the messages go, and the messages. */
const a2uiMeta = (entries: readonly ReplayEntry[]) => {
  const messages = entries.map(messageOf);
  const { uri, mimeType } = toA2uiResource(
    entries.map((entry) => entry.data),
    messages,
  ).resource;
  return {
    message: describeA2uiMessages(messages),
    _meta: { [A2UI_META_KEY]: { uri, mimeType, messages } },
  };
};

/**
 * The `notifications/a2ui/messages` of what the agent sent between calls (a live update), sent
 * on the session's standalone stream: `message` the text fallback, `_meta.a2ui` the A2UI.
 */
export function toPushNotification(entries: readonly ReplayEntry[]): {
  method: string;
  params: ReturnType<typeof a2uiMeta>;
} {
  return { method: A2UI_MESSAGES_NOTIFICATION, params: a2uiMeta(entries) };
}

/**
 * The `notifications/progress` of one message streamed during a long call: `progress` is its
 * `seq`, `message` the text fallback, `_meta.a2ui` the A2UI (`uri`, `mimeType`, `messages`).
 */
export function toProgressNotification(
  entry: ReplayEntry,
  progressToken: string | number,
): ProgressNotification {
  const message = messageOf(entry);
  const { uri, mimeType } = toA2uiResource([entry.data], [message]).resource;
  return {
    method: 'notifications/progress',
    params: {
      progressToken,
      progress: entry.seq,
      message: describeA2uiMessages([message]),
      _meta: { [A2UI_META_KEY]: { uri, mimeType, messages: [message] } },
    },
  };
}
