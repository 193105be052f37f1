/**
 * The `a2ui-mcp-server` command as a desktop MCP host runs it: spawned by the SDK's
 * `StdioClientTransport` through its bin entry, driven by the stock `Client`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, expect, it } from 'vitest';
import { findA2uiPayloads } from './protocol/mcp-a2ui.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
});

/** The A2UI messages of a tool result. */
const messagesOf = (result: Record<string, unknown>) =>
  findA2uiPayloads(result.content as unknown[]).flatMap((found) =>
    found.ok ? (found.payload as unknown[]) : [],
  );

it('is the package bin, and serves the counter to a host that launches it', async () => {
  const manifest = JSON.parse(await readFile(`${packageDir}/package.json`, 'utf8'));
  expect(manifest.bin).toEqual({ 'a2ui-mcp-server': './bin/a2ui-mcp-server.js' });
  const capabilities = {
    a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
  };
  client = new Client({ name: 'desktop-host', version: '1.0.0' }, { capabilities } as never);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [manifest.bin['a2ui-mcp-server']],
      cwd: packageDir,
      stderr: 'pipe',
    }),
  );
  expect(client.getServerVersion()).toEqual({ name: 'a2ui-mcp-server', version: '0.1.0' });
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  expect(tools).toEqual(['a2ui_open', 'a2ui_action', 'a2ui_error', 'add_one', 'reset']);

  const opened = messagesOf(await client.callTool({ name: 'a2ui_open', arguments: {} }));
  expect(opened[0]).toEqual({
    version: 'v0.9',
    createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID },
  });
  // The MCP Apps spelling and the guide's: the same action.
  await client.callTool({ name: 'add_one', arguments: {} });
  const twice = messagesOf(
    await client.callTool({ name: 'a2ui_action', arguments: { name: 'add_one' } }),
  );
  expect(twice).toContainEqual({
    version: 'v0.9',
    updateDataModel: { surfaceId: 'counter', path: '/label', value: 'Clicked 2 times' },
  });
  const read = await client.readResource({ uri: 'a2ui://counter' });
  const state = JSON.parse((read.contents[0] as { text: string }).text);
  expect(state.at(-1).updateDataModel.value).toEqual({ label: 'Clicked 2 times', count: 2 });
});

/** Starts the bin as a host would, and waits for its answer to `initialize` (the server is up). */
async function startBin(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bin/a2ui-mcp-server.js'], {
    cwd: packageDir,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout! });
  child.stdin!.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'host', version: '1' },
      },
    })}\n`,
  );
  const [line] = (await once(lines, 'line')) as [string];
  expect(JSON.parse(line)).toMatchObject({
    id: 1,
    result: { serverInfo: { name: 'a2ui-mcp-server' } },
  });
  return child;
}

/** The exit code once the process has ended, or 'running' if it has not within `ms`. */
const exitOf = (child: ChildProcess, ms: number) =>
  Promise.race([
    once(child, 'exit').then(([code]) => code as number | null),
    new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms).unref()),
  ]);

/** Pids whose parent is `pid` (Linux `/proc`). */
async function childrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The parent pid is the second field after the parenthesised command name.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === pid) found.push(Number(entry));
  }
  return found;
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('exits when the host closes its stdin, as MCP stdio hosts end a server', async () => {
  const child = await startBin();
  child.stdin!.end();
  // Generous: a loaded machine; 'running' means it would have waited for a signal forever.
  const code = await exitOf(child, 120_000);
  if (code === 'running') child.kill('SIGKILL');
  expect(code).toBe(0);
});

it.skipIf(process.platform !== 'linux')(
  'passes a SIGTERM on to the server it runs, so none outlives it',
  async () => {
    const child = await startBin();
    const servers = await childrenOf(child.pid!);
    expect(servers).toHaveLength(1);
    child.kill('SIGTERM');
    await exitOf(child, 120_000);
    await expect.poll(() => isRunning(servers[0]!)).toBe(false);
    child.stdin!.destroy();
  },
);
