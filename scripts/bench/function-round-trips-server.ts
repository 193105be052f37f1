/**
 * The server process of `function-round-trips.ts`: one agent behind every binding the benchmark
 * compares — SSE + JSON-RPC, WebSocket, REST and A2A — each on its own 127.0.0.1 port. The agent
 * answers an action with one `updateDataModel` echoing its index, and exposes the agent function
 * `echo`, which returns its arguments: the same work on both paths, so the two round trips differ
 * only in how the binding carries them. Prints one URL per line, in that order.
 */
import { type A2uiAgent, BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { createA2aServer } from '@a2ui-ts/transport-a2a';
import { serveA2a } from '@a2ui-ts/transport-a2a/node';
import { createRestServer } from '@a2ui-ts/transport-rest';
import { createSseJsonRpcServer } from '@a2ui-ts/transport-sse-jsonrpc';
import { serveSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { createWsServer, serveWs } from '@a2ui-ts/transport-ws/server';

const agent: A2uiAgent = {
  functions: [{ name: 'echo', handler: (args) => args }],
  onConnect(connection) {
    connection.send({
      version: 'v0.9',
      createSurface: { surfaceId: 'bench', catalogId: BASIC_CATALOG_ID },
    });
  },
  onAction(connection, action) {
    connection.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'bench', path: '/last', value: action.context },
    });
  },
};
// Benchmark clients leave without a goodbye; their connections need not linger.
const shared = { agent, reconnectGraceMs: 5_000 };

const sse = createSseJsonRpcServer(shared);
const rest = createRestServer(shared);
const a2a = createA2aServer(shared);
const listeners = [
  await serveSseJsonRpc({ fetch: sse.fetch, close: () => sse.close() }),
  await serveWs(createWsServer(shared)),
  await serveSseJsonRpc({ fetch: rest.fetch, close: () => rest.close() }),
  await serveA2a({ fetch: a2a.fetch, close: () => a2a.close() }),
];
process.stdout.write(`${listeners.map((listener) => listener.url).join('\n')}\n`);
process.on('SIGTERM', () => {
  void Promise.all(listeners.map((listener) => listener.close())).then(() => process.exit(0));
});
