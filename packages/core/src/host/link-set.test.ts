import { afterEach, describe, expect, it, vi } from 'vitest';
import { LinkSet, type TickingLink } from './link-set.js';

afterEach(() => {
  vi.useRealTimers();
});

const link = (bufferedBytes = 0, peakBufferedBytes = 0) => {
  const ticks: number[] = [];
  const value = {
    bufferedBytes,
    peakBufferedBytes,
    tick: () => ticks.push(Date.now()),
  } satisfies TickingLink;
  return Object.assign(value, { ticks });
};

describe('LinkSet', () => {
  it('runs one timer while it holds a link, ticking every link each interval', async () => {
    vi.useFakeTimers();
    const links = new LinkSet<ReturnType<typeof link>>(1_000);
    expect(links.ticking).toBe(false);
    const [a, b] = [link(), link()];
    links.add(a);
    links.add(b);
    expect(links.ticking).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect([a.ticks.length, b.ticks.length]).toEqual([2, 2]);
    links.delete(a);
    expect(links.ticking).toBe(true);
    links.delete(b);
    expect(links.ticking).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect([a.ticks.length, b.ticks.length]).toEqual([2, 2]);
  });

  it('runs no timer without an interval', () => {
    vi.useFakeTimers();
    const links = new LinkSet<ReturnType<typeof link>>(undefined);
    links.add(link());
    expect(links.size).toBe(1);
    expect(links.ticking).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sums the live links’ buffers and keeps the highest peak, ended links included', () => {
    const links = new LinkSet<ReturnType<typeof link>>(undefined);
    const [big, small] = [link(10, 900), link(20, 30)];
    links.add(big);
    links.add(small);
    expect(links.bufferStats()).toEqual({ bufferedBytes: 30, peakLinkBufferedBytes: 900 });
    expect(links.delete(big)).toBe(true);
    expect(links.delete(big)).toBe(false);
    expect(links.bufferStats()).toEqual({ bufferedBytes: 20, peakLinkBufferedBytes: 900 });
  });

  it('iterates a copy, so links may leave while the caller walks them', () => {
    const links = new LinkSet<ReturnType<typeof link>>(undefined);
    const all = [link(), link(), link()];
    for (const one of all) links.add(one);
    const seen: unknown[] = [];
    for (const one of links) {
      seen.push(one);
      links.delete(one);
    }
    expect(seen).toEqual(all);
    expect(links.size).toBe(0);
  });
});
