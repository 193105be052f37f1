import { afterEach, describe, expect, it, vi } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import type { TransportEvent } from '../transport/client-transport.js';
import { computeBackoffDelay, createBackoff, parseRetryAfter } from './backoff.js';
import { LinkStatus } from './link-status.js';
import { Outbox, type OutboxDelivery, type OutboxEntry, type OutboxTrouble } from './outbox.js';
import { type LinkOutcome, runReconnectLoop } from './reconnect-loop.js';
import { SequenceTracker } from './sequence-tracker.js';
import { describeTroubleCause, STORE_UNAVAILABLE, troubleCauseOf } from './trouble-cause.js';

/** Resolves once `condition()` holds, re-checked after every turn of the event loop. */
async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('backoff', () => {
  it('grows by the multiplier, caps at maxDelayMs and jitters within [base/2, base]', () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1000, multiplier: 2 };
    expect(
      [1, 2, 3, 4, 5, 6].map((attempt) =>
        computeBackoffDelay(attempt, { ...options, random: () => 0.999999 }),
      ),
    ).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(
      [1, 2, 3].map((attempt) => computeBackoffDelay(attempt, { ...options, random: () => 0 })),
    ).toEqual([50, 100, 200]);
  });

  it('raises a retry hint to minRetryMs, honours it above maxDelayMs, and floors on Retry-After', () => {
    const backoff = createBackoff({
      initialDelayMs: 100,
      maxDelayMs: 1000,
      minRetryMs: 250,
      random: () => 0.999999,
    });
    backoff.setRetryHint(0);
    expect(backoff.fail()).toBe(250);
    backoff.succeed();
    backoff.setRetryHint(5000);
    expect(backoff.fail()).toBe(5000);
    backoff.setRetryHint(undefined);
    backoff.succeed();
    expect(backoff.fail(800)).toBe(800);
    expect(backoff.fail(60_000)).toBe(1000);
    expect(parseRetryAfter(' 5 ')).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT')).toBeUndefined();
  });

  it('is exhausted after maxAttempts failures in a row', () => {
    const backoff = createBackoff({ maxAttempts: 2 });
    backoff.fail();
    backoff.fail();
    expect(backoff.exhausted).toBe(false);
    backoff.fail();
    expect(backoff.exhausted).toBe(true);
  });
});

describe('SequenceTracker', () => {
  it('applies the next seq, drops repeats and reports gaps', () => {
    const tracker = new SequenceTracker();
    expect([1, 1, 2, 4, 3].map((seq) => tracker.accept(seq))).toEqual([
      'apply',
      'duplicate',
      'apply',
      'gap',
      'apply',
    ]);
    expect(tracker.last).toBe(3);
    tracker.reset();
    expect(tracker.accept(1)).toBe('apply');
  });
});

type Item = { name: string };

function outboxUnderTest(
  answer: (batch: readonly OutboxEntry<Item>[]) => OutboxDelivery | Promise<OutboxDelivery>,
  extra: Partial<ConstructorParameters<typeof Outbox<Item>>[0]> = {},
) {
  const attempts: Array<{ at: number; ids: string[]; names: string[] }> = [];
  const troubles: Array<OutboxTrouble | undefined> = [];
  const outbox = new Outbox<Item>({
    backoff: { initialDelayMs: 100, maxDelayMs: 2_000, random: () => 0.5 },
    onTrouble: (trouble) => troubles.push(trouble),
    async deliver(batch) {
      attempts.push({
        at: Date.now(),
        ids: batch.map((entry) => entry.id),
        names: batch.map((entry) => entry.item.name),
      });
      return answer(batch);
    },
    ...extra,
  });
  return { outbox, attempts, troubles };
}

