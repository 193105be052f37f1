/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real A2A server on 127.0.0.1,
 * port 0. Each client talks through its own TCP proxy (so its link can be broken or severed) and
 * names itself in a header, so that the server can refuse its messages with real HTTP 503s.
 *
 * Not declared: `auth`. Sessions are scoped to their principal (A2A's rule for tasks), so another
 * principal's resume or action finds nothing (`TaskNotFound`, a session of its own) rather than a
 * `FORBIDDEN`; `server/principals.test.ts` proves that isolation.
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
import { startTestServer } from '../test/harness.js';
import { connectA2a } from './client/connect-a2a.js';

const CLIENT_HEADER = 'x-test-client';
const SEND_METHODS = ['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream'];

const harness: TransportConformanceHarness = {
  capabilities: { resume: true, auth: false, limits: true, turnResults: true, serverPush: true },
  async start(agent, options) {
    const faults = createReturnChannelFaults();
    const server = await startTestServer({
      agent,
      ...conformanceHostOptions(options),
      configure(parent) {
        parent.post('/', async (c, next) => {
          const body = (await c.req.raw.clone().json()) as {
            method?: string;
            params?: { message?: { parts?: unknown[] } };
          };
          // Client messages only: the opening message has no parts.
          const isClientMessage =
            SEND_METHODS.includes(body.method ?? '') &&
            (body.params?.message?.parts?.length ?? 0) > 0;
          if (!isClientMessage) return next();
          return faults.refuses(c.req.header(CLIENT_HEADER)) ? faults.refusal() : next();
        });
      },
    });
    const links = createProxiedLinks(server.node.port);
    return {
      async createTransport() {
        const name = faults.nextName();
        const transport = await links.open((url) =>
          connectA2a({ url, reconnect: CONFORMANCE_RECONNECT, headers: { [CLIENT_HEADER]: name } }),
        );
        return faults.track(transport, name);
      },
      dropLink: links.dropLink,
      severLink: links.severLink,
      restoreLink: links.restoreLink,
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: CONFORMANCE_RECONNECT.initialDelayMs / 2,
      sessionCount: () => server.app.stats().sessions,
      close: () => links.close(() => server.close()),
    };
  },
};

describeTransportConformance('a2a', harness);
describeFunctionCallConformance('a2a', harness);
