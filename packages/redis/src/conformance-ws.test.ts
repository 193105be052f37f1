/**
 * The shared transport conformance suite with the Redis stores over WebSocket, on two nodes
 * behind a round-robin balancer without sticky sessions: each (re)connect of a client reaches the
 * other node than the last, which follows the owner's connection from the shared log and forwards
 * the client's messages to it. Each client talks through its own TCP proxy (so its link can be
 * broken or severed); the nodes can refuse its deliveries as a busy agent does.
 */
import { A2uiError, type ClientTransport, type HostReceiveOptions } from '@a2ui-ts/core';
import { describeTransportConformance } from '@a2ui-ts/core/testing';
import { createTcpProxy, type TcpProxy } from '@a2ui-ts/core/testing/node';
import { bearerProtocol, connectWs, WS_SUBPROTOCOL, type WsTransport } from '@a2ui-ts/transport-ws';
import {
  createWsServer,
  serveWs,
  type WsNodeServer,
  type WsServer,
} from '@a2ui-ts/transport-ws/server';
import { inject } from 'vitest';
import { WebSocket } from 'ws';
import { testPrefix } from '../test/stores.js';
import { createRedisScaleOut, type RedisScaleOut } from './create-redis-scale-out.js';
import { startRoundRobinProxy } from './testing/index.js';

const RECONNECT = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 5 } as const;

/** The HTTP status of a refused handshake, or 101 when the socket opened. */
function handshake(url: string, protocols: string[]): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, protocols);
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', () => resolve(0));
  });
}

describeTransportConformance('websocket on two nodes over redis', {
  capabilities: { resume: true, auth: true, limits: true, turnResults: false, serverPush: true },
  async start(agent, options) {
    const refusals = new Map<string, number>();
    const attempts = new Map<string, number[]>();
    const keyPrefix = testPrefix();
    const stores: RedisScaleOut[] = [];
    const servers: WsServer[] = [];
    const nodes: WsNodeServer[] = [];
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
      const server = createWsServer({
        ...scaleOut.hostOptions,
        agent,
        reconnectGraceMs: options.reconnectGraceMs,
        maxClientMessageBytes: options.maxClientMessageBytes,
        authenticate: options.auth
          ? (request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? undefined
          : undefined,
      });
      // The return channel of a connection the test refuses answers as an overloaded agent does,
      // on whichever node the client's socket is.
      const host = server.host;
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
      stores.push(scaleOut);
      servers.push(server);
      nodes.push(await serveWs(server));
    }
    const balancer = await startRoundRobinProxy(
      nodes.map((node) => node.url.replace(/^ws/, 'http')),
    );
    const proxies = new Map<ClientTransport, TcpProxy>();
    return {
      async createTransport(create = {}) {
        const proxy = await createTcpProxy(balancer.port);
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
        // A socket carries the messages of the connection it resumed, and no other: taking over
        // the victim's connection is the only way to send on it, and the handshake refuses it.
        const status = await handshake(
          `ws://127.0.0.1:${balancer.port}/ws?connectionId=${connectionId}&lastSeq=0`,
          [WS_SUBPROTOCOL, bearerProtocol(principal)],
        );
        const outcome =
          status === 403 ? 'FORBIDDEN' : status === 101 ? 'accepted' : `HTTP ${status}`;
        return { resume: status === 403 ? 'FORBIDDEN' : `HTTP ${status}`, send: outcome };
      },
      failReturnChannel(transport, count) {
        const connectionId = (transport as WsTransport).connectionId!;
        refusals.set(connectionId, count);
        attempts.set(connectionId, []);
      },
      returnChannelAttempts: (transport) =>
        attempts.get((transport as WsTransport).connectionId!) ?? [],
      minRetryDelayMs: RECONNECT.initialDelayMs / 2,
      sessionCount: () => servers.reduce((sum, server) => sum + server.stats().sessions, 0),
      async close() {
        for (const transport of proxies.keys()) await transport.close().catch(() => {});
        for (const node of nodes) await node.close();
        for (const scaleOut of stores) await scaleOut.close();
        await balancer.close();
        for (const proxy of proxies.values()) await proxy.close();
      },
    };
  },
});
