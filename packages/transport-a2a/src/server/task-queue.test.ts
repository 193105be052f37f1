/**
 * Messages on one task execute one at a time, in order of arrival; one whose client leaves while
 * it waits gives up its place without letting the next one overtake the one still executing.
 */
import { expect, it } from 'vitest';
import { TaskQueue } from './task-queue.js';

it('lets one execution per task in at a time, in order; a waiting one whose client leaves gives up only its own place', async () => {
  const queue = new TaskQueue();
  const order: string[] = [];
  const leaveA = await queue.enter('t', undefined);
  const otherTask = await queue.enter('u', undefined);
  const gone = new AbortController();
  const b = queue.enter('t', gone.signal);
  const c = queue.enter('t', undefined).then((leave) => {
    order.push('c');
    return leave;
  });
  expect(queue.waiting).toBe(2);
  gone.abort();
  await expect(b).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  expect(queue.waiting).toBe(1);
  // C still waits for A, which is executing.
  await Promise.resolve();
  expect(order).toEqual([]);
  order.push('a done');
  leaveA();
  const leaveC = await c;
  expect(order).toEqual(['a done', 'c']);
  expect(queue.waiting).toBe(0);
  leaveC();
  leaveC();
  otherTask();
  // Nothing is left behind: a new execution enters at once.
  (await queue.enter('t', undefined))();
});
