/**
 * Conformance cases of `SessionHost.follow`, for any pair of hosts: one node (the owner follows
 * its own connections) or two sharing their stores (a follower on another node than the owner's,
 * as `createMemoryCluster` or `@a2ui-ts/redis` provide). Requires vitest.
 *
 * @example
 * ```ts
 * describeFollowConformance('two nodes over redis', {
 *   async start(agent) {
 *     const stores = await startStores(); // shared by both nodes
 *     const owner = createSessionHost({ agent, ...stores.node('a') });
 *     const follower = createSessionHost({ agent, ...stores.node('b') });
 *     return { owner, follower, close: () => stores.close() };
 *   },
 * });
 * ```
 */
import { describe, expect, it, vi } from 'vitest';
import type { A2uiAgent, Connection, DisconnectReason } from '../agent/agent.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { SessionFollow } from '../host/session-follow.js';
import type { SessionHost } from '../host/session-host.js';
import type { ServerMessage } from '../protocol/messages.js';

/** The hosts one case runs on. */
export interface FollowConformanceHosts {
  /** Runs the connections (`open` is called on it). */
  readonly owner: SessionHost;
  /** Follows them: the owner itself, or another node over shared stores. */
  readonly follower: SessionHost;
  /** Closes what else the harness started (shared stores), once the suite closed both hosts. */
  close?(): Promise<void>;
}

/** A harness of {@link describeFollowConformance}. */
export interface FollowConformanceHarness {
  /** Starts the hosts for one case, with `agent`. */
  start(agent: A2uiAgent): Promise<FollowConformanceHosts>;
}

const update = (value: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path: '/n', value },
});

const numberIn = (data: string) =>
  (JSON.parse(data) as { updateDataModel: { value: number } }).updateDataModel.value;

/** Reads `follow` to its end; the values of its messages with their `seq`s. */
async function readAll(follow: SessionFollow): Promise<[number, number][]> {
  const seen: [number, number][] = [];
  for await (const entry of follow) seen.push([entry.seq, numberIn(entry.data)]);
  return seen;
}

const refusalOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (!A2uiError.isInstance(error)) throw error;
    return { code: error.code, reset: (error.data as { reset?: string } | undefined)?.reset };
  }
};

/** Registers the follow cases under `describe(name)`. */
export function describeFollowConformance(name: string, harness: FollowConformanceHarness): void {
  /** Opens a connection whose agent sends `first` messages, then runs `body`. */
  async function withConnection(
    first: number,
    body: (context: {
      hosts: FollowConformanceHosts;
      id: string;
      connection: Connection;
      disconnects: DisconnectReason[];
    }) => Promise<void>,
  ): Promise<void> {
    let connection: Connection | undefined;
    const disconnects: DisconnectReason[] = [];
    const hosts = await harness.start({
      onConnect(opened) {
        connection = opened;
        for (let n = 1; n <= first; n++) opened.send(update(n));
      },
      onDisconnect: (_connection, reason) => void disconnects.push(reason),
    });
    try {
      const opened = await hosts.owner.open({ principal: 'p', awaitTurn: true });
      await body({ hosts, id: opened.connectionId, connection: connection!, disconnects });
    } finally {
      await hosts.follower.close();
      await hosts.owner.close();
      await hosts.close?.();
    }
  }

  describe(`follow conformance: ${name}`, () => {
    it('gives two readers at once every message once, in order', async () => {
      await withConnection(2, async ({ hosts, id, connection }) => {
        const one = await hosts.follower.follow(id, { principal: 'p' });
        const two = await hosts.follower.follow(id, { principal: 'p' });
        const reading = Promise.all([readAll(one), readAll(two)]);
        for (let n = 3; n <= 6; n++) connection.send(update(n));
        connection.close();
        const expected = [1, 2, 3, 4, 5, 6].map((n) => [n, n]);
        expect(await reading).toEqual([expected, expected]);
        expect([one.ended, two.ended]).toEqual(['server-closed', 'server-closed']);
      });
    });

    it('starts after afterSeq in the middle of the log', async () => {
      await withConnection(4, async ({ hosts, id, connection }) => {
        const follow = await hosts.follower.follow(id, { principal: 'p', afterSeq: 2 });
        connection.send(update(5));
        connection.close();
        expect(await readAll(follow)).toEqual([
          [3, 3],
          [4, 4],
          [5, 5],
        ]);
      });
    });

    it('ends on its signal, leaving the session running', async () => {
      await withConnection(1, async ({ hosts, id, connection, disconnects }) => {
        const stop = new AbortController();
        const follow = await hosts.follower.follow(id, { principal: 'p', signal: stop.signal });
        const reading = readAll(follow);
        await vi.waitFor(() => expect(follow.lastSeq).toBe(1));
        stop.abort();
        expect(await reading).toEqual([[1, 1]]);
        expect(follow.ended).toBeUndefined();
        connection.send(update(2));
        expect(follow.take()).toEqual([]);
        expect(disconnects).toEqual([]);
      });
    });

    it('ends when the session ends, after its last messages', async () => {
      await withConnection(0, async ({ hosts, id, disconnects }) => {
        const follow = await hosts.follower.follow(id, { principal: 'p' });
        const reading = readAll(follow);
        await hosts.follower.disconnect(id, { principal: 'p' });
        expect(await reading).toEqual([]);
        expect(follow.ended).toBe('client-closed');
        await vi.waitFor(() => expect(disconnects).toEqual(['client-closed']));
      });
    });

    it('holds presence: no grace period runs while a follow is held', async () => {
      await withConnection(1, async ({ hosts, id }) => {
        const session = hosts.owner.session(id)!;
        expect(session.pendingGrace).toBe(true);
        const stop = new AbortController();
        const follow = await hosts.follower.follow(id, { principal: 'p', signal: stop.signal });
        expect(session.pendingGrace).toBe(false);
        const second = await hosts.follower.follow(id, { principal: 'p', afterSeq: 1 });
        second.stop();
        // One follow still holds it.
        await vi.waitFor(() => expect(session.followers + session.remoteLinks).toBe(1));
        expect(session.pendingGrace).toBe(false);
        stop.abort();
        await vi.waitFor(() => expect(session.pendingGrace).toBe(true));
        expect(follow.live).toBe(false);
      });
    });

    it('refuses an unknown connection, a gap, and another principal', async () => {
      await withConnection(1, async ({ hosts, id }) => {
        expect(
          await refusalOf(hosts.follower.follow('AAAAAAAAAAAAAAAAAAAAAA', { principal: 'p' })),
        ).toEqual({ code: 'CONNECTION_CLOSED', reset: 'unknown-connection' });
        expect(await refusalOf(hosts.follower.follow(id, { principal: 'p', afterSeq: 9 }))).toEqual(
          { code: 'CONNECTION_CLOSED', reset: 'replay-gap' },
        );
        expect(await refusalOf(hosts.follower.follow(id, { principal: 'q' }))).toMatchObject({
          code: 'FORBIDDEN',
        });
        expect(hosts.owner.session(id)!.pendingGrace).toBe(true);
      });
    });
  });
}
