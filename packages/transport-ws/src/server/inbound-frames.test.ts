/**
 * The frame codec on its own: order, and backpressure on a client that floods a socket whose
 * frames wait on a slow host (another node, a store).
 */
import type { SessionHost } from '@a2ui-ts/core/host';
import { createDeferred } from '@a2ui-ts/core/testing';
import { eventually } from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';
import { action } from '../../test/messages.js';
import { InboundFrames } from './inbound-frames.js';

it('answers frames in order, stops reading past 256 waiting frames, and reads again once they are handled', async () => {
  const gate = createDeferred();
  const received: string[] = [];
  const host = {
    async receive(_connectionId: string, options: { requestId?: string }) {
      await gate.promise;
      received.push(options.requestId!);
      return { duplicate: false };
    },
  } as unknown as SessionHost;
  const replies: string[] = [];
  const flow: string[] = [];
  const inbound = new InboundFrames({
    host,
    connectionId: 'c',
    principal: undefined,
    reply: (frame) => replies.push(frame),
    open: () => true,
    onError: (error) => {
      throw error;
    },
    pause: () => flow.push('pause'),
    resume: () => flow.push('resume'),
    turnWaitMs: 5_000,
    accepting: () => true,
  });
  const ids = Array.from({ length: 300 }, (_, index) => `m${index}`);
  for (const id of ids) inbound.push(JSON.stringify({ id, message: action(id) }), 200);
  expect(flow).toEqual(['pause']);
  expect(inbound.waiting).toBe(300);
  gate.resolve();
  await eventually(() => replies.length === 300);
  expect(flow).toEqual(['pause', 'resume']);
  expect(received).toEqual(ids);
  expect(replies.map((frame) => JSON.parse(frame).id)).toEqual(ids);
  expect(inbound.waiting).toBe(0);
});

it('refuses an unknown frame type nested 100,000 levels deep (or 1 MB long) with VALIDATION_FAILED at /type, with its id', async () => {
  const errors: unknown[] = [];
  const replies: string[] = [];
  const inbound = new InboundFrames({
    host: {} as SessionHost,
    connectionId: 'c',
    principal: undefined,
    reply: (frame) => replies.push(frame),
    open: () => true,
    onError: (error) => void errors.push(error),
    pause: () => {},
    resume: () => {},
    turnWaitMs: 5_000,
    accepting: () => true,
  });
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  inbound.push(`{"id":"d","type":${deep}}`, 200_020);
  inbound.push(JSON.stringify({ id: 'l', type: 'x'.repeat(1_000_000) }), 1_000_020);
  await eventually(() => replies.length === 2);
  const [first, second] = replies.map((frame) => JSON.parse(frame));
  expect(first).toMatchObject({
    type: 'error',
    id: 'd',
    error: {
      code: 'VALIDATION_FAILED',
      path: '/type',
      message: 'Unknown frame type (a JSON array).',
    },
  });
  expect(second).toMatchObject({ id: 'l', error: { code: 'VALIDATION_FAILED', path: '/type' } });
  expect(second.error.message.length).toBeLessThan(100);
  expect(errors).toEqual([]);
});

it("acknowledges a message once the agent's turn is over, answers a ping meanwhile, and hands nothing over while not accepting", async () => {
  const turn = createDeferred();
  const asked: Array<{ requestId?: string; awaitTurn?: boolean }> = [];
  const host = {
    async receive(_connectionId: string, options: { requestId?: string; awaitTurn?: boolean }) {
      asked.push({ requestId: options.requestId, awaitTurn: options.awaitTurn });
      if (options.awaitTurn) await turn.promise;
      return { duplicate: false };
    },
  } as unknown as SessionHost;
  const replies: string[] = [];
  let accepting = true;
  const inbound = new InboundFrames({
    host,
    connectionId: 'c',
    principal: undefined,
    reply: (frame) => replies.push(frame),
    open: () => true,
    onError: (error) => {
      throw error;
    },
    pause: () => {},
    resume: () => {},
    turnWaitMs: 5_000,
    accepting: () => accepting,
  });
  inbound.push(JSON.stringify({ id: 'm1', message: action('m1') }), 200);
  inbound.push('{"type":"ping"}', 15);
  await eventually(() => replies.length === 1);
  expect(replies).toEqual(['{"type":"pong"}']);
  expect(asked).toEqual([{ requestId: 'm1', awaitTurn: true }]);
  turn.resolve();
  await eventually(() => replies.length === 2);
  expect(JSON.parse(replies[1]!)).toEqual({ type: 'ack', id: 'm1' });

  accepting = false;
  inbound.push(JSON.stringify({ id: 'm2', message: action('m2') }), 200);
  await inbound.idle();
  expect(asked).toHaveLength(1);
  expect(replies).toHaveLength(2);
});
