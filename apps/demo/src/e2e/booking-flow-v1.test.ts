/**
 * The restaurant booking flow in A2UI v1.0, over every transport that carries it: the page offers
 * v1.0 only, the agent (written in v0.9) is converted for it, and the same person books the same
 * table. AG-UI carries v0.9 surfaces only (docs/protocol-versions.md), so it is not in this run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualScheduler } from '../agents/scheduler.js';
import { SERVER_TRANSPORTS } from '../server/transports.js';
import { runBookingFlow } from './booking-flow-run.js';
import { type DemoHarness, restaurantTestAgent, startHarness } from './demo-harness.js';

// AG-UI carries v0.9 surfaces only, and the MCP binding negotiates no A2UI version (yet).
const V10_TRANSPORTS = SERVER_TRANSPORTS.map((transport) => transport.id).filter(
  (id) => !id.startsWith('agui') && id !== 'mcp',
);

describe('booking flow in Chromium, A2UI v1.0', () => {
  let harness: DemoHarness;
  const scheduler = createManualScheduler();

  beforeAll(async () => {
    harness = await startHarness({ agents: [restaurantTestAgent(scheduler)] });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('covers every transport but AG-UI', () => {
    expect(V10_TRANSPORTS).toEqual(expect.arrayContaining(['sse-jsonrpc', 'ws', 'rest', 'a2a']));
  });

  it.each(V10_TRANSPORTS)(
    'searches, books with checks enforced, and confirms what was typed, over %s (v1.0)',
    (transportId) => runBookingFlow(harness, scheduler, transportId, 'v1.0'),
  );
});