describe('Outbox', () => {
  it('makes at most a dozen attempts in 2 s of 503s, reports the trouble, then delivers once with the same id', async () => {
    vi.useFakeTimers();
    let refusing = true;
    const { outbox, attempts, troubles } = outboxUnderTest(() =>
      refusing ? { kind: 'retry', reason: 'HTTP 503' } : { kind: 'answered' },
    );
    outbox.setConnection('c1');
    const delivered = outbox.enqueue({ name: 'book' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(attempts.length).toBeGreaterThan(1);
    expect(attempts.length).toBeLessThanOrEqual(12);
    expect(new Set(attempts.map((attempt) => attempt.ids[0])).size).toBe(1);
    expect(outbox.failing).toBe(true);
    expect(troubles[0]).toMatchObject({ reason: 'HTTP 503', attempt: 1, pending: 1 });
    refusing = false;
    await vi.advanceTimersByTimeAsync(5_000);
    await delivered;
    expect(outbox.pending).toBe(0);
    expect(troubles.at(-1)).toBeUndefined();
    const before = attempts.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(attempts.length).toBe(before);
  });

  it("waits at least the server's Retry-After before the next attempt", async () => {
    vi.useFakeTimers();
    let answers = 0;
    const { outbox, attempts } = outboxUnderTest(() =>
      answers++ === 0
        ? { kind: 'retry', reason: 'busy', retryAfterMs: 1_500 }
        : { kind: 'answered' },
    );
    outbox.setConnection('c1');
    const delivered = outbox.enqueue({ name: 'a' });
    await vi.advanceTimersByTimeAsync(1_499);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await delivered;
    expect(attempts).toHaveLength(2);
  });

  it('sends one batch at a time, in order, and settles each entry with its own answer', async () => {
    const { outbox, attempts } = outboxUnderTest(
      (batch) => ({
        kind: 'answered',
        errors: new Map(
          batch
            .filter((entry) => entry.item.name === 'bad')
            .map((entry) => [entry.id, new A2uiError('VALIDATION_FAILED', 'refused')]),
        ),
      }),
      { maxBatchLength: 2 },
    );
    const results = ['a', 'bad', 'c'].map((name) =>
      outbox.enqueue({ name }).then(
        () => `${name}: ok`,
        (error: A2uiError) => `${name}: ${error.code}`,
      ),
    );
    expect(attempts).toHaveLength(0);
    outbox.setConnection('c1');
    expect(await Promise.all(results)).toEqual(['a: ok', 'bad: VALIDATION_FAILED', 'c: ok']);
    expect(attempts.map((attempt) => attempt.names)).toEqual([['a', 'bad'], ['c']]);
  });

  it('splits a batch the server found too large', async () => {
    const { outbox, attempts } = outboxUnderTest((batch) =>
      batch.length > 1 ? { kind: 'split' } : { kind: 'answered' },
    );
    const both = [outbox.enqueue({ name: 'a' }), outbox.enqueue({ name: 'b' })];
    outbox.setConnection('c1');
    await Promise.all(both);
    expect(attempts.map((attempt) => attempt.names)).toEqual([['a', 'b'], ['a'], ['b']]);
  });

  it('bounds the queue, rejects messages of a replaced connection, and honours abort before sending', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { outbox } = outboxUnderTest(
      async () => {
        await gate;
        return { kind: 'answered' };
      },
      { maxQueuedMessages: 4 },
    );
    outbox.setConnection('c1');
    const inFlight = outbox.enqueue({ name: 'in flight' });
    const bound = outbox.enqueue({ name: 'bound to c1' });
    const abort = new AbortController();
    const aborted = outbox.enqueue({ name: 'aborted' }, { signal: abort.signal });
    const fourth = outbox.enqueue({ name: 'fourth' });
    await expect(outbox.enqueue({ name: 'fifth' })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
    abort.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    outbox.pause();
    void fourth.catch(() => {});
    const waiting = outbox.enqueue({ name: 'sent while down' });
    outbox.setConnection('c2');
    await expect(waiting).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(bound).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    // What was on the wire may have arrived: it waits for its answer.
    release();
    await inFlight;
    outbox.close();
    await expect(outbox.enqueue({ name: 'late' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });
});

describe('Outbox: what a sender is told', () => {
  it('at close, settles the batch on the wire with its answer, and rejects only messages that never went out', async () => {
    let answer!: (delivery: OutboxDelivery) => void;
    const { outbox } = outboxUnderTest(
      () =>
        new Promise<OutboxDelivery>((resolve) => {
          answer = resolve;
        }),
      { maxBatchLength: 1 },
    );
    outbox.setConnection('c1');
    const onTheWire = outbox.enqueue({ name: 'applied' });
    const neverSent = outbox.enqueue({ name: 'queued' });
    outbox.close();
    await expect(neverSent).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    // The answer comes after close(): it was applied, and the sender is told so.
    answer({ kind: 'answered' });
    await expect(onTheWire).resolves.toBeUndefined();
    expect(outbox.pending).toBe(0);
  });

  it('reports OUTCOME_UNKNOWN, never a failure, for a message that went out without an answer', async () => {
    let answer!: (delivery: OutboxDelivery) => void;
    const cut = outboxUnderTest(
      () =>
        new Promise<OutboxDelivery>((resolve) => {
          answer = resolve;
        }),
    );
    cut.outbox.setConnection('c1');
    const aborted = cut.outbox.enqueue({ name: 'cut at close' });
    cut.outbox.close();
    answer({ kind: 'retry', reason: 'aborted' });
    await expect(aborted).rejects.toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      data: { requestId: cut.attempts[0]!.ids[0] },
    });

    // Sent once, its answer lost, waiting for the retry: closed, then reset.
    const lost = outboxUnderTest(() => ({ kind: 'retry', reason: 'no answer' }), {
      backoff: { initialDelayMs: 3_600_000 },
    });
    lost.outbox.setConnection('c1');
    const waitingAtClose = lost.outbox.enqueue({ name: 'a' });
    await eventually(() => lost.troubles.length === 1);
    lost.outbox.close();
    await expect(waitingAtClose).rejects.toMatchObject({ code: 'OUTCOME_UNKNOWN' });

    const reset = outboxUnderTest(() => ({ kind: 'retry', reason: 'no answer' }), {
      backoff: { initialDelayMs: 3_600_000 },
    });
    reset.outbox.setConnection('c1');
    const waitingAtReset = reset.outbox.enqueue({ name: 'b' });
    await eventually(() => reset.troubles.length === 1);
    reset.outbox.reset();
    await expect(waitingAtReset).rejects.toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    // Nothing waits any more: the trouble is over (a status bar says "connected" again).
    expect(reset.troubles.at(-1)).toBeUndefined();
    expect(reset.outbox.failing).toBe(false);
    reset.outbox.close();
  });

  it('rejects with CONNECTION_CLOSED on a reset a message whose every attempt was refused unsent, OUTCOME_UNKNOWN once one may have arrived', async () => {
    let unsent = true;
    const refused = outboxUnderTest(() => ({ kind: 'retry', reason: 'refused', unsent }), {
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
    });
    refused.outbox.setConnection('c1');
    const neverArrived = refused.outbox.enqueue({ name: 'a' });
    await eventually(() => refused.attempts.length >= 3);
    refused.outbox.reset();
    await expect(neverArrived).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });

    refused.outbox.setConnection('c2');
    const mayHaveArrived = refused.outbox.enqueue({ name: 'b' });
    const before = refused.attempts.length;
    await eventually(() => refused.attempts.length >= before + 1);
    unsent = false;
    await eventually(() => refused.attempts.length >= before + 3);
    unsent = true;
    await eventually(() => refused.attempts.length >= before + 5);
    refused.outbox.reset();
    await expect(mayHaveArrived).rejects.toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    refused.outbox.close();
  });

  it('sends a message waiting out its backoff as soon as it is woken (back online)', async () => {
    let wakeUp: (() => void) | undefined;
    let online = false;
    const { outbox, attempts, troubles } = outboxUnderTest(
      () => (online ? { kind: 'answered' } : { kind: 'retry', reason: 'offline' }),
      {
        // An hour: only the wake can send it again while the test runs.
        backoff: { initialDelayMs: 3_600_000 },
        wake: (listener) => {
          wakeUp = listener;
          return () => {
            wakeUp = undefined;
          };
        },
      },
    );
    outbox.setConnection('c1');
    const delivered = outbox.enqueue({ name: 'queued while offline' });
    await eventually(() => troubles.length === 1);
    expect(wakeUp).toBeDefined();
    online = true;
    wakeUp!();
    await delivered;
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.ids).toEqual(attempts[0]!.ids);
    expect(troubles.at(-1)).toBeUndefined();
    // The listener goes with the retry it was for.
    expect(wakeUp).toBeUndefined();
    outbox.close();
  });
});

