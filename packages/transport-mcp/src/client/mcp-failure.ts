/**
 * What a failed MCP request means for a client transport: retry later (the network, 5xx, 408,
 * 429, a busy agent), start a new session (the server no longer knows this one: HTTP 404), or a
 * refusal a retry cannot fix (401, 403, a JSON-RPC error). The SDK reports an HTTP refusal as
 * `StreamableHTTPError` (`code` = status, the body in its message) and a JSON-RPC error as
 * `McpError` (`code`, `data`); our server puts the `A2uiError` code in `data.code`.
 */
import { A2uiError, type A2uiErrorCode, type TroubleCause } from '@a2ui-ts/core';
import { errorOfHttpStatus, isRetryableStatus, troubleCauseOf } from '@a2ui-ts/core/link';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** How a failure is handled. */
export type McpFailure =
  | { kind: 'retry'; reason: string; cause?: TroubleCause; retryAfterMs?: number }
  | { kind: 'session-gone'; reason: string }
  | { kind: 'refused'; error: A2uiError };

/** The JSON-RPC error object inside a `StreamableHTTPError`'s message, if there is one. */
function rpcErrorIn(
  message: string,
): { code?: unknown; message?: unknown; data?: unknown } | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(message.slice(start)) as { error?: Record<string, unknown> };
    return body.error;
  } catch {
    return undefined;
  }
}

/** The `A2uiError` a JSON-RPC error stands for (our server's `data.code`, or `TRANSPORT_ERROR`). */
function errorOfRpc(rpc: { code?: unknown; message?: unknown; data?: unknown }): A2uiError {
  const data = (rpc.data ?? {}) as Record<string, unknown>;
  const message = typeof data.message === 'string' ? data.message : String(rpc.message ?? '');
  const code = typeof data.code === 'string' ? (data.code as A2uiErrorCode) : 'TRANSPORT_ERROR';
  return new A2uiError(code, message || 'The MCP server refused the request.', {
    ...(typeof data.path === 'string' ? { path: data.path } : {}),
    data: { ...data, rpcCode: rpc.code },
  });
}

/**
 * Classifies an error thrown by the SDK `Client` (a request or `connect`).
 *
 * @param error - what the SDK threw
 * @param what - the request, for the reason ("tools/call a2ui_action")
 */
export function classifyMcpFailure(error: unknown, what: string): McpFailure {
  if (A2uiError.isInstance(error)) {
    // A tool error result: a busy agent is retried; a connection the server forgot is a new session.
    if (error.code === 'LIMIT_EXCEEDED')
      return {
        kind: 'retry',
        reason: `${what}: ${error.message}`,
        cause: troubleCauseOf(error.data),
        ...(typeof error.data?.retryAfterMs === 'number'
          ? { retryAfterMs: error.data.retryAfterMs }
          : {}),
      };
    if (error.code === 'CONNECTION_CLOSED') return { kind: 'session-gone', reason: error.message };
    return { kind: 'refused', error };
  }
  if (error instanceof McpError) {
    const refused = errorOfRpc({ code: error.code, message: error.message, data: error.data });
    if (refused.code === 'LIMIT_EXCEEDED')
      return {
        kind: 'retry',
        reason: `${what}: ${refused.message}`,
        cause: troubleCauseOf(refused.data),
      };
    // -32001 is the SDK's request timeout, and a closed connection: nothing is known to have arrived.
    if (error.code === -32001 || error.code === -32000)
      return { kind: 'retry', reason: `${what} failed: ${error.message}` };
    return { kind: 'refused', error: refused };
  }
  const status = (error as { code?: unknown } | undefined)?.code;
  const text = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number' && status >= 400) {
    if (status === 404) return { kind: 'session-gone', reason: `${what} answered HTTP 404` };
    const rpc = rpcErrorIn(text);
    if (isRetryableStatus(status)) {
      const data = (rpc?.data ?? {}) as Record<string, unknown>;
      return {
        kind: 'retry',
        reason: `${what} answered HTTP ${status}`,
        ...(data.code === 'LIMIT_EXCEEDED' ? { cause: troubleCauseOf(data) } : {}),
        ...(typeof data.retryAfterMs === 'number' ? { retryAfterMs: data.retryAfterMs } : {}),
      };
    }
    return { kind: 'refused', error: rpc ? errorOfRpc(rpc) : errorOfHttpStatus(status, text) };
  }
  // fetch failed, the socket closed, an abort: nothing is known to have arrived.
  return { kind: 'retry', reason: `${what} failed: ${text}` };
}
