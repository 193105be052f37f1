/**
 * The shared transport conformance suite with the Redis stores, on two SSE + JSON-RPC nodes
 * behind a round-robin load balancer without sticky sessions: successive requests of one client
 * (its event stream, each action, each reconnect) alternate between the nodes. Each client talks
 * through its own TCP proxy (so its link can be broken or severed) and names itself in a header,
 * so that the nodes can refuse its deliveries with real HTTP 503s.
 */
import type { ClientTransport } from '@a2ui-ts/core';
import { describeTransportConformance } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import {
  connectSseJsonRpc,
  createSseJsonRpcServer,
  fromRpcError,
  RPC_METHODS,
  type SseJsonRpcServer,
  type SseJsonRpcTransport,
} from '@a2ui-ts/transport-sse-jsonrpc';
import { type SseJsonRpcNodeServer, serveSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { Hono } from 'hono';
import { inject } from 'vitest';
import { testPrefix } from '../test/stores.js';
import { createRedisScaleOut, type RedisScaleOut } from './create-redis-scale-out.js';
import { startRoundRobinProxy } from './testing/index.js';

/** Redelivery waits at least half of `initialDelayMs`: long enough to tell a backoff from a storm. */
const RECONNECT = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 5 } as const;
const CLIENT_HEADER = 'x-test-client';

describeTransportConformance('sse-jsonrpc on two nodes over redis', {
  capabilities: { resume: true, auth: true, limits: true, turnResults: true, serverPush: true },
  async start(agent, options) {
    const refusals = new Map<string, number>();
    const attempts = new Map<string, number[]>();
    const keyPrefix = testPrefix();
    const stores: RedisScaleOut[] = [];
    const apps: SseJsonRpcServer[] = [];
    const servers: SseJsonRpcNodeServer[] = [];
    for (let node = 0; node < 2; node++) {
      const scaleOut = await createRedisScaleOut({
        url: inject('redisUrl'),
        keyPrefix,
        leaseTtlMs: 5_000,
        replayBuffer:
          options.replayBufferEvents === undefined
            ? undefined
            : { maxEvents: options.replayBufferEvents },
      });
      const app = createSseJsonRpcServer({
        ...scaleOut.hostOptions,
        agent,
        retryMs: 5,
        reconnectGraceMs: options.reconnectGraceMs,
        maxClientMessageBytes: options.maxClientMessageBytes,
        authenticate: options.auth
          ? (request) => request.headers.get('authorization') ?? undefined
          : undefined,
      });
      const parent = new Hono();
      parent.use('/rpc', async (c, next) => {
        const client = c.req.header(CLIENT_HEADER);
        const body = await c.req.raw.clone().text();
        if (!client || body.includes(RPC_METHODS.disconnect)) return next();
        attempts.get(client)?.push(Date.now());
        const left = refusals.get(client) ?? 0;
        if (left <= 0) return next();
        refusals.set(client, left - 1);
        return c.json({ error: { code: 'LIMIT_EXCEEDED', message: 'Refused by the test.' } }, 503);
      });
      parent.route('/', app);
      stores.push(scaleOut);
      apps.push(app);
      servers.push(await serveSseJsonRpc({ fetch: parent.fetch, close: () => app.close() }));
    }
    const balancer = await startRoundRobinProxy(servers.map((server) => server.url));
    const proxies = new Map<ClientTransport, TcpProxy>();
    const names = new Map<ClientTransport, string>();
    return {
      async createTransport(create = {}) {
        const proxy = await createTcpProxy(balancer.port);
        const name = `client-${proxies.size + 1}`;
        const headers: Record<string, string> = { [CLIENT_HEADER]: name };
        if (create.principal) headers.authorization = create.principal;
        const transport = connectSseJsonRpc({ url: proxy.url, reconnect: RECONNECT, headers });
        proxies.set(transport, proxy);
        names.set(transport, name);
        attempts.set(name, []);
        return transport;
      },
      dropLink: (transport) => proxies.get(transport)?.drop(),
      severLink(transport) {
        const proxy = proxies.get(transport)!;
        proxy.setRefusing(true);
        proxy.drop();
      },
      restoreLink: (transport) => proxies.get(transport)?.setRefusing(false),
      async hijack(victim, principal, message) {
        const connectionId = (victim as SseJsonRpcTransport).connectionId!;
        // Through the balancer: the stream goes to one node, the action to the other.
        const stream = await fetch(`${balancer.url}/sse?connectionId=${connectionId}`, {
          headers: { authorization: principal, 'Last-Event-ID': '0' },
        });
        await stream.body?.cancel();
        const rpc = await fetch(`${balancer.url}/rpc`, {
          method: 'POST',
          headers: { authorization: principal, 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 'stolen',
            method: RPC_METHODS.action,
            params: { connectionId, action: message.action },
          }),
        });
        const answer = (await rpc.json()) as { error?: { code: number; message: string } };
        return {
          resume: stream.status === 403 ? 'FORBIDDEN' : `HTTP ${stream.status}`,
          send: answer.error ? fromRpcError(answer.error).code : 'accepted',
        };
      },
      failReturnChannel(transport, count) {
        const name = names.get(transport)!;
        refusals.set(name, count);
        attempts.set(name, []);
      },
      returnChannelAttempts: (transport) => attempts.get(names.get(transport)!) ?? [],
      minRetryDelayMs: RECONNECT.initialDelayMs / 2,
      sessionCount: () => apps.reduce((sum, app) => sum + app.stats().sessions, 0),
      async close() {
        for (const transport of proxies.keys()) await transport.close().catch(() => {});
        for (const server of servers) await server.close();
        for (const scaleOut of stores) await scaleOut.close();
        await balancer.close();
        for (const proxy of proxies.values()) await proxy.close();
      },
    };
  },
});
