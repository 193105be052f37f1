/**
 * The one table that maps `A2uiError` codes to what an MCP client gets, in both directions.
 * Refusals of an HTTP request as a whole (authentication, body size, media type, another
 * principal's session) are JSON-RPC error responses with the table's HTTP status; failures of a
 * tool call the agent could not take (an invalid action, a busy agent) are tool results with
 * `isError: true` — MCP's own rule, so that a model reads them and can correct its call.
 * `docs/errors.md` ("MCP") documents it.
 */
import { A2uiError, type A2uiErrorCode } from '@a2ui-ts/core';
import { toHttpError } from '@a2ui-ts/core/host';

/** JSON-RPC `error.code` of a refusal, by the `A2uiError` code behind it. */
export const MCP_JSON_RPC_CODES: Readonly<Partial<Record<A2uiErrorCode, number>>> = {
  INVALID_JSON: -32700,
  VALIDATION_FAILED: -32602,
  MESSAGE_TOO_LARGE: -32600,
  METHOD_NOT_ALLOWED: -32600,
  /** The SDK's own code for an unknown `Mcp-Session-Id` (HTTP 404: initialize again). */
  CONNECTION_CLOSED: -32001,
  FORBIDDEN: -32002,
  UNAUTHORIZED: -32003,
  LIMIT_EXCEEDED: -32005,
  TIMEOUT: -32006,
  INTERNAL_ERROR: -32603,
};

/** A JSON-RPC error response without a request id (the request was not read as one). */
export interface McpErrorResponseBody {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string; data: Record<string, unknown> };
}

/**
 * The HTTP response refusing a request: core's `toHttpError` status and headers, its body as a
 * JSON-RPC error whose `data` is the A2UI error (`code`, `path`, `retryAfterMs`…). An error
 * that is not an `A2uiError` is answered `INTERNAL_ERROR` without its text.
 */
export function toMcpErrorResponse(error: unknown): Response {
  const { status, headers, body } = toHttpError(error);
  const code = body.error.code as A2uiErrorCode;
  const payload: McpErrorResponseBody = {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: MCP_JSON_RPC_CODES[code] ?? (status >= 500 ? -32603 : -32600),
      message: body.error.message,
      data: { ...body.error },
    },
  };
  return new Response(JSON.stringify(payload), {
    status,
    headers: { ...headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}

/** A `CallToolResult` that reports a failure (`isError: true`). */
export interface McpToolErrorResult {
  [key: string]: unknown;
  isError: true;
  content: { type: 'text'; text: string }[];
  structuredContent: { error: Record<string, unknown> };
}

/**
 * The tool result of a call the agent did not take: `isError`, the error's message as text for
 * the model, and the A2UI error as `structuredContent.error` (`code`, `message`, `path`,
 * `retryAfterMs`) for programs. Internal failures say only that the server failed.
 */
export function toToolErrorResult(error: unknown): McpToolErrorResult {
  const { body } = toHttpError(error);
  const data = A2uiError.isInstance(error) ? error.data : undefined;
  const detail: Record<string, unknown> = { ...body.error };
  if (typeof data?.retryAfterMs === 'number') detail.retryAfterMs = data.retryAfterMs;
  return {
    isError: true,
    content: [{ type: 'text', text: `${body.error.code}: ${body.error.message}` }],
    structuredContent: { error: detail },
  };
}

/**
 * The `A2uiError` of a tool result with `isError: true` (the client side of
 * {@link toToolErrorResult}); a result from a server that is not ours becomes
 * `TRANSPORT_ERROR` with its text.
 */
export function fromToolErrorResult(result: {
  content?: unknown;
  structuredContent?: unknown;
}): A2uiError {
  const structured = result.structuredContent as { error?: Record<string, unknown> } | undefined;
  const error = structured?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    const { code, message, path, ...data } = error;
    return new A2uiError(code as A2uiErrorCode, message as string, {
      ...(typeof path === 'string' ? { path } : {}),
      data,
    });
  }
  const texts = Array.isArray(result.content)
    ? result.content.flatMap((block: { type?: unknown; text?: unknown }) =>
        block?.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
      )
    : [];
  return new A2uiError('TRANSPORT_ERROR', texts.join('\n') || 'The tool call failed.');
}
