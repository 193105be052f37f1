/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real server on 127.0.0.1,
 * port 0, with every capability declared. Each client talks through its own TCP proxy (so its
 * link can be broken or severed) and authenticates with a bearer token in the subprotocol; the
 * server's return channel can refuse its deliveries as a busy agent does (`LIMIT_EXCEEDED`).
 */
import { A2uiError, type ClientTransport, type HostReceiveOptions } from '@a2ui-ts/core';
import { describeTransportConformance } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { WebSocket } from 'ws';
import { startTestServer } from '../test/harness.js';
import { openRawSocket } from '../test/raw-socket.js';
import { connectWs, type WsTransport } from './client/connect-ws.js';
import { bearerProtocol } from './protocol/bearer-token.js';
import { WS_SUBPROTOCOL } from './protocol/wire.js';

/** Redelivery waits at least half of `initialDelayMs`: long enough to tell a backoff from a storm. */
const RECONNECT = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 5 } as const;

describeTransportConformance('websocket', {
  capabilities: { resume: true, auth: true, limits: true, turnResults: false, serverPush: true },
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
        ? (request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? undefined
        : undefined,
    });
    // The return channel of a connection the test refuses answers as an overloaded agent does.
    const host = server.a2ui.host;
    const receive = host.receive.bind(host);
    host.receive = async (connectionId: string, request: HostReceiveOptions) => {
      attempts.get(connectionId)?.push(Date.now());
      const left = refusals.get(connectionId) ?? 0;
      if (left > 0) {
        refusals.set(connectionId, left - 1);
        throw new A2uiError('LIMIT_EXCEEDED', 'Refused by the test.');
      }
      return receive(connectionId, request);
    };
    const proxies = new Map<ClientTransport, TcpProxy>();
    return {
      async createTransport(create = {}) {
        const proxy = await createTcpProxy(server.node.port);
        const transport = connectWs({
          url: proxy.url,
          WebSocket,
          reconnect: RECONNECT,
          token: create.principal,
        });
        proxies.set(transport, proxy);
        return transport;
      },
      dropLink: (transport) => proxies.get(transport)?.drop(),
      severLink(transport) {
        const proxy = proxies.get(transport)!;
        proxy.setRefusing(true);
        proxy.drop();
      },
      restoreLink: (transport) => proxies.get(transport)?.setRefusing(false),
      async hijack(victim, principal) {
        const connectionId = (victim as WsTransport).connectionId!;
        const protocols = [WS_SUBPROTOCOL, bearerProtocol(principal)];
        // A socket carries the messages of the connection it resumed, and no other: taking over
        // the victim's connection is the only way to send on it, and the handshake refuses it.
        const resume = openRawSocket(`${server.url}/ws?connectionId=${connectionId}&lastSeq=0`, {
          protocols,
        });
        const resumeOpened = await resume.opened;
        const resumeStatus = resumeOpened ? 101 : (await resume.refusal).status;
        resume.close();
        return {
          resume: resumeStatus === 403 ? 'FORBIDDEN' : `HTTP ${resumeStatus}`,
          send: resumeOpened
            ? 'accepted'
            : resumeStatus === 403
              ? 'FORBIDDEN'
              : `HTTP ${resumeStatus}`,
        };
      },
      failReturnChannel(transport, count) {
        const connectionId = (transport as WsTransport).connectionId!;
        refusals.set(connectionId, count);
        attempts.set(connectionId, []);
      },
      returnChannelAttempts: (transport) =>
        attempts.get((transport as WsTransport).connectionId!) ?? [],
      minRetryDelayMs: RECONNECT.initialDelayMs / 2,
      sessionCount: () => server.a2ui.stats().sessions,
      async close() {
        for (const transport of proxies.keys()) await transport.close().catch(() => {});
        await server.close();
        for (const proxy of proxies.values()) await proxy.close();
      },
    };
  },
});
