/**
 * The frontend tools of `connectAgUi` (AG-UI's tools the page runs): how they are offered with a
 * run, and how one call of them becomes the `tool` message that answers it.
 */
import { createConnectionId } from '@a2ui-ts/core';
import type { AbstractAgent } from '@ag-ui/client';
import type { AgUiFrontendTool } from './agui-client-options.js';
import type { ToolCall } from './run-outcome.js';

/** The tools as a run offers them (`RunAgentInput.tools`). */
export function toolParameters(tools: readonly AgUiFrontendTool[]) {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters ?? { type: 'object' },
  }));
}

/** The calls of a finished run that go to tools the page offers. */
export function frontendToolCalls(
  calls: Iterable<ToolCall>,
  tools: readonly AgUiFrontendTool[],
): ToolCall[] {
  return [...calls].filter((call) => tools.some((tool) => tool.name === call.name));
}

/**
 * Runs one call with its tool: the result (a string, or JSON) is the `tool` message's content; a
 * throw sends `Error: <message>` with `error` set.
 */
export async function runFrontendTool(
  tool: AgUiFrontendTool,
  call: ToolCall,
  signal: AbortSignal,
): Promise<Parameters<AbstractAgent['addMessage']>[0]> {
  let content: string;
  let error: string | undefined;
  try {
    const result = await tool.handler(call.args, { signal });
    content = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
    content = `Error: ${error}`;
  }
  return {
    id: createConnectionId(),
    role: 'tool',
    toolCallId: call.id,
    content,
    ...(error !== undefined ? { error } : {}),
  };
}
