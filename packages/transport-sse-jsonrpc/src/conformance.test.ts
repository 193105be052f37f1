/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real server on 127.0.0.1,
 * port 0, with every capability declared. Each client talks through its own TCP proxy (so its
 * link can be broken or severed) and names itself in a header, so that the server's return
 * channel can refuse its deliveries with real HTTP 503s.
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
import { startTestServer } from '../test/harness.js';
import { connectSseJsonRpc, type SseJsonRpcTransport } from './client/connect-sse-json-rpc.js';
import { fromRpcError } from './protocol/json-rpc-errors.js';
import { RPC_METHODS } from './protocol/wire.js';

const CLIENT_HEADER = 'x-test-client';

const harness: TransportConformanceHarness = {
  capabilities: {
    resume: true,
    auth: true,
    limits: true,
    turnResults: true,
    serverPush: true,
    reload: true,
  },
  async start(agent, options) {
    const faults = createReturnChannelFaults();
    const server = await startTestServer({
      agent,
      ...conformanceHostOptions(options),
      configure(parent) {
        parent.use('/rpc', async (c, next) => {
          const body = await c.req.raw.clone().text();
          if (body.includes(RPC_METHODS.disconnect)) return next();
          return faults.refuses(c.req.header(CLIENT_HEADER)) ? faults.refusal() : next();
        });
      },
    });
    const links = createProxiedLinks(server.node.port);
    return {
      async createTransport(create = {}) {
        const name = faults.nextName();
        const headers: Record<string, string> = { [CLIENT_HEADER]: name };
        if (create.principal) headers.authorization = create.principal;
        const transport = await links.open((url) =>
          connectSseJsonRpc({
            url,
            reconnect: CONFORMANCE_RECONNECT,
            headers,
            resume: create.resume ?? false,
          }),
        );
        return faults.track(transport, name);
      },
      dropLink: links.dropLink,
      severLink: links.severLink,
      // A reloaded page: its link is cut and it never says goodbye.
      abandon: links.severLink,
      restoreLink: links.restoreLink,
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
          resume: hijackStepOutcome(stream.status),
          send: answer.error ? fromRpcError(answer.error).code : 'accepted',
        };
      },
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: CONFORMANCE_RECONNECT.initialDelayMs / 2,
      sessionCount: () => server.app.stats().sessions,
      close: () => links.close(() => server.close()),
    };
  },
};

describeTransportConformance('sse-jsonrpc', harness);
describeFunctionCallConformance('sse-jsonrpc', harness);
