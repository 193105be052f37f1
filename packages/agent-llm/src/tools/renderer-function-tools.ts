/**
 * Renderer functions (A2UI v1.0 `callRendererFunction`) offered to the model as tools: the model
 * calls one, the call travels to the page through `connection.callRendererFunction`, and the
 * page's answer (or its refusal) becomes the tool result. Only on a connection that negotiated
 * v1.0 — older versions carry no function calls.
 */
import { type Connection, supportsFunctionCalls } from '@a2ui-ts/core';
import { dynamicTool, jsonSchema, type ToolSet } from 'ai';

/** A function the renderer exposes to agents (`allowedCallers` `agentOnly` or `rendererOrAgent`). */
export interface LlmRendererFunction {
  /** The catalog function's name; also the tool's name (`[a-zA-Z0-9_-]{1,64}`). */
  readonly name: string;
  /** What it returns, for the model (e.g. "The user's IANA time zone, e.g. Europe/Paris."). */
  readonly description: string;
  /** The catalog that defines it (the renderer resolves the function by it). */
  readonly catalogId: string;
  /** JSON Schema of its arguments. @default `{type: "object"}` (no arguments) */
  readonly parameters?: Record<string, unknown>;
  /** Longest wait for the renderer's answer, in milliseconds. @default 30000 (core's) */
  readonly timeoutMs?: number;
}

/** Tool names every provider accepts (OpenAI's rule is the strictest). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * AI SDK tools for `functions` on `connection`: none unless it negotiated v1.0. A function whose
 * name is `taken` (the render tool, an app tool) or that no provider would accept is left out.
 *
 * @returns the tools and the names that were left out
 *
 * @example
 * ```ts
 * const { tools } = createRendererFunctionTools(connection, [
 *   { name: 'getLocale', description: 'The user’s locale', catalogId: DEMO_CATALOG_ID },
 * ], new Set(['render_a2ui']));
 * ```
 */
export function createRendererFunctionTools(
  connection: Connection,
  functions: readonly LlmRendererFunction[],
  taken: ReadonlySet<string>,
): { tools: ToolSet; skipped: string[] } {
  const tools: ToolSet = {};
  const skipped: string[] = [];
  if (functions.length === 0 || !supportsFunctionCalls(connection)) return { tools, skipped };
  for (const definition of functions) {
    const { name } = definition;
    if (taken.has(name) || !TOOL_NAME.test(name) || name in tools) {
      skipped.push(name);
      continue;
    }
    const offered = dynamicTool({
      description: definition.description,
      inputSchema: jsonSchema(definition.parameters ?? { type: 'object', properties: {} }),
      async execute(args, { abortSignal }) {
        // A refusal or a timeout throws A2uiError (FUNCTION_CALL_FAILED, TIMEOUT): the model sees
        // it as the tool's error and carries on without the value.
        return connection.callRendererFunction(name, (args ?? {}) as Record<string, unknown>, {
          catalogId: definition.catalogId,
          signal: abortSignal,
          ...(definition.timeoutMs === undefined ? {} : { timeoutMs: definition.timeoutMs }),
        });
      },
    });
    tools[name] = { ...offered, strict: false };
  }
  return { tools, skipped };
}
