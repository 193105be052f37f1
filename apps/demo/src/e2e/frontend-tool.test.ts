/**
 * The frontend-tool example end to end in Chromium: over both AG-UI transports the agent asks the
 * page for its time zone, the page's `getTimeZone` tool answers with the next run, and the agent
 * shows it; over SSE + JSON-RPC, which carries no tool calls, the agent says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimeZoneAgent } from '../agents/time-zone-agent.js';
import { type DemoHarness, inspectorCounts, startHarness } from './demo-harness.js';

describe('frontend tool in Chromium', () => {
  let harness: DemoHarness;

  beforeAll(async () => {
    harness = await startHarness({
      agents: [
        {
          id: 'time-zone',
          label: 'Time zone',
          description: 'Frontend tool.',
          agent: createTimeZoneAgent({ now: () => new Date('2026-09-22T12:00:00Z') }),
        },
      ],
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(['agui-state', 'agui-activity'])(
    'asks the page for its time zone over %s and answers with the next run',
    async (transportId) => {
      const { page, pageErrors } = await harness.open(`/?agent=time-zone&transport=${transportId}`);
      const card = page.getByTestId('surface-local-time').locator('.a2ui-surface');
      await card.getByText('The agent does not know your time zone yet.').waitFor();
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      await card.getByRole('button', { name: 'Ask my browser' }).click();
      await card
        .getByText(
          new RegExp(
            `^Your browser says you are in ${zone.replace('/', '\\/')}, where it is \\d{2}:\\d{2}\\.$`,
          ),
        )
        .waitFor();
      // One click, one action: the run the tool result started delivered no second one.
      const asked = harness.logs.filter(
        (record) =>
          record.event === 'action' &&
          record.name === 'ask-time-zone' &&
          record.transport === transportId,
      );
      expect(asked).toHaveLength(1);
      await harness.screenshot(page, `frontend-tool-${transportId}`);
      expect((await inspectorCounts(page)).errors).toBe(0);
      expect(pageErrors).toEqual([]);
      await page.close();
    },
  );

  it('says that SSE + JSON-RPC carries no frontend tools', async () => {
    const { page, pageErrors } = await harness.open('/?agent=time-zone&transport=sse-jsonrpc');
    const card = page.getByTestId('surface-local-time').locator('.a2ui-surface');
    await card.getByRole('button', { name: 'Ask my browser' }).click();
    await card
      .getByText('This transport carries no frontend tools: pick an AG-UI transport.')
      .waitFor();
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
