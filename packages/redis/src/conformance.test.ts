/**
 * The shared transport conformance suite with the Redis stores, on two SSE + JSON-RPC nodes
 * behind a round-robin load balancer without sticky sessions: successive requests of one client
 * (its event stream, each action, each reconnect) alternate between the nodes. Each client talks
 * through its own TCP proxy (so its link can be broken or severed) and names itself in a header,
 * so that the nodes can refuse its deliveries with real HTTP 503s.
 */
import {
  CONFORMANCE_RECONNECT,
  conformanceHostOptions,
  createReturnChannelFaults,
  describeFunctionCallConformance,
  describeTransportConformance,
  hijackStepOutcome,
  type TransportConformanceHarness,
} from '@a2ui-ts/core/testing';
import { createProxiedLinks } from '@a2ui-ts/core/testing/node';
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

const CLIENT_HEADER = 'x-test-client';

const harness: TransportConformanceHarness = {
  capabilities: { resume: true, auth: true, limits: true, turnResults: true, serverPush: true },
  async start(agent, options) {
    const faults = createReturnChannelFaults();
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
        ...conformanceHostOptions(options),
      });
      const parent = new Hono();
      parent.use('/rpc', async (c, next) => {
        const body = await c.req.raw.clone().text();
        if (body.includes(RPC_METHODS.disconnect)) return next();
        return faults.refuses(c.req.header(CLIENT_HEADER)) ? faults.refusal() : next();
      });
      parent.route('/', app);
      stores.push(scaleOut);
      apps.push(app);
      servers.push(await serveSseJsonRpc({ fetch: parent.fetch, close: () => app.close() }));
    }
    const balancer = await startRoundRobinProxy(servers.map((server) => server.url));
    const links = createProxiedLinks(balancer.port);
    return {
      async createTransport(create = {}) {
        const name = faults.nextName();
        const headers: Record<string, string> = { [CLIENT_HEADER]: name };
        if (create.principal) headers.authorization = create.principal;
        const transport = await links.open((url) =>
          connectSseJsonRpc({ url, reconnect: CONFORMANCE_RECONNECT, headers }),
        );
        return faults.track(transport, name);
      },
      dropLink: links.dropLink,
      severLink: links.severLink,
      restoreLink: links.restoreLink,
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
          resume: hijackStepOutcome(stream.status),
          send: answer.error ? fromRpcError(answer.error).code : 'accepted',
        };
      },
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: CONFORMANCE_RECONNECT.initialDelayMs / 2,
      sessionCount: () => apps.reduce((sum, app) => sum + app.stats().sessions, 0),
      close: () =>
        links.close(async () => {
          for (const server of servers) await server.close();
          for (const scaleOut of stores) await scaleOut.close();
          await balancer.close();
        }),
    };
  },
};

describeTransportConformance('sse-jsonrpc on two nodes over redis', harness);
describeFunctionCallConformance('sse-jsonrpc on two nodes over redis', harness);
