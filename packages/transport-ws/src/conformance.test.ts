/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real server on 127.0.0.1,
 * port 0, with every capability declared. Each client talks through its own TCP proxy (so its
 * link can be broken or severed) and authenticates with a bearer token in the subprotocol; the
 * server's return channel can refuse its deliveries as a busy agent does (`LIMIT_EXCEEDED`).
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
import { WebSocket } from 'ws';
import { startTestServer } from '../test/harness.js';
import { openRawSocket } from '../test/raw-socket.js';
import { connectWs, type WsTransport } from './client/connect-ws.js';
import { bearerProtocol } from './protocol/bearer-token.js';
import { WS_SUBPROTOCOL } from './protocol/wire.js';

const harness: TransportConformanceHarness = {
  capabilities: {
    resume: true,
    auth: true,
    limits: true,
    turnResults: false,
    serverPush: true,
    reload: true,
  },
  async start(agent, options) {
    const faults = createReturnChannelFaults();
    const server = await startTestServer({
      agent,
      ...conformanceHostOptions(
        options,
        (request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? undefined,
      ),
    });
    // The return channel of a connection the test refuses answers as an overloaded agent does.
    const host = server.a2ui.host;
    const receive = host.receive.bind(host);
    host.receive = async (connectionId: string, request: HostReceiveOptions) => {
      if (faults.refuses(connectionId)) throw faults.refusalError();
      return receive(connectionId, request);
    };
    const links = createProxiedLinks(server.node.port);
    return {
      async createTransport(create = {}) {
        const transport = await links.open((url) =>
          connectWs({
            url,
            WebSocket,
            reconnect: CONFORMANCE_RECONNECT,
            token: create.principal,
            resume: create.resume ?? false,
          }),
        );
        return faults.track(transport, () => transport.connectionId);
      },
      dropLink: links.dropLink,
      severLink: links.severLink,
      // A reloaded page: its link is cut and it never says goodbye.
      abandon: links.severLink,
      restoreLink: links.restoreLink,
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
        const outcome = hijackStepOutcome(resumeStatus);
        return { resume: outcome, send: outcome };
      },
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: CONFORMANCE_RECONNECT.initialDelayMs / 2,
      sessionCount: () => server.a2ui.stats().sessions,
      close: () => links.close(() => server.close()),
    };
  },
};

describeTransportConformance('websocket', harness);
describeFunctionCallConformance('websocket', harness);
