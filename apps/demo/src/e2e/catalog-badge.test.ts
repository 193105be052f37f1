/**
 * A surface card names its catalog in a short badge (the full id on hover), the MCP Apps catalog
 * too: its full URL in the badge crowded the card header and, at 390 px, took a line of its own.
 */
import { MCP_APP_CATALOG_ID } from '@a2ui-ts/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpAppAgent } from '../agents/mcp-app-agent.js';
import { type DemoHarness, startHarness } from './demo-harness.js';

let harness: DemoHarness;

beforeAll(async () => {
  harness = await startHarness({
    agents: [
      { id: 'mcp-app', label: 'MCP App', description: 'An MCP App.', agent: createMcpAppAgent() },
    ],
  });
});
afterAll(async () => {
  await harness?.close();
});

it('the MCP App card names its catalog "mcp-apps", the full id on hover', async () => {
  const { page, pageErrors } = await harness.open('/?agent=mcp-app&transport=sse-jsonrpc', {
    width: 390,
    height: 844,
  });
  const badge = page.getByTestId('surface-mcp-app-game').locator('.surface-header .badge').first();
  await badge.waitFor();
  expect(await badge.textContent()).toBe('mcp-apps');
  expect(await badge.getAttribute('title')).toBe(MCP_APP_CATALOG_ID);
  expect(pageErrors).toEqual([]);
  await page.close();
});
