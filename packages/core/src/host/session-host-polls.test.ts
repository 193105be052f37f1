import { afterEach, describe, expect, it } from 'vitest';
import type { A2uiAgent, Connection } from '../agent/agent.js';
import type { ServerMessage } from '../protocol/messages.js';
import { createSessionHost, type SessionHost, type SessionHostOptions } from './session-host.js';

const update = (value: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 's', path: '/n', value },
});

const hosts: SessionHost[] = [];
async function opened(options: Partial<SessionHostOptions> = {}) {
  let connection: Connection | undefined;
  const agent: A2uiAgent = {
    onConnect(created) {
      connection = created;
      created.send(update(1));
      created.send(update(2));
    },
  };
  const host = createSessionHost({ agent, authenticate: () => 'p', ...options });
  hosts.push(host);
  const { connectionId } = await host.open({ principal: 'p', awaitTurn: true });
  return { host, connectionId, connection: connection! };
}

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

describe('SessionHost.poll', () => {
  it('acknowledges what the client applied and reads after it', async () => {
    const { host, connectionId } = await opened();
    const read = await host.poll(connectionId, { principal: 'p', afterSeq: 1 });
    expect(read.ok && read.entries.map((entry) => entry.seq)).toEqual([2]);
    expect(await host.session(connectionId)!.replayLog.size()).toMatchObject({ events: 1 });
  });

  it('lets one poll per connection wait: a newer one supersedes it, and gets the next message', async () => {
    const { host, connectionId, connection } = await opened();
    const first = host.poll(connectionId, { principal: 'p', afterSeq: 2, waitMs: 60_000 });
    expect(host.polls).toBe(1);
    const second = host.poll(connectionId, { principal: 'p', afterSeq: 2, waitMs: 60_000 });
    expect(await first).toEqual({ ok: true, superseded: true, entries: [], lastSeq: 2 });
    connection.send(update(3));
    const read = await second;
    expect(read.ok && !('superseded' in read) && read.entries.map((entry) => entry.seq)).toEqual([
      3,
    ]);
    expect(host.polls).toBe(0);
  });
});

describe('SessionHost.closedConnection', () => {
  it('remembers nothing by default', async () => {
    const { host, connectionId, connection } = await opened();
    connection.close();
    expect(await host.closedConnection(connectionId, { principal: 'p' })).toBeUndefined();
  });

  it("keeps an agent-closed connection's unacknowledged messages for its own principal", async () => {
    const { host, connectionId, connection } = await opened({ closedConnectionTtlMs: 60_000 });
    await host.acknowledge(connectionId, { principal: 'p', seq: 1 });
    connection.close();
    const closed = await host.closedConnection(connectionId, { principal: 'p' });
    expect(closed).toMatchObject({ reason: 'server-closed', shutdown: false, lastSeq: 2 });
    expect(closed!.entries.map((entry) => entry.seq)).toEqual([2]);
    expect(host.closedConnections).toBe(1);
    await expect(host.closedConnection(connectionId, { principal: 'q' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    host.forgetClosedConnections();
    expect(await host.closedConnection(connectionId, { principal: 'p' })).toBeUndefined();
  });

  it('says when the shutdown closed it, and forgets a connection its client closed', async () => {
    const { host, connectionId } = await opened({ closedConnectionTtlMs: 60_000 });
    const left = await host.open({ principal: 'p', awaitTurn: true });
    await host.disconnect(left.connectionId, { principal: 'p' });
    await host.close();
    expect(await host.closedConnection(connectionId, { principal: 'p' })).toMatchObject({
      shutdown: true,
    });
    expect(await host.closedConnection(left.connectionId, { principal: 'p' })).toBeUndefined();
  });
});
