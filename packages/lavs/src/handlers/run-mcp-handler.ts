/**
 * The `mcp` handler (spec §4.3): the endpoint is a tool of an MCP server, called through
 * `@modelcontextprotocol/sdk`'s `Client`; the input is the tool's `arguments`; the output is the
 * tool's `structuredContent`, else its first text content read as JSON. `handler.server` is
 * either a Streamable HTTP URL (`http:`/`https:`), checked against `networkAccess` like an http
 * handler's and connected once per call, or a local server over stdio (`{ command, args }`),
 * started once and reused (`mcp-stdio-clients.ts`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LavsError } from '../errors/lavs-error.js';
import type { McpHandler } from '../manifest/manifest-types.js';
import { checkNetworkAccess } from '../permissions/network-access-policy.js';
import type { HandlerDiagnostics, HandlerRun } from './handler-run.js';
import type { McpStdioClients } from './mcp-stdio-clients.js';

/**
 * Runs an mcp handler.
 *
 * @param stdioClients - the runtime's stdio servers (for a `{ command }` server)
 * @returns the tool's structured content, or its text content parsed as JSON
 * @throws `LavsError` `PERMISSION_DENIED` (`networkAccess`), `TIMEOUT` (past `timeoutMs`; a stdio
 *   server is stopped with it), `HANDLER_ERROR` (the server unreachable or not starting, the tool
 *   failed or answered no JSON)
 */
export async function runMcpHandler(
  handler: McpHandler,
  run: HandlerRun,
  diagnostics: HandlerDiagnostics,
  stdioClients: McpStdioClients,
): Promise<unknown> {
  const { server } = handler;
  const timeout = AbortSignal.timeout(run.timeoutMs);
  const signal = AbortSignal.any([run.signal, timeout]);
  let httpClient: Client | undefined;
  let client: Client | undefined;
  try {
    if (typeof server === 'string') {
      httpClient = new Client({ name: 'lavs-runtime', version: '1.0.0' });
      await httpClient.connect(new StreamableHTTPClientTransport(httpServerUrl(server, run)), {
        signal,
      });
      client = httpClient;
    } else client = await stdioClients.client(server, signal, diagnostics);
    const result = await client.callTool(
      { name: handler.tool, arguments: (run.input ?? {}) as Record<string, unknown> },
      undefined,
      { signal, timeout: run.timeoutMs },
    );
    return toolOutput(result, handler.tool, diagnostics);
  } catch (error) {
    if (LavsError.isInstance(error)) throw error;
    if (timeout.aborted) {
      // Without a client the server never started, and `client()` has stopped it already.
      if (typeof server !== 'string' && client !== undefined) stdioClients.stop(server, client);
      throw new LavsError(
        'TIMEOUT',
        `${run.endpointId} ran past ${run.timeoutMs} ms and was stopped`,
        { data: { permission: 'maxExecutionTime', timeoutMs: run.timeoutMs } },
      );
    }
    diagnostics(error instanceof Error ? error.message : String(error));
    if (typeof server !== 'string' && stdioClients.stderrOf(server) !== '')
      diagnostics(stdioClients.stderrOf(server));
    throw new LavsError('HANDLER_ERROR', 'the mcp server could not be called', { cause: error });
  } finally {
    await httpClient?.close().catch(() => {});
  }
}

/** The URL of an HTTP server, once `networkAccess` allows its host. */
function httpServerUrl(server: string, run: HandlerRun): URL {
  let url: URL;
  try {
    url = new URL(server);
  } catch (error) {
    throw new LavsError('HANDLER_ERROR', 'the mcp server is not a URL', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LavsError('HANDLER_ERROR', 'the mcp server must be an http(s) URL');
  checkNetworkAccess(run.permissions.networkAccess, url);
  return url;
}

/** The endpoint's output from a tool's result. */
function toolOutput(
  result: Awaited<ReturnType<Client['callTool']>>,
  tool: string,
  diagnostics: HandlerDiagnostics,
): unknown {
  const texts = Array.isArray(result.content)
    ? result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
    : [];
  if (result.isError === true) {
    diagnostics(texts.join('\n'));
    throw new LavsError('HANDLER_ERROR', `the mcp tool ${tool} failed`);
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (texts.length === 0) return null;
  try {
    return JSON.parse(texts[0]!);
  } catch (error) {
    throw new LavsError('HANDLER_ERROR', 'the mcp tool did not answer JSON', { cause: error });
  }
}
