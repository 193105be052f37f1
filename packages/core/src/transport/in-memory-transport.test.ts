import type { ConnectionSession } from '../agent/connection-session.js';
import { describeTransportConformance } from '../testing/transport-conformance.js';
import type { ClientTransport } from './client-transport.js';
import { createInMemoryTransport, type InMemoryTransport } from './in-memory-transport.js';

describeTransportConformance('in-memory', {
  async start(agent, { reconnectGraceMs }) {
    const transports = new Set<InMemoryTransport>();
    return {
      createTransport() {
        const transport = createInMemoryTransport({ agent, reconnectGraceMs });
        transports.add(transport);
        return transport;
      },
      dropLink(transport: ClientTransport) {
        const memory = transport as InMemoryTransport;
        memory.drop();
        // A network reconnects on its own schedule; here, on the next macrotask.
        setImmediate(() => memory.reconnect());
      },
      sessionCount() {
        return [...transports]
          .map((t) => t.session)
          .filter((s): s is ConnectionSession => s !== undefined && !s.closed).length;
      },
      async close() {
        for (const transport of transports) await transport.close();
      },
    };
  },
});
