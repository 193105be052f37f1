/**
 * `maxSessions` and `maxSessionsPerPrincipal`: what a client opening (and abandoning) event streams
 * can make the server hold. Regression tests of the finding that every `GET /sse` left a session
 * and its replay log behind for `reconnectGraceMs`, without bound. Driven through `app.fetch`, in
 * memory: no sockets, no clocks.
 */
import { type A2uiAgent, BASIC_CATALOG_ID, type DisconnectReason } from '@a2ui-ts/core';
import { createMemoryReplayLog, type MemoryReplayLog } from '@a2ui-ts/core/host';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSseJsonRpcServer,
  SESSION_LIMIT_RETRY_AFTER_SECONDS,
  type SseJsonRpcServer,
  type SseJsonRpcServerOptions,
} from './create-sse-json-rpc-server.js';

/** 64 KiB of text in one data-model update: what each new session costs in its replay log. */
const PAYLOAD = 'x'.repeat(64 * 1024);

function setup(extra: Partial<SseJsonRpcServerOptions> = {}) {
  const disconnects: Array<{ id: string; reason: DisconnectReason }> = [];
  const logs: MemoryReplayLog[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connection.send([
        { version: 'v0.9', createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID } },
        {
          version: 'v0.9',
          updateDataModel: { surfaceId: 'main', path: '/blob', value: PAYLOAD },
        },
      ]);
    },
    onDisconnect(connection, reason) {
      disconnects.push({ id: connection.id, reason });
    },
  };
  const app = createSseJsonRpcServer({
    agent,
    createReplayLog: () => {
      const log = createMemoryReplayLog();
      logs.push(log);
      return log;
    },
    ...extra,
  });
  servers.push(app);
  return { app, disconnects, logs };
}

const servers: SseJsonRpcServer[] = [];
afterEach(async () => {
  for (const app of servers.splice(0)) await app.close();
});

interface OpenStream {
  readonly response: Response;
  readonly connectionId: string | undefined;
  /** Aborts the request, as a client going away does. */
  abort(): Promise<void>;
}

