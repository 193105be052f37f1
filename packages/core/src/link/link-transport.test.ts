import { describe, expect, it, vi } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import type { TransportEvent } from '../transport/client-transport.js';
import { createBackoff } from './backoff.js';
import { createLinkTransport, type LinkTransportOptions, withDeadline } from './link-transport.js';
import type { LinkOutcome } from './reconnect-loop.js';

/** A shell whose one link stays open until the test ends it with an outcome. */
function shellUnderTest(extra: Partial<LinkTransportOptions> = {}) {
  const closes: A2uiError[] = [];
  let endLink: ((outcome: LinkOutcome) => void) | undefined;
  const shell = createLinkTransport({
    name: 'Test',
    backoff: createBackoff({ initialDelayMs: 1, maxAttempts: 0 }),
    wake: () => () => {},
    connect: (attempt) =>
      new Promise<LinkOutcome>((resolve) => {
        attempt.opened();
        endLink = resolve;
        attempt.signal.addEventListener('abort', () =>
          resolve({ kind: 'closed', reason: 'aborted' }),
        );
      }),
    onClose: (error) => closes.push(error),
    ...extra,
  });
  return { shell, closes, endLink: (outcome: LinkOutcome) => endLink?.(outcome) };
}

async function collect(iterable: AsyncIterable<TransportEvent>): Promise<TransportEvent[]> {
  const events: TransportEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('createLinkTransport', () => {
  it('reports the status, queues pushed events, and says goodbye once however often close() is called', async () => {
    const goodbye = vi.fn(async () => {});
    const { shell, closes } = shellUnderTest({ goodbye });
    const events = collect(shell.events());
    expect(() => shell.events()).toThrow(A2uiError);
    shell.push({ type: 'messages', messages: [] });
    await Promise.all([shell.close(), shell.close()]);
    expect(goodbye).toHaveBeenCalledTimes(1);
    expect(shell.closed).toBe(true);
    expect(shell.signal.aborted).toBe(true);
    expect(closes.map((error) => error.code)).toContain('CONNECTION_CLOSED');
    expect(
      (await events).map((event) => (event.type === 'status' ? event.status : event.type)),
    ).toEqual(['connecting', 'open', 'messages', 'closed']);
  });

  it('ends the iteration with the error of a fatal outcome, and rejects what waits with it', async () => {
    const { shell, closes, endLink } = shellUnderTest();
    const events = collect(shell.events());
    await vi.waitFor(() => expect(shell.status.status).toBe('open'));
    const refused = new A2uiError('UNAUTHORIZED', 'no');
    endLink({ kind: 'fatal', error: refused });
    await expect(events).rejects.toBe(refused);
    expect(closes).toContain(refused);
    expect(shell.status.status).toBe('closed');
  });

  it('closes when its signal or the consumer’s aborts, and ends at once when closed before events()', async () => {
    const own = new AbortController();
    const first = shellUnderTest({ signal: own.signal });
    const firstEvents = collect(first.shell.events());
    own.abort();
    await firstEvents;
    expect(first.shell.closed).toBe(true);

    const consumer = new AbortController();
    const second = shellUnderTest();
    const secondEvents = collect(second.shell.events({ signal: consumer.signal }));
    consumer.abort();
    await secondEvents;
    expect(second.shell.closed).toBe(true);

    const aborted = new AbortController();
    aborted.abort();
    const third = shellUnderTest({ signal: aborted.signal });
    expect(await collect(third.shell.events())).toEqual([
      { type: 'status', status: 'closed', reason: 'Closed by the client.' },
    ]);
  });

  it('sendWhileOpen runs the send while open, and refuses it once closed', async () => {
    const { shell } = shellUnderTest();
    expect(await shell.sendWhileOpen(async () => 'queued')).toBe('queued');
    await shell.close();
    let ran = false;
    await expect(
      shell.sendWhileOpen(async () => {
        ran = true;
      }),
    ).rejects.toMatchObject({ code: 'CONNECTION_CLOSED', message: 'The transport is closed.' });
    expect(ran).toBe(false);
  });

  it('says whether events() was called', () => {
    const { shell } = shellUnderTest();
    expect(shell.started).toBe(false);
    void collect(shell.events());
    expect(shell.started).toBe(true);
    return shell.close();
  });

  it('end() closes at once without a goodbye, with the reason or the error given', async () => {
    const goodbye = vi.fn(async () => {});
    const quiet = shellUnderTest({ goodbye });
    const quietEvents = collect(quiet.shell.events());
    await vi.waitFor(() => expect(quiet.shell.status.status).toBe('open'));
    quiet.shell.end('The server closed the connection.');
    const events = await quietEvents;
    expect(events.at(-1)).toEqual({
      type: 'status',
      status: 'closed',
      reason: 'The server closed the connection.',
    });
    expect(quiet.closes.map((error) => error.message)).toEqual([
      'The connection is closed: The server closed the connection.',
    ]);
    expect(quiet.shell.closed).toBe(true);
    expect(quiet.shell.signal.aborted).toBe(true);
    // Once ended, nothing more happens: no goodbye, no second rejection.
    await quiet.shell.close();
    quiet.shell.end('again');
    expect(goodbye).not.toHaveBeenCalled();
    expect(quiet.closes).toHaveLength(1);

    const failing = shellUnderTest();
    const failingEvents = collect(failing.shell.events());
    const refused = new A2uiError('FORBIDDEN', 'no');
    failing.shell.end(refused.message, refused);
    await expect(failingEvents).rejects.toBe(refused);
    expect(failing.closes).toEqual([refused]);
  });

  it('ends with INTERNAL_ERROR, naming the transport, when its link throws', async () => {
    const { shell } = shellUnderTest({
      connect: async () => {
        throw new Error('boom');
      },
    });
    await expect(collect(shell.events())).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'The Test transport failed: boom',
    });
  });
});

describe('withDeadline', () => {
  it('aborts after its delay or with its parent, and not once cleared', async () => {
    vi.useFakeTimers();
    try {
      const timed = withDeadline(undefined, 100);
      await vi.advanceTimersByTimeAsync(100);
      expect(timed.signal.aborted).toBe(true);
      const parent = new AbortController();
      const followed = withDeadline(parent.signal, 100);
      parent.abort();
      expect(followed.signal.aborted).toBe(true);
      const cleared = withDeadline(undefined, 100);
      cleared.clear();
      await vi.advanceTimersByTimeAsync(200);
      expect(cleared.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
