/**
 * The `mcp` handler (spec §4.3): the endpoint is a tool of an MCP server, called through
 * `@modelcontextprotocol/sdk`'s `Client` over Streamable HTTP. `handler.server` is the server's
 * URL (`http:` or `https:`), checked against `networkAccess` like an http handler's; the input is
 * the tool's `arguments`; the output is the tool's `structuredContent`, else its first text
 * content read as JSON. One connection per call, closed after it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LavsError } from '../errors/lavs-error.js';
import type { McpHandler } from '../manifest/manifest-types.js';
import { checkNetworkAccess } from '../permissions/network-access-policy.js';
import type { HandlerDiagnostics, HandlerRun } from './handler-run.js';

/**
 * Runs an mcp handler.
 *
 * @returns the tool's structured content, or its text content parsed as JSON
 * @throws `LavsError` `PERMISSION_DENIED` (`networkAccess`), `TIMEOUT` (past `timeoutMs`),
 *   `HANDLER_ERROR` (the server unreachable, the tool failed or answered no JSON)
 */
export async function runMcpHandler(
  handler: McpHandler,
  run: HandlerRun,
  diagnostics: HandlerDiagnostics,
): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(handler.server);
  } catch (error) {
    throw new LavsError('HANDLER_ERROR', 'the mcp server is not a URL', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LavsError('HANDLER_ERROR', 'the mcp server must be an http(s) URL');
  checkNetworkAccess(run.permissions.networkAccess, url);
  const timeout = AbortSignal.timeout(run.timeoutMs);
  const signal = AbortSignal.any([run.signal, timeout]);
  const client = new Client({ name: 'lavs-runtime', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(url), { signal });
    const result = await client.callTool(
      { name: handler.tool, arguments: (run.input ?? {}) as Record<string, unknown> },
      undefined,
      { signal, timeout: run.timeoutMs },
    );
    const texts = Array.isArray(result.content)
      ? result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      : [];
    if (result.isError === true) {
      diagnostics(texts.join('\n'));
      throw new LavsError('HANDLER_ERROR', `the mcp tool ${handler.tool} failed`);
    }
    if (result.structuredContent !== undefined) return result.structuredContent;
    if (texts.length === 0) return null;
    try {
      return JSON.parse(texts[0]!);
    } catch (error) {
      throw new LavsError('HANDLER_ERROR', 'the mcp tool did not answer JSON', { cause: error });
    }
  } catch (error) {
    if (LavsError.isInstance(error)) throw error;
    if (timeout.aborted)
      throw new LavsError(
        'TIMEOUT',
        `${run.endpointId} ran past ${run.timeoutMs} ms and was stopped`,
        {
          data: { permission: 'maxExecutionTime', timeoutMs: run.timeoutMs },
        },
      );
    diagnostics(error instanceof Error ? error.message : String(error));
    throw new LavsError('HANDLER_ERROR', 'the mcp server could not be called', { cause: error });
  } finally {
    await client.close().catch(() => {});
  }
}
