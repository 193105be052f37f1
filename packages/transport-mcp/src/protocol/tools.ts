/**
 * The tools an A2UI agent's MCP server lists (`tools/list`): JSON Schemas of their arguments, as
 * the guide writes them (`a2ui_action {name, context}`, `a2ui_error {code, message, surfaceId}`),
 * with the optional fields of a full v0.9 action (`surfaceId`, `sourceComponentId`, `timestamp`).
 */
import { A2UI_ACTION_TOOL, A2UI_ERROR_TOOL, A2UI_OPEN_TOOL } from './mcp-a2ui.js';

/** One MCP tool definition (`Tool` of `tools/list`). */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  annotations?: Record<string, unknown>;
}

/** The tools of every A2UI MCP server, by name. */
export const A2UI_TOOLS: Readonly<Record<string, McpToolDefinition>> = {
  [A2UI_OPEN_TOOL]: {
    name: A2UI_OPEN_TOOL,
    title: 'Open the UI',
    description:
      "Shows the agent's user interface (A2UI): its result carries every UI update not yet delivered.",
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  [A2UI_ACTION_TOOL]: {
    name: A2UI_ACTION_TOOL,
    title: 'A2UI user action',
    description:
      'Reports a user action on an A2UI surface (a button press…); the result carries the UI updates it caused.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: "The action's event name." },
        context: {
          type: 'object',
          description: "The event's context, data bindings resolved.",
          additionalProperties: true,
        },
        surfaceId: { type: 'string', description: 'The surface the action came from.' },
        sourceComponentId: { type: 'string', description: 'The component that fired it.' },
        timestamp: { type: 'string', format: 'date-time' },
      },
      required: ['name'],
    },
  },
  [A2UI_ERROR_TOOL]: {
    name: A2UI_ERROR_TOOL,
    title: 'A2UI renderer error',
    description: 'Reports an error the A2UI renderer met (a malformed message…).',
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        surfaceId: { type: 'string' },
        path: { type: 'string', description: 'JSON Pointer into the message (VALIDATION_FAILED).' },
      },
      required: ['code', 'message'],
    },
  },
};

/** Names MCP tools should have (MCP 2025-11-25, "Tool names"): an event with another is not listed. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The MCP Apps draft's spelling of an action: a tool named after the event, whose arguments are
 * its context. `undefined` for an event that cannot be a tool (a name MCP does not allow, or one
 * of the A2UI tools').
 *
 * @param name - the event's name
 * @param where - the surface and component that fire it, and its context's keys
 */
export function toEventTool(
  name: string,
  where: { surfaceId: string; contextKeys: readonly string[] },
): McpToolDefinition | undefined {
  if (!TOOL_NAME.test(name) || Object.hasOwn(A2UI_TOOLS, name)) return undefined;
  return {
    name,
    title: `A2UI event ${name}`,
    description: `Reports the user action "${name}" of the A2UI surface "${where.surfaceId}" (as a2ui_action would); its arguments are the event's context.`,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(where.contextKeys.map((key) => [key, {}])),
    },
  };
}
