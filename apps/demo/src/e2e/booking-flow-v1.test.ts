/**
 * The restaurant booking flow in A2UI v1.0, over every transport that carries it: the page offers
 * v1.0 only, the agent (written in v0.9) is converted for it, and the same person books the same
 * table. AG-UI and MCP negotiate v1.0 now, but the booking flow over them in v1.0 is not part of
 * this run yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualScheduler } from '../agents/scheduler.js';
import { SERVER_TRANSPORTS } from '../server/transports.js';
import { runBookingFlow } from './booking-flow-run.js';
import { type DemoHarness, restaurantTestAgent, startHarness } from './demo-harness.js';

// Not yet run in v1.0 here: AG-UI and MCP (see the header).
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
