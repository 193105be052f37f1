/**
 * Frontend tools the host declared (AG-UI `RunAgentInput.tools`, on `connection.hostTools`)
 * offered to the model like app tools: the model calls one, the call travels to the host through
 * `connection.callHostTool`, and the host's result (or error) becomes the tool result.
 */
import type { Connection, HostTool } from '@a2ui-ts/core';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';

/** Tool names every provider accepts (OpenAI's rule is the strictest). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * AI SDK tools for the host tools of `connection`. A host tool whose name is `taken` (the render
 * tool, an app tool) or that no provider would accept is left out, so app tools win a clash.
 *
 * @returns the tools and the names that were left out
 *
 * @example
 * ```ts
 * const { tools } = createHostTools(connection, new Set(['render_a2ui']));
 * streamText({ model, tools: { ...tools, ...appTools } });
 * ```
 */
export function createHostTools(
  connection: Connection,
  taken: ReadonlySet<string>,
): { tools: ToolSet; skipped: string[] } {
  const tools: ToolSet = {};
  const skipped: string[] = [];
  for (const host of connection.hostTools) {
    if (taken.has(host.name) || !TOOL_NAME.test(host.name) || host.name in tools) {
      skipped.push(host.name);
      continue;
    }
    tools[host.name] = hostTool(connection, host);
  }
  return { tools, skipped };
}

function hostTool(connection: Connection, host: HostTool) {
  const hostDefined = dynamicTool({
    description: host.description,
    inputSchema: jsonSchema(
      host.parameters && typeof host.parameters === 'object' ? host.parameters : { type: 'object' },
    ),
    async execute(args, { abortSignal }) {
      // Throws A2uiError NOT_SUPPORTED on transports without frontend tools; the model sees the
      // error as the tool's result and carries on without it.
      const result = await connection.callHostTool(
        { name: host.name, args },
        { signal: abortSignal },
      );
      if (result.error !== undefined) throw new Error(result.error);
      return result.content;
    },
  });
  // The host's JSON Schema is whatever it declared; a provider's strict mode may refuse it.
  return { ...hostDefined, strict: false };
}
