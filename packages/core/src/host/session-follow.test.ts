import { afterEach, describe, expect, it, vi } from 'vitest';
import type { A2uiAgent, Connection } from '../agent/agent.js';
import { describeFollowConformance } from '../testing/follow-conformance.js';
import { createMemoryCluster } from '../testing/memory-cluster.js';
import { createSessionHost } from './session-host.js';

describeFollowConformance('one node', {
  async start(agent) {
    const host = createSessionHost({ agent });
    return { owner: host, follower: host };
  },
});

describeFollowConformance('two nodes over a memory cluster', {
  async start(agent) {
    const cluster = createMemoryCluster();
    const shared = { agent, registry: cluster.registry, createReplayLog: cluster.createReplayLog };
    return {
      owner: createSessionHost({ ...shared, router: cluster.router('a') }),
      follower: createSessionHost({ ...shared, router: cluster.router('b') }),
    };
  },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('SessionHost.follow', () => {
  it('keeps a followed connection past its grace period, which runs again once the follow ends', async () => {
    vi.useFakeTimers();
    let connection: Connection | undefined;
    const closed: string[] = [];
    const agent: A2uiAgent = {
      onConnect(opened) {
        connection = opened;
      },
      onDisconnect: (_connection, reason) => void closed.push(reason),
    };
    const host = createSessionHost({ agent, reconnectGraceMs: 1_000 });
    const { connectionId } = await host.open({ principal: undefined, awaitTurn: true });
    const follow = await host.follow(connectionId, { principal: undefined });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(host.session(connectionId)?.closed).toBe(false);
    connection!.send({ version: 'v0.9', deleteSurface: { surfaceId: 's' } });
    expect(follow.take().map((entry) => entry.seq)).toEqual([1]);
    follow.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(closed).toEqual(['grace-expired']);
    await host.close();
  });

  it('stops a reader that takes nothing once more than maxBufferedBytes wait', async () => {
    let connection: Connection | undefined;
    const host = createSessionHost({
      agent: {
        onConnect(opened) {
          connection = opened;
        },
      },
    });
    const { connectionId } = await host.open({ principal: undefined, awaitTurn: true });
    const follow = await host.follow(connectionId, { principal: undefined, maxBufferedBytes: 100 });
    for (let n = 0; n < 3; n++)
      connection!.send({ version: 'v0.9', deleteSurface: { surfaceId: `surface-${n}` } });
    expect(follow.live).toBe(false);
    await expect(follow.next()).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(host.session(connectionId)?.followers).toBe(0);
    await host.close();
  });

  it('keeps a followed connection from eviction by the session cap', async () => {
    const host = createSessionHost({ agent: {}, maxSessions: 1 });
    const { connectionId } = await host.open({ principal: undefined, awaitTurn: true });
    const follow = await host.follow(connectionId, { principal: undefined });
    await expect(host.open({ principal: undefined })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
    follow.stop();
    await host.open({ principal: undefined });
    expect(host.session(connectionId)).toBeUndefined();
    await host.close();
  });

  it('ends every follow when the host closes', async () => {
    const host = createSessionHost({ agent: {} });
    const { connectionId } = await host.open({ principal: undefined, awaitTurn: true });
    const follow = await host.follow(connectionId, { principal: undefined });
    await host.close();
    expect(await follow.next()).toBeUndefined();
    expect(follow.ended).toBe('server-closed');
  });
});
