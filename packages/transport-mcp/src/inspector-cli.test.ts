/**
 * The MCP Inspector's CLI mode (`@modelcontextprotocol/inspector-cli`, the official debugging
 * client, run as its own process) against our servers: the `a2ui-mcp-server` bin over stdio, and
 * `createMcpServer` over Streamable HTTP on 127.0.0.1. The Inspector declares no A2UI (and its
 * `--tool-metadata` sends only strings, so it cannot declare any per call either): both servers
 * run with `undeclaredClients: 'a2ui'`, as a server meant for generic hosts would.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { afterEach, expect, it } from 'vitest';
import { type Listening, listen } from '../test/listen.js';
import { createCounterAgent } from './counter-agent.js';
import { findA2uiPayloads } from './protocol/mcp-a2ui.js';
import { createMcpServer, type McpServerApp } from './server/create-mcp-server.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cliDir = join(
  dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json'),
  ),
  'build',
);

/**
 * Runs the Inspector CLI and parses what it prints (JSON on stdout). Its working directory is
 * its own `build/`: the CLI reads `../package.json` relative to the working directory to name
 * itself, and fails anywhere else.
 */
async function inspect(args: readonly string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(cliDir, 'index.js'), ...args],
    {
      cwd: cliDir,
    },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

const stdioTarget = [process.execPath, join(packageDir, 'bin/a2ui-mcp-server.js'), '--a2ui-always'];

let node: (Listening & { app: McpServerApp }) | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

async function httpTarget(): Promise<string[]> {
  const app = createMcpServer({ agent: createCounterAgent(), undeclaredClients: 'a2ui' });
  node = Object.assign(await listen(app), { app });
  return [`${node.url}/mcp`, '--transport', 'http'];
}

const targets = {
  stdio: async () => stdioTarget,
  'Streamable HTTP': httpTarget,
} as const;

for (const [name, target] of Object.entries(targets)) {
  it(`lists the A2UI tools over ${name}`, async () => {
    const listed = await inspect([...(await target()), '--method', 'tools/list']);
    const tools = listed.tools as { name: string }[];
    expect(tools.map((tool) => tool.name)).toEqual([
      'a2ui_open',
      'a2ui_action',
      'a2ui_error',
      'add_one',
      'reset',
    ]);
  });

  it(`gets the A2UI embedded resource of a tool call over ${name}`, async () => {
    const result = await inspect([
      ...(await target()),
      '--method',
      'tools/call',
      '--tool-name',
      'a2ui_open',
    ]);
    const content = result.content as { type: string; resource?: Record<string, unknown> }[];
    expect(content[0]).toEqual({ type: 'text', text: expect.stringContaining('counter') });
    expect(content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'a2ui://counter', mimeType: 'application/a2ui+json' },
    });
    const payloads = findA2uiPayloads(content);
    expect(payloads).toHaveLength(1);
    const messages = payloads[0]!.ok ? (payloads[0]!.payload as unknown[]) : [];
    expect(messages[0]).toEqual({
      version: 'v0.9',
      createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID },
    });
    expect(messages).toContainEqual({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'counter', path: '/label', value: 'Clicked 0 times' },
    });
  });
}