/** `GET /sse`, reading up to the `connected` event. */
async function open(
  app: SseJsonRpcServer,
  {
    token,
    resume,
  }: { token?: string; resume?: { connectionId: string; lastEventId: number } } = {},
): Promise<OpenStream> {
  const controller = new AbortController();
  const headers = new Headers();
  if (token) headers.set('authorization', token);
  let url = 'http://127.0.0.1/sse';
  if (resume) {
    url += `?connectionId=${resume.connectionId}`;
    headers.set('last-event-id', String(resume.lastEventId));
  }
  const response = await app.fetch(new Request(url, { headers, signal: controller.signal }));
  if (!response.ok || !response.body)
    return { response, connectionId: undefined, abort: async () => {} };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let connectionId: string | undefined;
  while (connectionId === undefined) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const data = /event: connected\ndata: (\{[^\n]*\})\n/.exec(text)?.[1];
    if (data) connectionId = (JSON.parse(data) as { connectionId: string }).connectionId;
  }
  return {
    response,
    connectionId,
    async abort() {
      controller.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

const replayBytes = (logs: MemoryReplayLog[]) =>
  logs.reduce((sum, log) => sum + log.size().bytes, 0);

describe('maxSessions', () => {
  it('holds under many open-and-abort requests: sessions and replay memory stay bounded', async () => {
    const { app, disconnects, logs } = setup({ maxSessions: 20 });
    for (let i = 0; i < 300; i++) await (await open(app)).abort();
    const stats = app.stats();
    expect(stats.links).toBe(0);
    expect(stats.sessions).toBeLessThanOrEqual(20);
    expect(stats.evictedSessions).toBe(280);
    expect(stats.refusedSessions).toBe(0);
    expect(logs).toHaveLength(300);
    // Only the 20 live sessions keep their replay log; each evicted one has been cleared.
    expect(replayBytes(logs)).toBeLessThanOrEqual(20 * (PAYLOAD.length + 1024));
    expect(replayBytes(logs)).toBeGreaterThan(19 * PAYLOAD.length);
    await Promise.resolve();
    expect(disconnects).toHaveLength(280);
    expect(new Set(disconnects.map((entry) => entry.reason))).toEqual(new Set(['grace-expired']));
  });

  it('evicts the oldest session without a link, never one with a link', async () => {
    const { app, disconnects } = setup({ maxSessions: 3 });
    const attached = await open(app);
    const detachedOld = await open(app);
    const detachedNew = await open(app);
    await detachedOld.abort();
    await detachedNew.abort();
    const fourth = await open(app);
    expect(fourth.response.status).toBe(200);
    await Promise.resolve();
    expect(disconnects).toEqual([{ id: detachedOld.connectionId, reason: 'grace-expired' }]);
    const live = new Set([...app.host.sessions()].map((session) => session.id));
    expect(live).toEqual(
      new Set([attached.connectionId, detachedNew.connectionId, fourth.connectionId]),
    );
    await attached.abort();
    await fourth.abort();
  });

  it('refuses a new stream with 503, Retry-After and a JSON error when every session has a link, creating nothing', async () => {
    const { app, disconnects, logs } = setup({ maxSessions: 2 });
    const first = await open(app);
    const second = await open(app);
    const refused = await open(app);
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get('retry-after')).toBe(
      String(SESSION_LIMIT_RETRY_AFTER_SECONDS),
    );
    expect(await refused.response.json()).toEqual({
      error: { code: 'LIMIT_EXCEEDED', message: 'Too many open connections; retry later.' },
    });
    // An unknown connection id is a new session too: it cannot go around the cap.
    const unknown = await open(app, {
      resume: { connectionId: 'AAAAAAAAAAAAAAAAAAAAAA', lastEventId: 0 },
    });
    expect(unknown.response.status).toBe(503);
    expect(app.stats()).toMatchObject({ sessions: 2, links: 2, refusedSessions: 2 });
    expect(logs).toHaveLength(2);
    expect(disconnects).toEqual([]);
    await first.abort();
    await second.abort();
  });

  it('never refuses the resume of a live session, even at the cap', async () => {
    const { app } = setup({ maxSessions: 2 });
    const first = await open(app);
    const second = await open(app);
    await first.abort();
    // At the cap, and the only session without a link is the one about to resume.
    const resumed = await open(app, {
      resume: { connectionId: first.connectionId!, lastEventId: 0 },
    });
    expect(resumed.response.status).toBe(200);
    expect(resumed.connectionId).toBe(first.connectionId);
    expect(app.stats()).toMatchObject({ sessions: 2, links: 2, evictedSessions: 0 });
    // Now both have links: a new session is refused, the resume of either is not.
    expect((await open(app)).response.status).toBe(503);
    await resumed.abort();
    const again = await open(app, {
      resume: { connectionId: first.connectionId!, lastEventId: 2 },
    });
    expect(again.connectionId).toBe(first.connectionId);
    await again.abort();
    await second.abort();
  });
});

describe('maxSessionsPerPrincipal', () => {
  const authenticate = (request: Request) => request.headers.get('authorization') ?? undefined;

  it('bounds the sessions of one principal without touching another principal', async () => {
    const { app, disconnects } = setup({ authenticate, maxSessionsPerPrincipal: 2 });
    const bob = await open(app, { token: 'bob' });
    const alice: OpenStream[] = [];
    for (let i = 0; i < 2; i++) alice.push(await open(app, { token: 'alice' }));
    // Alice at her cap, all with links: refused, while Bob (and his session) are unaffected.
    expect((await open(app, { token: 'alice' })).response.status).toBe(503);
    expect((await open(app, { token: 'bob' })).response.status).toBe(200);
    // One of Alice's links drops: her next session evicts it, not Bob's.
    await alice[0]!.abort();
    const replacement = await open(app, { token: 'alice' });
    expect(replacement.response.status).toBe(200);
    await Promise.resolve();
    expect(disconnects).toEqual([{ id: alice[0]!.connectionId, reason: 'grace-expired' }]);
    expect(app.host.session(bob.connectionId!)?.closed).toBe(false);
    // Many open-and-abort requests by Alice keep her at two sessions.
    for (let i = 0; i < 50; i++) await (await open(app, { token: 'alice' })).abort();
    const aliceSessions = [...app.host.sessions()].filter(
      (session) => session.principal === 'alice',
    );
    expect(aliceSessions).toHaveLength(2);
    expect(app.stats().sessions).toBe(4);
  });

  it('groups principals by principalKey, equal JSON by default', async () => {
    const { app } = setup({
      authenticate: (request) => ({ user: request.headers.get('authorization') }),
      maxSessionsPerPrincipal: 1,
    });
    const first = await open(app, { token: 'ada' });
    expect((await open(app, { token: 'ada' })).response.status).toBe(503);
    expect((await open(app, { token: 'bob' })).response.status).toBe(200);
    await first.abort();
  });

  it('does not apply without authenticate: only maxSessions counts', async () => {
    const { app } = setup({ maxSessionsPerPrincipal: 1, maxSessions: 3 });
    const streams = [await open(app), await open(app), await open(app)];
    expect(streams.map((stream) => stream.response.status)).toEqual([200, 200, 200]);
    expect((await open(app)).response.status).toBe(503);
    for (const stream of streams) await stream.abort();
  });
});
