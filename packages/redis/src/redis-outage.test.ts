import { recordTransport } from '@a2ui-ts/core/testing';
import { afterAll, expect, it } from 'vitest';
import { connectRouted, startNode, type TestNode } from '../test/cluster.js';
import { action, METADATA, valuesAt } from '../test/messages.js';
import { testPrefix } from '../test/stores.js';
import { type RedisServerProcess, startRedisServer } from './testing/index.js';

let redis: RedisServerProcess | undefined;
const nodes: TestNode[] = [];
afterAll(async () => {
  await Promise.all(nodes.map((node) => node.close()));
  await redis?.stop();
});

const redisStatus = async (node: TestNode) =>
  ((await node.stats()).redis as { status: string; lastError?: string }) ?? {};

it('reports Redis down, keeps serving, refuses cross-node requests with a retry, and recovers when it returns', async () => {
  redis = await startRedisServer();
  const config = { redisUrl: redis.url, keyPrefix: testPrefix(), leaseTtlMs: 3_000 };
  const [a, b] = await Promise.all([startNode(config), startNode(config)]);
  nodes.push(a!, b!);
  const transport = connectRouted({ sse: a!.url, rpc: b!.url });
  const recording = recordTransport(transport);
  await recording.until(() => valuesAt(recording, '/node').length === 1);
  await transport.send(action('before'), METADATA);

  await redis.stop();
  await expect
    .poll(() => redisStatus(a!))
    .toMatchObject({
      status: 'unavailable',
      lastError: expect.any(String),
    });
  await expect
    .poll(() => redisStatus(b!))
    .toMatchObject({
      status: 'unavailable',
    });
  // Posted to B, which cannot look the connection up: refused as "busy", retried with backoff.
  const during = transport.send(action('during'), METADATA);
  await recording.until((events) =>
    events.some((event) => event.type === 'status' && event.status === 'degraded'),
  );
  // The link to A needs no Redis: its connection keeps working (here, through A itself).
  const direct = connectRouted({ sse: a!.url, rpc: a!.url });
  const directRecording = recordTransport(direct);
  await directRecording.until(() => valuesAt(directRecording, '/node').length === 1);
  await direct.send(action('local'), METADATA);
  await directRecording.until(() => valuesAt(directRecording, '/did').length === 1);

  await redis.restart();
  await expect.poll(() => redisStatus(a!)).toMatchObject({ status: 'ready' });
  await expect.poll(() => redisStatus(b!)).toMatchObject({ status: 'ready' });
  await during;
  await recording.until(() => valuesAt(recording, '/did').length === 2);
  expect(valuesAt(recording, '/did')).toEqual(['before', 'during']);
  // Each once, on A, though 'during' was posted (and refused) several times.
  const id = transport.connectionId!;
  // Reports come over IPC and may lag behind the answers.
  await expect
    .poll(() => a!.actions.filter((entry) => entry.startsWith(id)).length)
    .toBeGreaterThanOrEqual(2);
  expect(a!.actions.filter((entry) => entry.startsWith(id))).toEqual([
    `${id} before`,
    `${id} during`,
  ]);
  await transport.send(action('after'), METADATA);
  await recording.until(() => valuesAt(recording, '/did').length === 3);
  await Promise.all([transport.close(), direct.close()]);
});
