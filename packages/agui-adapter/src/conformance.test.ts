/**
 * The shared transport conformance suite (ARCHITECTURE §3) against a real AG-UI server on
 * 127.0.0.1, port 0, in `activity` mode (the default) with every message appended as sent, so
 * that message-level cases can count them. The binding declares what AG-UI truly has: each client
 * message is answered with the agent's turn (`turnResults`), bounded client messages (`limits`);
 * no server push between runs (what the agent sends then arrives with the next run), no resume of
 * a cut run (AG-UI has none; the next run re-sends the surfaces whole), and no `auth` case as the
 * suite phrases it: threads are per principal (the thread id is derived from the principal and
 * `threadId`), so another principal naming a victim's `threadId` gets a thread of its own, never
 * the victim's — `server.test.ts` proves that isolation.
 */
import type { ClientTransport } from '@a2ui-ts/core';
import {
  conformanceHostOptions,
  createReturnChannelFaults,
  describeTransportConformance,
} from '@a2ui-ts/core/testing';
import { FAST_RECONNECT, startTestServer } from '../test/harness.js';
import { connectAgUi } from './client/connect-agui.js';

const CLIENT_HEADER = 'x-test-client';

describeTransportConformance('agui', {
  capabilities: { resume: false, auth: false, limits: true, turnResults: true, serverPush: false },
  async start(agent, options) {
    const faults = createReturnChannelFaults();
    const server = await startTestServer({
      agent,
      mode: 'activity',
      compactActivityAfterBytes: Number.POSITIVE_INFINITY,
      ...conformanceHostOptions(options),
      configure(parent) {
        parent.use('/agent', async (c, next) => {
          const body = await c.req.raw.clone().text();
          // Only runs that carry a client message are the return channel.
          if (!(body.includes('"a2uiAction"') || body.includes('"a2uiError"'))) return next();
          return faults.refuses(c.req.header(CLIENT_HEADER)) ? faults.refusal() : next();
        });
      },
    });
    const transports: ClientTransport[] = [];
    return {
      createTransport() {
        const name = faults.nextName();
        const transport = connectAgUi({
          url: server.url,
          reconnect: FAST_RECONNECT,
          headers: { [CLIENT_HEADER]: name },
        });
        transports.push(transport);
        return faults.track(transport, name);
      },
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: FAST_RECONNECT.initialDelayMs / 2,
      sessionCount: () => server.app.stats().sessions,
      async close() {
        for (const transport of transports) await transport.close().catch(() => {});
        await server.close();
      },
    };
  },
});