describe('runReconnectLoop', () => {
  it('backs off between failed links, starts over after a healthy one, and gives up after maxAttempts', async () => {
    vi.useFakeTimers();
    const statuses: string[] = [];
    const plan: Array<'fail' | 'healthy'> = ['fail', 'fail', 'healthy', 'fail', 'fail', 'fail'];
    const attemptsSeen: number[] = [];
    const done = runReconnectLoop({
      backoff: createBackoff({ initialDelayMs: 100, maxAttempts: 2, random: () => 0.999999 }),
      signal: new AbortController().signal,
      wake: () => () => {},
      onStatus: (status, reason) => statuses.push(reason ? `${status}: ${reason}` : status),
      async connect(attempt): Promise<LinkOutcome> {
        attemptsSeen.push(attempt.attempt);
        const step = plan.shift();
        if (step === 'healthy') {
          attempt.opened();
          attempt.delivered();
        }
        return { kind: 'dropped', reason: 'down.' };
      },
    });
    await vi.runAllTimersAsync();
    const end = await done;
    expect(end).toMatchObject({ kind: 'fatal', error: { code: 'TRANSPORT_ERROR' } });
    expect(attemptsSeen).toEqual([0, 1, 2, 1, 2]);
    expect(statuses).toEqual([
      'connecting',
      'reconnecting: down; retrying in 100 ms.',
      'reconnecting: down; retrying in 200 ms.',
      'open',
      'reconnecting: down; retrying in 100 ms.',
      'reconnecting: down; retrying in 200 ms.',
    ]);
  });

  it('reconnects at once when woken (back online, page visible again)', async () => {
    vi.useFakeTimers();
    let wakeUp: (() => void) | undefined;
    let links = 0;
    const stop = new AbortController();
    const done = runReconnectLoop({
      backoff: createBackoff({ initialDelayMs: 60_000 }),
      signal: stop.signal,
      wake: (listener) => {
        wakeUp = listener;
        return () => {
          wakeUp = undefined;
        };
      },
      onStatus: () => {},
      async connect() {
        links++;
        if (links === 2) return { kind: 'closed', reason: 'done' };
        return { kind: 'dropped', reason: 'down' };
      },
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(links).toBe(1);
    wakeUp!();
    expect(await done).toEqual({ kind: 'closed', reason: 'done' });
    expect(links).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('LinkStatus', () => {
  it('carries what the server said (its shared session store is down) into the degraded status', () => {
    const events: TransportEvent[] = [];
    const status = new LinkStatus((event) => events.push(event));
    status.link('open');
    const cause = troubleCauseOf({ retryAfterMs: 500, reason: STORE_UNAVAILABLE });
    status.trouble({
      reason: describeTroubleCause(cause),
      retryInMs: 500,
      attempt: 1,
      pending: 1,
      cause,
    });
    expect(events.at(-1)).toEqual({
      type: 'status',
      status: 'degraded',
      reason: '1 client message not delivered: Server storage unavailable; retrying in 500 ms.',
      attempt: 1,
      cause: 'store-unavailable',
    });
    expect(troubleCauseOf({ retryAfterMs: 500 })).toBe('busy');
  });

  it('reports degraded while the link is open and deliveries fail, and open again once they recover', () => {
    const events: TransportEvent[] = [];
    const status = new LinkStatus((event) => events.push(event));
    status.link('connecting');
    status.trouble({ reason: 'HTTP 503.', retryInMs: 400, attempt: 1, pending: 2 });
    status.link('open');
    status.trouble(undefined);
    status.link('reconnecting', 'dropped');
    expect(events).toEqual([
      { type: 'status', status: 'connecting' },
      {
        type: 'status',
        status: 'degraded',
        reason: '2 client messages not delivered: HTTP 503; retrying in 400 ms.',
      },
      { type: 'status', status: 'open', reason: 'Client messages are delivered again.' },
      { type: 'status', status: 'reconnecting', reason: 'dropped' },
    ]);
    expect(status.status).toBe('reconnecting');
  });
});
