/**
 * The shared transport conformance suite with the Redis stores over WebSocket, on two nodes
 * behind a round-robin balancer without sticky sessions: each (re)connect of a client reaches the
 * other node than the last, which follows the owner's connection from the shared log and forwards
 * the client's messages to it. Each client talks through its own TCP proxy (so its link can be
 * broken or severed); the nodes can refuse its deliveries as a busy agent does.
 */
import type { HostReceiveOptions } from '@a2ui-ts/core/host';
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

const harness: TransportConformanceHarness = {
  capabilities: { resume: true, auth: true, limits: true, turnResults: false, serverPush: true },
  async start(agent, options) {
    const faults = createReturnChannelFaults();
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
        ...conformanceHostOptions(
          options,
          (request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? undefined,
        ),
      });
      // The return channel of a connection the test refuses answers as an overloaded agent does,
      // on whichever node the client's socket is.
      const host = server.host;
      const receive = host.receive.bind(host);
      host.receive = async (connectionId: string, request: HostReceiveOptions) => {
        if (faults.refuses(connectionId)) throw faults.refusalError();
        return receive(connectionId, request);
      };
      stores.push(scaleOut);
      servers.push(server);
      nodes.push(await serveWs(server));
    }
    const balancer = await startRoundRobinProxy(
      nodes.map((node) => node.url.replace(/^ws/, 'http')),
    );
    const links = createProxiedLinks(balancer.port);
    return {
      async createTransport(create = {}) {
        const transport = await links.open((url) =>
          connectWs({ url, WebSocket, reconnect: CONFORMANCE_RECONNECT, token: create.principal }),
        );
        return faults.track(transport, () => transport.connectionId);
      },
      dropLink: links.dropLink,
      severLink: links.severLink,
      restoreLink: links.restoreLink,
      async hijack(victim, principal) {
        const connectionId = (victim as WsTransport).connectionId!;
        // A socket carries the messages of the connection it resumed, and no other: taking over
        // the victim's connection is the only way to send on it, and the handshake refuses it.
        const status = await handshake(
          `ws://127.0.0.1:${balancer.port}/ws?connectionId=${connectionId}&lastSeq=0`,
          [WS_SUBPROTOCOL, bearerProtocol(principal)],
        );
        const outcome = hijackStepOutcome(status);
        return { resume: outcome, send: outcome };
      },
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: CONFORMANCE_RECONNECT.initialDelayMs / 2,
      sessionCount: () => servers.reduce((sum, server) => sum + server.stats().sessions, 0),
      close: () =>
        links.close(async () => {
          for (const node of nodes) await node.close();
          for (const scaleOut of stores) await scaleOut.close();
          await balancer.close();
        }),
    };
  },
};

describeTransportConformance('websocket on two nodes over redis', harness);
describeFunctionCallConformance('websocket on two nodes over redis', harness);
