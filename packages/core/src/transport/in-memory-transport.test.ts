import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { createSessionHost, type SessionHost } from '../host/session-host.js';
import { describeTransportConformance } from '../testing/transport-conformance.js';
import type { ClientTransport } from './client-transport.js';
import { createInMemoryTransport, type InMemoryTransport } from './in-memory-transport.js';

const FAST = { initialDelayMs: 20, maxDelayMs: 40, minRetryMs: 20 } as const;

/** Refuses the next deliveries of chosen transports as a busy agent would, and timestamps every attempt. */
function withReturnChannelFaults(host: SessionHost) {
  const refusals = new Map<unknown, number>();
  const attempts = new Map<unknown, number[]>();
  const principalOf = new Map<ClientTransport, unknown>();
  const receive = host.receive.bind(host);
  host.receive = async (connectionId, options) => {
    const key = options.principal;
    attempts.set(key, [...(attempts.get(key) ?? []), Date.now()]);
    const left = refusals.get(key) ?? 0;
    if (left > 0) {
      refusals.set(key, left - 1);
      throw new A2uiError('LIMIT_EXCEEDED', 'Refused by the test.', { data: { retryAfterMs: 0 } });
    }
    return receive(connectionId, options);
  };
  return {
    register(transport: ClientTransport, principal: unknown) {
      principalOf.set(transport, principal);
    },
    fail(transport: ClientTransport, count: number) {
      const key = principalOf.get(transport);
      refusals.set(key, count);
      attempts.set(key, []);
    },
    attempts: (transport: ClientTransport) => attempts.get(principalOf.get(transport)) ?? [],
  };
}

describeTransportConformance('in-memory', {
  capabilities: { resume: true, auth: true, limits: true, turnResults: true, serverPush: true },
  async start(agent, options) {
    const host = createSessionHost({
      agent,
      reconnectGraceMs: options.reconnectGraceMs,
      maxClientMessageBytes: options.maxClientMessageBytes,
      replayBuffer:
        options.replayBufferEvents === undefined
          ? undefined
          : { maxEvents: options.replayBufferEvents },
    });
    const faults = withReturnChannelFaults(host);
    const transports = new Set<InMemoryTransport>();
    let anonymous = 0;
    return {
      createTransport(create = {}) {
        // Every transport gets its own principal, so faults and hijacks can tell them apart.
        const principal = create.principal ?? `anonymous-${++anonymous}`;
        const transport = createInMemoryTransport({ host, principal, reconnect: FAST });
        transports.add(transport);
        faults.register(transport, principal);
        return transport;
      },
      dropLink(transport) {
        const memory = transport as InMemoryTransport;
        memory.drop();
        // A network reconnects on its own schedule; here, on the next macrotask.
        setTimeout(() => void memory.reconnect(), 0);
      },
      severLink: (transport) => (transport as InMemoryTransport).drop(),
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
      failReturnChannel: faults.fail,
      returnChannelAttempts: faults.attempts,
      minRetryDelayMs: FAST.initialDelayMs / 2,
      sessionCount: () => host.stats().sessions,
      async close() {
        for (const transport of transports) await transport.close();
        await host.close();
      },
    };
  },
});

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
