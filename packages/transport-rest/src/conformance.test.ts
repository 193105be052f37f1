/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real server on 127.0.0.1,
 * port 0, with every capability declared: turn results (each POST is answered with the agent's
 * turn) and server push (by long poll). Each client talks through its own TCP proxy (so its polls
 * can be broken or severed) and names itself in a header, so that the server's return channel can
 * refuse its deliveries with real HTTP 503s.
 */
import type { ClientTransport } from '@a2ui-ts/core';
import { describeTransportConformance } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { startTestServer } from '../test/harness.js';
import { connectRest, type RestTransport } from './client/connect-rest.js';
import { errorOfAnswer } from './client/http.js';

/** Redelivery waits at least half of `initialDelayMs`: long enough to tell a backoff from a storm. */
const RECONNECT = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 5 } as const;
const CLIENT_HEADER = 'x-test-client';

describeTransportConformance('rest', {
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
        const refuse = async (
          c: Parameters<Parameters<typeof parent.use>[1]>[0],
          next: () => Promise<void>,
        ) => {
          const client = c.req.header(CLIENT_HEADER);
          if (!client) return next();
          attempts.get(client)?.push(Date.now());
          const left = refusals.get(client) ?? 0;
          if (left <= 0) return next();
          refusals.set(client, left - 1);
          return c.json(
            { error: { code: 'LIMIT_EXCEEDED', message: 'Refused by the test.' } },
            503,
          );
        };
        parent.use('/action', refuse);
        parent.use('/error', refuse);
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
        const transport = connectRest({ url: proxy.url, reconnect: RECONNECT, headers });
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
        const connectionId = (victim as RestTransport).connectionId!;
        const poll = await server.get(`/messages?connectionId=${connectionId}&after=0`, {
          authorization: principal,
        });
        const action = await server.post(
          '/action',
          { connectionId, action: message.action },
          { authorization: principal },
        );
        return {
          resume:
            poll.status === 200 ? 'accepted' : errorOfAnswer(poll.status, poll.body, 'GET').code,
          send:
            action.status === 200
              ? 'accepted'
              : errorOfAnswer(action.status, action.body, 'POST').code,
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
