/**
 * One server node of the cross-process tests: an SSE + JSON-RPC server on 127.0.0.1 port 0, and
 * the same agent over REST under `/rest`, with the Redis stores, in a process of its own (its own
 * Redis connections). Configured by the JSON
 * in `A2UI_TEST_NODE`; reports to the parent over IPC: `ready`, every `connect` and `action` its
 * agent handles, every run of its agent functions and every renderer answer it gets (`function`),
 * and answers `stats` / `close` requests. v1.0 function calls: the action `ask-zone` makes the
 * agent call the renderer's `getTimeZone` and send the answer to `/zone`; the agent functions
 * `count` (how often it ran on this node) and `wait` (never answers) are the renderer's to call.
 */
import { type A2uiAgent, BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { createRestServer } from '@a2ui-ts/transport-rest';
import { createSseJsonRpcServer } from '@a2ui-ts/transport-sse-jsonrpc';
import { serveSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { Hono } from 'hono';
import { createRedisScaleOut } from '../src/index.js';

/** What the parent configures. */
export interface TestNodeConfig {
  redisUrl: string;
  keyPrefix: string;
  leaseTtlMs: number;
  keyTtlMs: number;
  reconnectGraceMs: number;
  routeTimeoutMs: number;
  /** Messages pushed every `pushIntervalMs` after connect (0: none). */
  pushIntervalMs: number;
}

/** Messages from a node to the parent. */
export type TestNodeReport =
  | { type: 'ready'; url: string; nodeId: string }
  | { type: 'connect'; node: string; connectionId: string }
  | { type: 'action'; node: string; connectionId: string; name: string }
  | { type: 'function'; node: string; connectionId: string; name: string }
  | { type: 'stats'; id: number; stats: Record<string, unknown> }
  | { type: 'closed'; id: number };

const config = JSON.parse(process.env.A2UI_TEST_NODE ?? '{}') as TestNodeConfig;
const report = (message: TestNodeReport) => process.send?.(message);

const scaleOut = await createRedisScaleOut({
  url: config.redisUrl,
  keyPrefix: config.keyPrefix,
  leaseTtlMs: config.leaseTtlMs,
  keyTtlMs: config.keyTtlMs,
  onError: () => {},
});
const node = scaleOut.nodeId;
let counted = 0;
const agent: A2uiAgent = {
  functions: [
    {
      name: 'count',
      handler: (_args, call) => {
        report({ type: 'function', node, connectionId: call.functionCallId, name: 'count' });
        return ++counted;
      },
    },
    {
      name: 'wait',
      handler: (_args, call) => {
        report({ type: 'function', node, connectionId: call.functionCallId, name: 'wait' });
        return new Promise(() => {});
      },
    },
  ],
  onConnect(connection) {
    report({ type: 'connect', node, connectionId: connection.id });
    connection.send([
      { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/node', value: node } },
    ]);
    if (config.pushIntervalMs > 0) {
      let tick = 0;
      const timer = setInterval(() => {
        if (connection.closed) clearInterval(timer);
        else
          connection.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 's', path: '/tick', value: ++tick },
          });
      }, config.pushIntervalMs);
    }
  },
  async onAction(connection, action) {
    report({ type: 'action', node, connectionId: connection.id, name: action.name });
    if (action.name === 'ask-zone') {
      const zone = await connection.callRendererFunction(
        'getTimeZone',
        {},
        {
          catalogId: BASIC_CATALOG_ID,
          timeoutMs: 10_000,
        },
      );
      report({ type: 'function', node, connectionId: connection.id, name: `getTimeZone ${zone}` });
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 's', path: '/zone', value: zone },
      });
      return;
    }
    connection.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 's', path: '/did', value: action.name },
    });
  },
};
const shared = {
  reconnectGraceMs: config.reconnectGraceMs,
  routeTimeoutMs: config.routeTimeoutMs,
  onAgentError: () => {},
  agent,
};
const app = createSseJsonRpcServer({ ...scaleOut.hostOptions, ...shared, retryMs: 5 });
// REST's connections live in their own host (and stores), like every binding's.
const rest = createRestServer({ ...scaleOut.forHost('rest'), ...shared });
const routes = new Hono().route('/rest', rest).route('/', app);
const server = await serveSseJsonRpc({
  fetch: routes.fetch,
  close: async () => {
    await rest.close();
    await app.close();
  },
});
report({ type: 'ready', url: server.url, nodeId: node });

process.on('message', async (message: { type: string; id: number }) => {
  if (message.type === 'stats') {
    report({
      type: 'stats',
      id: message.id,
      stats: { ...app.stats(), redis: scaleOut.health() },
    });
  } else if (message.type === 'close') {
    await server.close();
    await scaleOut.close();
    report({ type: 'closed', id: message.id });
    process.exit(0);
  }
});
