/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real server on 127.0.0.1,
 * port 0, with every capability declared: turn results (each POST is answered with the agent's
 * turn) and server push (by long poll). Each client talks through its own TCP proxy (so its polls
 * can be broken or severed) and names itself in a header, so that the server's return channel can
 * refuse its deliveries with real HTTP 503s.
 */
import {
  CONFORMANCE_RECONNECT,
  conformanceHostOptions,
  createReturnChannelFaults,
  describeFunctionCallConformance,
  describeTransportConformance,
  type TransportConformanceHarness,
} from '@a2ui-ts/core/testing';
import { createProxiedLinks } from '@a2ui-ts/core/testing/node';
import type { MiddlewareHandler } from 'hono';
import { startTestServer } from '../test/harness.js';
import { connectRest, type RestTransport } from './client/connect-rest.js';
import { errorOfAnswer } from './client/http.js';

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
        const refuse: MiddlewareHandler = (c, next) =>
          faults.refuses(c.req.header(CLIENT_HEADER)) ? Promise.resolve(faults.refusal()) : next();
        parent.use('/action', refuse);
        parent.use('/error', refuse);
      },
    });
    const links = createProxiedLinks(server.node.port);
    return {
      async createTransport(create = {}) {
        const name = faults.nextName();
        const headers: Record<string, string> = { [CLIENT_HEADER]: name };
        if (create.principal) headers.authorization = create.principal;
        const transport = await links.open((url) =>
          connectRest({
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
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: CONFORMANCE_RECONNECT.initialDelayMs / 2,
      sessionCount: () => server.app.stats().sessions,
      close: () => links.close(() => server.close()),
    };
  },
};

describeTransportConformance('rest', harness);
describeFunctionCallConformance('rest', harness);
