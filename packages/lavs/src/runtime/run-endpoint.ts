/**
 * One handler run of an endpoint (spec §6.3): its execution time settled (the lowest of the
 * script's `timeout` and `maxExecutionTime`, else the runtime's default), the handler of its
 * type run, and its output checked against `schema.output`.
 */
import { LavsError } from '../errors/lavs-error.js';
import type { McpStdioClients } from '../handlers/mcp-stdio-clients.js';
import { runFunctionHandler } from '../handlers/run-function-handler.js';
import { runHttpHandler } from '../handlers/run-http-handler.js';
import { runMcpHandler } from '../handlers/run-mcp-handler.js';
import { runScriptHandler } from '../handlers/run-script-handler.js';
import type { LoadedEndpoint } from '../manifest/parse-manifest.js';
import { describeIssues } from '../manifest/schema-issues.js';

/** What {@link runEndpoint} needs beside the endpoint. */
export interface EndpointRun {
  /** The service directory. */
  readonly baseDir: string;
  /** The validated input. */
  readonly input: unknown;
  /** Stops the handler. */
  readonly signal: AbortSignal;
  /** Execution time when the manifest sets none, in milliseconds. */
  readonly defaultTimeoutMs: number;
  readonly maxOutputBytes: number;
  readonly killGraceMs: number;
  /** Collects what the handler said, for the audit log. */
  readonly detail: string[];
  /** The runtime's stdio MCP servers. */
  readonly mcpStdioClients: McpStdioClients;
}

/**
 * Runs `found`'s handler.
 *
 * @returns its output, valid against `schema.output`
 * @throws `LavsError` from the handler, or `INTERNAL_ERROR` for output that breaks the schema
 *   (`data.errors`)
 */
export async function runEndpoint(found: LoadedEndpoint, run: EndpointRun): Promise<unknown> {
  const { endpoint, permissions } = found;
  const handler = endpoint.handler;
  const declared = [
    handler.type === 'script' ? handler.timeout : undefined,
    permissions.maxExecutionTime,
  ].filter((limit): limit is number => limit !== undefined);
  const handlerRun = {
    baseDir: run.baseDir,
    endpointId: endpoint.id,
    input: run.input,
    permissions,
    timeoutMs: declared.length > 0 ? Math.min(...declared) : run.defaultTimeoutMs,
    maxOutputBytes: run.maxOutputBytes,
    killGraceMs: run.killGraceMs,
    signal: run.signal,
  };
  const say = (text: string) => run.detail.push(text);
  let output: unknown;
  if (handler.type === 'script') output = await runScriptHandler(handler, handlerRun, say);
  else if (handler.type === 'function') output = await runFunctionHandler(handler, handlerRun, say);
  else if (handler.type === 'http') output = await runHttpHandler(handler, handlerRun);
  else output = await runMcpHandler(handler, handlerRun, say, run.mcpStdioClients);
  const issues = found.checkOutput(output);
  if (issues.length > 0) {
    say(`output breaks schema.output: ${describeIssues(issues)}`);
    throw new LavsError('INTERNAL_ERROR', 'Invalid output from handler', {
      data: { errors: issues },
    });
  }
  return output;
}
