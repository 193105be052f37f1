/** Scale-out stores of test nodes on the test Redis, each with its own key prefix. */
import { createConnectionId } from '@a2ui-ts/core';
import { inject } from 'vitest';
import {
  createRedisScaleOut,
  type RedisScaleOut,
  type RedisScaleOutOptions,
} from '../src/create-redis-scale-out.js';

/** Short leases and TTLs, so that failures are seen within a test's time. */
export const FAST_TIMING = { leaseTtlMs: 900, keyTtlMs: 3_000, commandTimeoutMs: 2_000 } as const;

/** A key prefix of its own, so test files sharing one Redis never see each other's keys. */
export const testPrefix = () => `t${createConnectionId().slice(0, 8)}:`;

/** Stores for `count` nodes sharing one prefix; `close()` closes them all. */
export async function startNodes(
  count: number,
  options: RedisScaleOutOptions = {},
): Promise<{ nodes: RedisScaleOut[]; prefix: string; url: string; close(): Promise<void> }> {
  const url = options.url ?? inject('redisUrl');
  const prefix = options.keyPrefix ?? testPrefix();
  const nodes = await Promise.all(
    Array.from({ length: count }, () =>
      createRedisScaleOut({
        ...FAST_TIMING,
        // Outages are what these tests make: their reports are expected, not news.
        onError: () => {},
        ...options,
        url,
        keyPrefix: prefix,
      }),
    ),
  );
  return {
    nodes,
    prefix,
    url,
    close: async () => {
      await Promise.all(nodes.map((node) => node.close()));
    },
  };
}
