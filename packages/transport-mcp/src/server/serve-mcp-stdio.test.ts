/**
 * The stdio entry in a child process, driven by the SDK's stock `Client` over its stdio
 * transport, exactly as a desktop MCP host launches a server.
 */
import { fileURLToPath } from 'node:url';
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, expect, it } from 'vitest';
import { findA2uiPayloads } from '../protocol/mcp-a2ui.js';

const fixture = fileURLToPath(new URL('../../test/stdio-agent.ts', import.meta.url));
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
});

async function launch(capabilities: Record<string, unknown>): Promise<Client> {
  client = new Client({ name: 'desktop-host', version: '1.0.0' }, { capabilities } as never);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@a2ui-ts/source', '--import', 'tsx', fixture],
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stderr: 'inherit',
    }),
  );
  return client;
}

it('serves the agent over stdio with A2UI for a client that declared it in initialize', async () => {
  const stdio = await launch({
    a2ui: { clientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
  });
  const opened = await stdio.callTool({ name: 'a2ui_open', arguments: {} });
  const [payload] = findA2uiPayloads(opened.content as unknown[]);
  expect(payload).toMatchObject({ ok: true, uri: 'a2ui://form' });
  expect((payload as { payload: unknown[] }).payload).toHaveLength(2);
  const acted = await stdio.callTool({ name: 'a2ui_action', arguments: { name: 'ping' } });
  expect(findA2uiPayloads(acted.content as unknown[])).toEqual([
    {
      ok: true,
      uri: 'a2ui://form',
      payload: [
        { version: 'v0.9', updateDataModel: { surfaceId: 'form', path: '/last', value: 'ping' } },
      ],
    },
  ]);
});

it('answers a stdio host that declared no A2UI with text alone', async () => {
  const stdio = await launch({});
  const opened = await stdio.callTool({ name: 'a2ui_open', arguments: {} });
  expect(opened.content).toEqual([{ type: 'text', text: 'Updated UI: form.\nHello from stdio' }]);
});
