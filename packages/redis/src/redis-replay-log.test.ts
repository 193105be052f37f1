import type { ReplayEntry } from '@a2ui-ts/core/host';
import { afterEach, describe, expect, it } from 'vitest';
import { startNodes } from '../test/stores.js';

const entry = (seq: number): ReplayEntry => ({ seq, data: `{"n":${seq}}` });
const seqs = (entries: readonly ReplayEntry[] | undefined) => entries?.map((each) => each.seq);

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('RedisReplayLog', () => {
  it('keeps the owner copy in memory and the shared copy in Redis, within the same limits', async () => {
    const cluster = await startNodes(2, { replayBuffer: { maxEvents: 3 } });
    cleanup = cluster.close;
    const [a, b] = cluster.nodes;
    const owner = a!.createReplayLog('c1');
    owner.append([entry(1), entry(2)]);
    owner.append([entry(3), entry(4)]);
    expect(seqs(owner.read(1) as ReplayEntry[])).toEqual([2, 3, 4]);
    const reader = b!.createReplayLog('c1');
    // The owner writes to Redis in the background.
    await expect.poll(() => reader.lastSeq()).toBe(4);
    expect(seqs(await reader.read(1))).toEqual([2, 3, 4]);
    expect(await reader.read(0)).toBeUndefined();
    expect(seqs(await reader.read(2, { limit: 1 }))).toEqual([3]);
    expect(await reader.read(4)).toEqual([]);
    expect(await reader.size()).toEqual({ events: 3, bytes: 3 * '{"n":2}'.length });
    await reader.trim(3);
    expect(await reader.read(2)).toBeUndefined();
    expect(seqs(await reader.read(3))).toEqual([4]);
    await owner.end('client-closed');
    expect(await reader.read(3)).toBeUndefined();
    expect(await reader.read(4)).toEqual([]);
  });

  it('delivers every append after its first read to a follower on another node, in order, once, then the end', async () => {
    const cluster = await startNodes(2);
    cleanup = cluster.close;
    const [a, b] = cluster.nodes;
    const owner = a!.createReplayLog('c2');
    for (let seq = 1; seq <= 20; seq++) owner.append([entry(seq)]);
    const seen: number[] = [];
    let ended: string | undefined;
    const follower = b!.createReplayLog('c2');
    // As the session host follows: subscribe, then read what came before.
    follower.subscribe({
      onAppend: (entries) => seen.push(...entries.map((each) => each.seq)),
      onEnd: (reason) => {
        ended = reason;
      },
    });
    const before = seqs(await follower.read(0)) ?? [];
    for (let seq = 21; seq <= 60; seq++) owner.append([entry(seq)]);
    await expect.poll(() => seen.at(-1)).toBe(60);
    await owner.end('grace-expired');
    await expect.poll(() => ended).toBe('grace-expired');
    const all = [...before, ...seen.filter((seq) => seq > (before.at(-1) ?? 0))];
    expect(all).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('RedisReplayLog: a follower that subscribes while the session ends', () => {
  it('is told the end from the tombstone', async () => {
    const cluster = await startNodes(2);
    cleanup = cluster.close;
    const [a, b] = cluster.nodes;
    const owner = a!.createReplayLog('c3');
    owner.append([entry(1)]);
    let ended: string | undefined;
    b!.createReplayLog('c3').subscribe({
      onAppend: () => {},
      onEnd: (reason) => {
        ended = reason;
      },
    });
    void owner.end('client-closed');
    await expect.poll(() => ended).toBe('client-closed');
  });
});

describe('RedisReplayLog: the owner writes', () => {
  it('sends what was appended in one tick as one write, and the last messages before the end', async () => {
    const cluster = await startNodes(2);
    cleanup = cluster.close;
    const [a, b] = cluster.nodes;
    const owner = a!.createReplayLog('c4');
    owner.append([entry(1)]);
    const seen: number[] = [];
    let ended: string | undefined;
    const follower = b!.createReplayLog('c4');
    follower.subscribe({
      onAppend: (entries) => seen.push(...entries.map((each) => each.seq)),
      onEnd: (reason) => {
        ended = reason;
      },
    });
    await expect.poll(async () => seqs(await follower.read(0))).toEqual([1]);
    owner.append([entry(2)]);
    owner.append([entry(3)]);
    void owner.end('server-closed');
    await expect.poll(() => ended).toBe('server-closed');
    expect(seen.filter((seq) => seq > 1)).toEqual([2, 3]);
  });

  it('writes again from memory what Redis lost, so followers miss nothing', async () => {
    const cluster = await startNodes(2);
    cleanup = cluster.close;
    const [a, b] = cluster.nodes;
    const owner = a!.createReplayLog('c5');
    owner.append([entry(1), entry(2)]);
    const follower = b!.createReplayLog('c5');
    await expect.poll(() => follower.lastSeq()).toBe(2);
    // Redis loses the log (as in a restart); the next append finds the gap and repairs it.
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: cluster.url, RESP: 2 });
    await raw.connect();
    await raw.sendCommand(['DEL', `${cluster.prefix}log:c5`, `${cluster.prefix}logmeta:c5`]);
    await raw.close();
    owner.append([entry(3)]);
    await expect.poll(async () => seqs(await follower.read(0))).toEqual([1, 2, 3]);
  });
});
