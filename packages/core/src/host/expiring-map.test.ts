import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExpiringMap } from './expiring-map.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ExpiringMap', () => {
  it('forgets entries after ttlMs with one timer, renews on set, and drops the oldest beyond maxSize', async () => {
    vi.useFakeTimers();
    const expired: string[] = [];
    const map = new ExpiringMap<string, number>({
      ttlMs: 100,
      maxSize: 2,
      onExpire: (key) => expired.push(key),
    });
    map.set('a', 1);
    await vi.advanceTimersByTimeAsync(50);
    map.set('b', 2);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    expect([map.get('a'), map.get('b')]).toEqual([undefined, 2]);
    map.set('b', 3);
    await vi.advanceTimersByTimeAsync(99);
    expect(map.get('b')).toBe(3);
    map.set('c', 4);
    map.set('d', 5);
    expect([map.size, map.get('b')]).toEqual([2, undefined]);
    await vi.advanceTimersByTimeAsync(100);
    expect(map.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(expired).toEqual(['a', 'b', 'c', 'd']);
  });

  it('holds no timer once empty, and nothing at all with maxSize 0', () => {
    vi.useFakeTimers();
    const map = new ExpiringMap<string, number>({ ttlMs: 100, maxSize: 10 });
    map.set('a', 1);
    map.delete('a');
    expect(vi.getTimerCount()).toBe(0);
    map.set('b', 2);
    map.clear();
    expect(vi.getTimerCount()).toBe(0);
    const none = new ExpiringMap<string, number>({ ttlMs: 100, maxSize: 0 });
    none.set('a', 1);
    expect(none.size).toBe(0);
  });
});
