/**
 * The `a2ui-mcp-server` command as a desktop MCP host runs it: spawned by the SDK's
 * `StdioClientTransport` through its bin entry, driven by the stock `Client`.
 */
import { readFile } from 'node:fs/promises';
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
