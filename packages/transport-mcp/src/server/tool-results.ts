/**
 * The JSON-RPC payloads that carry the agent's messages to an MCP client, built from replay-log
 * entries alone: a session builds them when it answers, the event store builds the same bytes
 * again when a client resumes a dropped stream — so the log is the only copy of the messages.
 */
import type { ReplayEntry } from '@a2ui-ts/core/host';
import type { CallToolResult, ProgressNotification } from '@modelcontextprotocol/sdk/types.js';
import { A2UI_META_KEY, describeA2uiMessages, toA2uiResource } from '../protocol/mcp-a2ui.js';

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
