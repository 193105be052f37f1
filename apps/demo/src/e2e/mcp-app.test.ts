/**
 * The MCP Apps example end to end in Chromium: the built demo renders "Catch the dot" in the
 * double-iframe sandbox; catching the dot updates the sibling Score Text through the data model,
 * and the `scored` action reaches the agent, whose best score comes back as a data-model update.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpAppAgent } from '../agents/mcp-app-agent.js';
import { type DemoHarness, inspectorCounts, startHarness } from './demo-harness.js';

/** The game's frame: the inner (sandboxed) frame of the surface's McpApp. */
async function gameFrame(page: Page): Promise<Frame> {
  const dot = page
    .frameLocator('iframe.a2ui-mcp-app-frame')
    .frameLocator('iframe')
    .locator('#dot:not([disabled])');
  await dot.waitFor();
  const frame = page.frames().find((candidate) => candidate.url() === 'about:srcdoc');
  if (!frame) throw new Error('The MCP App frame is missing.');
  return frame;
}

describe('MCP App example in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({
      agents: [
        {
          id: 'mcp-app',
          label: 'MCP App',
          description: 'An MCP App in A2UI.',
          agent: createMcpAppAgent(),
        },
      ],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("drives the sibling Score and the agent's best from the sandboxed game", async () => {
    const { page, pageErrors } = await harness.open('/?agent=mcp-app&transport=sse-jsonrpc');
    const card = page.getByTestId('surface-mcp-app-game').locator('.a2ui-surface');
    await card.getByText('Score: 0', { exact: true }).waitFor();
    const game = await gameFrame(page);
    expect(await game.evaluate(() => window.origin)).toBe('null');
    await game.click('#dot');
    await card.getByText('Score: 1', { exact: true }).waitFor();
    await game.click('#dot');
    await card.getByText('Score: 2', { exact: true }).waitFor();
    await card.getByText('Best, kept by the agent: 2', { exact: true }).waitFor();
    const scored = harness.logs.filter(
      (record) => record.event === 'action' && record.name === 'scored',
    );
    expect(scored.length).toBeGreaterThanOrEqual(1);
    await harness.screenshot(page, 'mcp-app');
    expect((await inspectorCounts(page)).errors).toBe(0);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
