/**
 * A shared session store (Redis) that is down, as every binding's client must word it: the
 * session host refuses client messages with `LIMIT_EXCEEDED` and `data.reason:
 * 'store-unavailable'` (what `@a2ui-ts/redis` raises), the client's status says "Server storage
 * unavailable" with `cause: 'store-unavailable'` (never "the agent is busy"), and once the store
 * is back the action is delivered once and the status is `open` again.
 */
import type { A2uiAgent } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { SessionHost } from '../host/session-host.js';
import { STORE_UNAVAILABLE } from '../link/trouble-cause.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ServerMessage } from '../protocol/messages.js';
import type { ClientTransport } from '../transport/client-transport.js';
import { createDeferred, waitForClient } from './wait-for.js';

/** A binding's server started for the scenario. */
export interface StoreOutageServer {
  /** The server's session host: the scenario makes its `receive` refuse while the store is down. */
  readonly host: SessionHost;
  /** A client transport to the server. */
  connect(): ClientTransport;
  close(): Promise<void>;
}

/** What the client saw. */
export interface StoreOutageOutcome {
  /** The first `degraded` status event while the store was down. */
  readonly degraded: { readonly reason?: string; readonly cause?: string };
  /** Actions the agent applied, in order (the one sent during the outage, once). */
  readonly applied: readonly string[];
  /** The client's status once the action was delivered. */
  readonly statusAfter: string;
}

const surface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'outage', catalogId: BASIC_CATALOG_ID },
};

/**
 * Runs the scenario against the server `start` returns (started with the scenario's agent).
 *
 * @throws when the client never shows the surface or never leaves the degraded state
 */
export async function runStoreOutageScenario(
  start: (agent: A2uiAgent) => Promise<StoreOutageServer>,
): Promise<StoreOutageOutcome> {
  const applied: string[] = [];
  const agent: A2uiAgent = {
    onConnect: (connection) => connection.send(surface),
    onAction: (_connection, action) => {
      applied.push(action.name);
    },
  };
  const server = await start(agent);
  const client = new A2uiClient({ transport: server.connect() });
  try {
    let storeDown = true;
    const receive = server.host.receive.bind(server.host);
    server.host.receive = (id, request) =>
      storeDown
        ? Promise.reject(
            new A2uiError('LIMIT_EXCEEDED', 'The shared session store is unavailable.', {
              data: { retryAfterMs: 0, reason: STORE_UNAVAILABLE },
            }),
          )
        : receive(id, request);
    const firstDegraded = createDeferred<StoreOutageOutcome['degraded']>();
    client.subscribe((event) => {
      if (event.type === 'status' && event.status === 'degraded')
        firstDegraded.resolve({ reason: event.reason, cause: event.cause });
    });
    void client.connect().catch(() => {});
    await waitForClient(
      client,
      () => client.processor.getSurface('outage') !== undefined,
      'surface',
    );
    const sent = client.send({
      version: 'v0.9',
      action: {
        name: 'during-outage',
        surfaceId: 'outage',
        sourceComponentId: 'root',
        timestamp: new Date(0).toISOString(),
        context: {},
      },
    });
    const degraded = await firstDegraded.promise;
    storeDown = false;
    await sent;
    await waitForClient(client, () => client.status === 'open', 'status open');
    return { degraded, applied: [...applied], statusAfter: client.status };
  } finally {
    await client.close();
    await server.close();
  }
}
