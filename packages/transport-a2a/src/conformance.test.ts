/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real A2A server on 127.0.0.1,
 * port 0. Each client talks through its own TCP proxy (so its link can be broken or severed) and
 * names itself in a header, so that the server can refuse its messages with real HTTP 503s.
 *
 * Not declared: `auth`. Sessions are scoped to their principal (A2A's rule for tasks), so another
 * principal's resume or action finds nothing (`TaskNotFound`, a session of its own) rather than a
 * `FORBIDDEN`; `server/principals.test.ts` proves that isolation.
 */
import type { ClientTransport } from '@a2ui-ts/core';
import { describeTransportConformance } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { startTestServer } from '../test/harness.js';
import { connectA2a } from './client/connect-a2a.js';

/** Redelivery waits at least half of `initialDelayMs`: long enough to tell a backoff from a storm. */
const RECONNECT = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 5 } as const;
const CLIENT_HEADER = 'x-test-client';
const SEND_METHODS = ['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream'];

describeTransportConformance('a2a', {
  capabilities: { resume: true, auth: false, limits: true, turnResults: true, serverPush: true },
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
      configure(parent) {
        parent.post('/', async (c, next) => {
          const client = c.req.header(CLIENT_HEADER);
          const body = (await c.req.raw.clone().json()) as {
            method?: string;
            params?: { message?: { parts?: unknown[] } };
          };
          // Client messages only: the opening message has no parts.
          const isClientMessage =
            SEND_METHODS.includes(body.method ?? '') &&
            (body.params?.message?.parts?.length ?? 0) > 0;
          if (!client || !isClientMessage) return next();
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
      async createTransport() {
        const proxy = await createTcpProxy(server.node.port);
        const name = `client-${proxies.size + 1}`;
        const transport = connectA2a({
          url: proxy.url,
          reconnect: RECONNECT,
          headers: { [CLIENT_HEADER]: name },
        });
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
