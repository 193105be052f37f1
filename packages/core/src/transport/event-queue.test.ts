import { describe, expect, it } from 'vitest';
import { createEventQueue } from './event-queue.js';

describe('createEventQueue', () => {
  it('yields pushed items in order, then ends', async () => {
    const queue = createEventQueue<number>();
    for (let i = 0; i < 5000; i++) queue.push(i);
    queue.end();
    const seen: number[] = [];
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(queue.size).toBe(0);
  });

  it('keeps order when items arrive while it is being read', async () => {
    const queue = createEventQueue<number>();
    const seen: number[] = [];
    let next = 0;
    queue.push(next++);
    for await (const item of queue) {
      seen.push(item);
      if (next < 3000) {
        queue.push(next++);
        queue.push(next++);
      } else if (queue.size === 0) queue.end();
    }
    expect(seen).toEqual(Array.from({ length: next }, (_, i) => i));
  });

  it('ends on abort and rethrows a failure after the queued items', async () => {
    const abort = new AbortController();
    const aborted = createEventQueue<number>({ signal: abort.signal });
    aborted.push(1);
    abort.abort();
    const seen: number[] = [];
    for await (const item of aborted) seen.push(item);
    expect(seen).toEqual([1]);

    const failing = createEventQueue<number>();
    failing.push(1);
    failing.fail(new Error('link lost'));
    const read: number[] = [];
    await expect(
      (async () => {
        for await (const item of failing) read.push(item);
      })(),
    ).rejects.toThrow('link lost');
    expect(read).toEqual([1]);
  });
});
