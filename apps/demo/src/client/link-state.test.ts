import type { ClientEvent } from '@a2ui-ts/core';
import { describe, expect, it } from 'vitest';
import { connectionLabel } from './components/connection-badge.js';
import { type LinkState, nextLinkState } from './use-demo-connection.js';

/** The badge's label after `events`, from a fresh link. */
function labelAfter(events: ClientEvent[]): string {
  let state: LinkState = { status: 'connecting', reconnects: 0, resets: 0, reason: undefined };
  let dropped = false;
  for (const event of events) ({ state, dropped } = nextLinkState(state, event, dropped));
  return connectionLabel(state);
}

describe('the connection badge says what happened', () => {
  it('a server whose session store is down: storage unavailable, not a busy agent', () => {
    expect(
      labelAfter([
        { type: 'status', status: 'open' },
        {
          type: 'status',
          status: 'degraded',
          reason: '1 client message not delivered: Server storage unavailable; retrying in 800 ms.',
          cause: 'store-unavailable',
        },
      ]),
    ).toBe('Server storage unavailable — retrying');
    expect(
      labelAfter([
        { type: 'status', status: 'open' },
        { type: 'status', status: 'degraded', cause: 'busy' },
      ]),
    ).toBe('Agent busy — retrying');
  });

  it('after a reset that dropped the waiting messages: connected', () => {
    // What a transport reports: the trouble, the reset, and the trouble over (nothing waits).
    expect(
      labelAfter([
        { type: 'status', status: 'open' },
        { type: 'status', status: 'degraded', reason: 'HTTP 503' },
        { type: 'reset', reason: 'unknown-connection' },
        { type: 'status', status: 'open', reason: 'Client messages are delivered again.' },
      ]),
    ).toBe('Connected');
    // The cause goes with the trouble.
    expect(
      labelAfter([
        { type: 'status', status: 'degraded', cause: 'store-unavailable' },
        { type: 'status', status: 'open' },
      ]),
    ).toBe('Connected');
  });
});
