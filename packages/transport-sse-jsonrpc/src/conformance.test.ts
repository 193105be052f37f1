/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real server on 127.0.0.1,
 * port 0, with every capability declared. Each client talks through its own TCP proxy (so its
 * link can be broken or severed) and names itself in a header, so that the server's return
 * channel can refuse its deliveries with real HTTP 503s.
 */
import type { ClientTransport } from '@a2ui-ts/core';
import { describeTransportConformance } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { startTestServer } from '../test/harness.js';
import { connectSseJsonRpc, type SseJsonRpcTransport } from './client/connect-sse-json-rpc.js';
import { fromRpcError } from './protocol/json-rpc-errors.js';
import { RPC_METHODS } from './protocol/wire.js';

/** Redelivery waits at least half of `initialDelayMs`: long enough to tell a backoff from a storm. */
const RECONNECT = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 5 } as const;
const CLIENT_HEADER = 'x-test-client';

describeTransportConformance('sse-jsonrpc', {
  capabilities: { resume: true, auth: true, limits: true, turnResults: true, serverPush: true },
  async start(agent, options) {
    const refusals = new Map<string, number>();
    const attempts = new Map<string, number[]>();
    const server = await startTestServer({
      agent,
      reconnectGraceMs: options.reconnectGraceMs,
      replayBuffer:
        options.replayBufferEvents === undefined
          ? undefined
          : { maxEvents: options.replayBufferEvents },
      maxClientMessageBytes: options.maxClientMessageBytes,
      authenticate: options.auth
        ? (request) => request.headers.get('authorization') ?? undefined
        : undefined,
      configure(parent) {
        parent.use('/rpc', async (c, next) => {
          const client = c.req.header(CLIENT_HEADER);
          const body = await c.req.raw.clone().text();
          if (!client || body.includes(RPC_METHODS.disconnect)) return next();
          attempts.get(client)?.push(Date.now());
          const left = refusals.get(client) ?? 0;
          if (left <= 0) return next();
          refusals.set(client, left - 1);
          return c.json(
            { error: { code: 'LIMIT_EXCEEDED', message: 'Refused by the test.' } },
            503,
          );
        });
      },
    });
    const proxies = new Map<ClientTransport, TcpProxy>();
    const names = new Map<ClientTransport, string>();
    return {
      async createTransport(create = {}) {
        const proxy = await createTcpProxy(server.node.port);
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
        const base = server.node.url;
        const stream = await fetch(`${base}/sse?connectionId=${connectionId}`, {
          headers: { authorization: principal, 'Last-Event-ID': '0' },
        });
        await stream.body?.cancel();
        const rpc = await fetch(`${base}/rpc`, {
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
      sessionCount: () => server.app.stats().sessions,
      async close() {
        for (const transport of proxies.keys()) await transport.close().catch(() => {});
        await server.close();
        for (const proxy of proxies.values()) await proxy.close();
      },
    };
  },
});
