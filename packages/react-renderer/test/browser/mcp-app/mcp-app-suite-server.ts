/**
 * The MCP Apps suite's server on 127.0.0.1 (ephemeral port): the bundled page, the sandbox proxy
 * page at `/mcp-app-sandbox.html`, and a real MCP server built only from the SDK (stateless
 * Streamable HTTP at `/mcp`) serving the two apps as `ui://` resources and two tools. Every
 * request path and tool call is recorded.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { build } from 'esbuild';
import {
  MCP_APP_MIME_TYPE,
  MCP_APP_SANDBOX_PROXY_HEADERS,
  MCP_APP_SANDBOX_PROXY_HTML,
} from '../../../src/mcp-app/index.js';
import { DICE_APP_HTML, HOSTILE_APP_HTML } from './test-apps.js';

const here = dirname(fileURLToPath(import.meta.url));

/** What every roll of the suite's die shows. */
export const DIE_FACE = 4;

export interface McpAppSuiteServer {
  readonly url: string;
  /** Tool calls the MCP server ran, by name, in order. */
  readonly toolCalls: string[];
  /** Every request path the HTTP server saw. */
  readonly paths: string[];
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>MCP Apps in A2UI</title><link rel="stylesheet" href="/page.css"></head>
<body><h1 id="host-marker">Host page</h1><div id="app"></div><script type="module" src="/page.js"></script></body>
</html>`;

/** The strict policy of `/csp`: no eval, no inline script, frames and fetches same-origin. */
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-src 'self'";

function createAppsServer(toolCalls: string[]): McpServer {
  const server = new McpServer({ name: 'mcp-app-suite-server', version: '1.0.0' });
  const app = (name: string, uri: string, html: string) =>
    server.registerResource(name, uri, { mimeType: MCP_APP_MIME_TYPE }, async () => ({
      contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: html }],
    }));
  app('dice', 'ui://dice/app', DICE_APP_HTML);
  app('hostile', 'ui://hostile/app', HOSTILE_APP_HTML);
  server.registerTool('roll_dice', { description: 'Rolls one die.' }, async () => {
    toolCalls.push('roll_dice');
    return {
      content: [{ type: 'text', text: String(DIE_FACE) }],
      structuredContent: { value: DIE_FACE },
    };
  });
  server.registerTool('delete_everything', { description: 'What no app may call.' }, async () => {
    toolCalls.push('delete_everything');
    return { content: [{ type: 'text', text: 'deleted' }] };
  });
  return server;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startMcpAppSuiteServer(): Promise<McpAppSuiteServer> {
  const outdir = await mkdtemp(join(tmpdir(), 'a2ui-mcp-app-'));
  await build({
    entryPoints: { page: join(here, 'mcp-app-page.tsx') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outdir,
    conditions: ['@a2ui-ts/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    target: 'es2022',
    logLevel: 'silent',
  });
  const files: Record<string, { type: string; body: Buffer }> = {
    '/page.js': { type: 'text/javascript', body: await readFile(join(outdir, 'page.js')) },
    '/page.css': { type: 'text/css', body: await readFile(join(outdir, 'page.css')) },
  };
  const toolCalls: string[] = [];
  const paths: string[] = [];
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    paths.push(path);
    if (path === '/mcp') {
      // Stateless Streamable HTTP: one SDK server and transport per request.
      const mcp = createAppsServer(toolCalls);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(
        request,
        response,
        request.method === 'POST' ? await readJson(request) : undefined,
      );
      return;
    }
    if (path === '/mcp-app-sandbox.html') {
      response.writeHead(200, { ...MCP_APP_SANDBOX_PROXY_HEADERS });
      response.end(MCP_APP_SANDBOX_PROXY_HTML);
      return;
    }
    const file = files[path];
    if (file) {
      response.writeHead(200, { 'content-type': file.type });
      response.end(file.body);
      return;
    }
    if (path === '/' || path === '/csp') {
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
      // No 'unsafe-eval': the MCP Apps catalogs' validators must be precompiled.
      if (path === '/csp') headers['content-security-policy'] = PAGE_CSP;
      response.writeHead(200, headers);
      response.end(PAGE);
      return;
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    toolCalls,
    paths,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(outdir, { recursive: true, force: true });
    },
  };
}
