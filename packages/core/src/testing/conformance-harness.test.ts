import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ClientTransport } from '../transport/client-transport.js';
import {
  CONFORMANCE_RECONNECT,
  conformanceHostOptions,
  createReturnChannelFaults,
  hijackStepOutcome,
} from './conformance-harness.js';

const transport = () => ({}) as ClientTransport;

describe('conformanceHostOptions', () => {
  it('passes the grace period, the replay buffer and the message bound on', () => {
    expect(
      conformanceHostOptions({
        reconnectGraceMs: 50,
        replayBufferEvents: 3,
        maxClientMessageBytes: 1_000,
      }),
    ).toEqual({
      reconnectGraceMs: 50,
      replayBuffer: { maxEvents: 3 },
      maxClientMessageBytes: 1_000,
      authenticate: undefined,
    });
    expect(conformanceHostOptions({ reconnectGraceMs: 50 }).replayBuffer).toBeUndefined();
  });

  it('authenticates by the Authorization header, or as the harness reads the principal', async () => {
    const request = new Request('http://x/', { headers: { authorization: 'Bearer alice' } });
    const byHeader = conformanceHostOptions({ reconnectGraceMs: 1, auth: true });
    expect(await byHeader.authenticate!(request)).toBe('Bearer alice');
    const own = conformanceHostOptions({ reconnectGraceMs: 1, auth: true }, (r) =>
      r.headers.get('authorization')?.replace(/^Bearer /, ''),
    );
    expect(await own.authenticate!(request)).toBe('alice');
  });

  it('has a redelivery delay a storm cannot pass for', () => {
    expect(CONFORMANCE_RECONNECT.initialDelayMs / 2).toBeGreaterThanOrEqual(5);
  });
});

describe('createReturnChannelFaults', () => {
  it('names clients, refuses the next count deliveries of one, and timestamps every attempt', () => {
    const faults = createReturnChannelFaults();
    const [a, b] = [transport(), transport()];
    const [nameA, nameB] = [faults.nextName(), faults.nextName()];
    expect([nameA, nameB]).toEqual(['client-1', 'client-2']);
    expect(faults.track(a, nameA)).toBe(a);
    faults.track(b, nameB);
    faults.failReturnChannel(a, 2);
    expect([faults.refuses(nameA), faults.refuses(nameB), faults.refuses(nameA)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(faults.refuses(nameA)).toBe(false);
    expect(faults.returnChannelAttempts(a)).toHaveLength(3);
    expect(faults.returnChannelAttempts(b)).toHaveLength(1);
    // Not a client's delivery: neither counted nor refused.
    expect(faults.refuses(undefined)).toBe(false);
    // Failing again starts the count of attempts over.
    faults.failReturnChannel(a, 1);
    expect(faults.returnChannelAttempts(a)).toEqual([]);
  });

  it('reads a late key (a connection id) when the test fails the channel', () => {
    const faults = createReturnChannelFaults();
    let connectionId: string | undefined;
    const late = faults.track(transport(), () => connectionId);
    expect(() => faults.failReturnChannel(late, 1)).toThrow();
    expect(faults.returnChannelAttempts(late)).toEqual([]);
    connectionId = 'c1';
    faults.failReturnChannel(late, 1);
    expect(faults.refuses('c1')).toBe(true);
    expect(faults.returnChannelAttempts(late)).toHaveLength(1);
  });

  it('refuses as an overloaded server: HTTP 503 with LIMIT_EXCEEDED, or the host’s error', async () => {
    const faults = createReturnChannelFaults();
    const refusal = faults.refusal();
    expect(refusal.status).toBe(503);
    expect(await refusal.json()).toEqual({
      error: { code: 'LIMIT_EXCEEDED', message: 'Refused by the test.' },
    });
    const error = faults.refusalError();
    expect(A2uiError.isInstance(error)).toBe(true);
    expect([error.code, error.data]).toEqual(['LIMIT_EXCEEDED', { retryAfterMs: 0 }]);
  });
});

describe('hijackStepOutcome', () => {
  it('names a refusal FORBIDDEN, a success accepted, anything else by its status', () => {
    expect([403, 200, 204, 101, 404, 500].map(hijackStepOutcome)).toEqual([
      'FORBIDDEN',
      'accepted',
      'accepted',
      'accepted',
      'HTTP 404',
      'HTTP 500',
    ]);
  });
});
