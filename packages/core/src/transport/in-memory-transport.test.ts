import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { createSessionHost } from '../host/session-host.js';
import {
  conformanceHostOptions,
  createReturnChannelFaults,
} from '../testing/conformance-harness.js';
import { describeFunctionCallConformance } from '../testing/function-call-conformance.js';
import {
  describeTransportConformance,
  type TransportConformanceHarness,
} from '../testing/transport-conformance.js';
import { createInMemoryTransport, type InMemoryTransport } from './in-memory-transport.js';

const FAST = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 20 } as const;

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
    // Principals are given, not authenticated: no `authenticate`.
    const host = createSessionHost({
      agent,
      ...conformanceHostOptions(options),
      authenticate: undefined,
    });
    // Refuses the next deliveries of chosen transports as a busy agent would, and timestamps
    // every attempt.
    const faults = createReturnChannelFaults();
    const receive = host.receive.bind(host);
    host.receive = async (connectionId, receiveOptions) => {
      if (faults.refuses(String(receiveOptions.principal))) throw faults.refusalError();
      return receive(connectionId, receiveOptions);
    };
    const transports = new Set<InMemoryTransport>();
    let anonymous = 0;
    return {
      createTransport(create = {}) {
        // Every transport gets its own principal, so faults and hijacks can tell them apart.
        const principal = create.principal ?? `anonymous-${++anonymous}`;
        const transport = createInMemoryTransport({
          host,
          principal,
          reconnect: FAST,
          ...(create.resume ? { resume: create.resume } : {}),
        });
        transports.add(transport);
        return faults.track(transport, principal);
      },
      dropLink(transport) {
        const memory = transport as InMemoryTransport;
        memory.drop();
        // A network reconnects on its own schedule; here, on the next macrotask.
        setTimeout(() => void memory.reconnect(), 0);
      },
      severLink: (transport) => (transport as InMemoryTransport).drop(),
      // A reloaded page: the link is gone and nothing says goodbye.
      abandon: (transport) => (transport as InMemoryTransport).drop(),
      restoreLink: (transport) => (transport as InMemoryTransport).reconnect(),
      async hijack(victim, principal, message) {
        const connectionId = (victim as InMemoryTransport).connectionId!;
        const attempt = async (run: () => Promise<unknown>) => {
          try {
            await run();
            return 'accepted';
          } catch (error) {
            return A2uiError.isInstance(error) ? error.code : String(error);
          }
        };
        return {
          resume: await attempt(() =>
            host.connect({
              principal,
              connectionId,
              lastSeq: 0,
              sink: { deliver() {}, close() {} },
            }),
          ),
          send: await attempt(() =>
            host.receive(connectionId, {
              principal,
              message,
              bytes: JSON.stringify(message).length,
            }),
          ),
        };
      },
      failReturnChannel: faults.failReturnChannel,
      returnChannelAttempts: faults.returnChannelAttempts,
      minRetryDelayMs: FAST.initialDelayMs / 2,
      sessionCount: () => host.stats().sessions,
      async close() {
        for (const transport of transports) await transport.close();
        await host.close();
      },
    };
  },
};

describeTransportConformance('in-memory', harness);
describeFunctionCallConformance('in-memory', harness);

describe('createInMemoryTransport', () => {
  it('carries user input to onInput and resolves once its turn is over', async () => {
    const seen: string[] = [];
    const transport = createInMemoryTransport({
      agent: {
        async onInput(connection, input) {
          await Promise.resolve();
          seen.push(`${input.text}:${connection.hostTools.length}`);
        },
      },
    });
    const events = transport.events();
    void (async () => {
      for await (const _event of events);
    })();
    await transport.send(
      {
        version: 'v0.9',
        error: { code: 'CUSTOM', surfaceId: 's', message: 'before input' },
      },
      { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [] } } },
    );
    await transport.input({
      text: 'hello',
      tools: [{ name: 'confirm', description: 'Asks the user.', parameters: { type: 'object' } }],
    });
    expect(seen).toEqual(['hello:1']);
    await transport.close();
  });
});
