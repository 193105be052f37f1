/**
 * A client message as the MCP tool call that carries it, in the spelling the server offers: the
 * guide's `a2ui_action {name, context, …}` / `a2ui_error {code, message, surfaceId}`, or — for a
 * server that lists no `a2ui_action` but a tool named after the event — the MCP Apps draft's
 * call of that tool with the context as its arguments. The metadata travels beside the message,
 * in `_meta.a2ui`, with the message's own id (`requestId`) for de-duplication.
 */
import type { ClientMessage, ClientMessageMetadata } from '@a2ui-ts/core';
import { readRendererCapabilities, readRendererDataModel } from '@a2ui-ts/core';
import { A2UI_ACTION_TOOL, A2UI_ERROR_TOOL, A2UI_META_KEY } from '../protocol/mcp-a2ui.js';

/** One `tools/call`'s params. */
export interface McpToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly meta: Record<string, unknown>;
}

/**
 * The tool call of `message`.
 *
 * @param message - a v0.9 `action` or `error`
 * @param metadata - its metadata (`a2uiClientCapabilities`, `a2uiRendererCapabilities`, `a2uiClientDataModel` or `a2uiRendererDataModel`)
 * @param requestId - its idempotency key, the same on every attempt
 * @param tools - the names of the server's tools (`tools/list`)
 */
export function toActionCall(
  message: ClientMessage,
  metadata: ClientMessageMetadata,
  requestId: string,
  tools: ReadonlySet<string>,
): McpToolCall {
  // Both names of each key, v1.0's (a v1.0 link sends those) and the older ones: core's rule.
  const clientCapabilities = readRendererCapabilities(metadata) ?? {};
  const clientDataModel = readRendererDataModel(metadata);
  const meta = {
    [A2UI_META_KEY]: {
      clientCapabilities,
      ...(clientDataModel ? { clientDataModel } : {}),
      requestId,
    },
  };
  if ('action' in message) {
    const { name, context, surfaceId, sourceComponentId, timestamp } = message.action;
    if (!tools.has(A2UI_ACTION_TOOL) && tools.has(name))
      return { name, arguments: { ...context }, meta };
    return {
      name: A2UI_ACTION_TOOL,
      arguments: { name, context, surfaceId, sourceComponentId, timestamp },
      meta,
    };
  }
  return { name: A2UI_ERROR_TOOL, arguments: { ...message.error }, meta };
}
