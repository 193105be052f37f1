/**
 * Every transport the demo server speaks, mounted the same way. Adding one is one entry here plus
 * one in `../client/client-transports.ts`. A binding mounts Hono routes, and may also take HTTP
 * upgrades of the Node server (a WebSocket) on its path.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type AgUiOutputMode, createAgUiServer } from '@a2ui-ts/agui-adapter';
import { type A2uiAgent, validateServerMessage } from '@a2ui-ts/core';
import {
  type OutgoingValidator,
  type SessionHostOptions,
  validateOutgoingWithBuiltinCatalogs,
} from '@a2ui-ts/core/host';
import { createA2aServer } from '@a2ui-ts/transport-a2a';
import { createRestServer } from '@a2ui-ts/transport-rest';
import { createSseJsonRpcServer } from '@a2ui-ts/transport-sse-jsonrpc';
import { createWsServer } from '@a2ui-ts/transport-ws/server';
import type { Hono } from 'hono';
import { MCP_TRANSPORT } from './mcp-transport.js';

/** What a mount receives. */
export interface MountOptions {
  /** The path the mount is served under, e.g. `/a2ui/restaurant/ws` (its routes are relative to it). */
  basePath: string;
  /** The agent served at this path (already wrapped with logging). */
  agent: A2uiAgent;
  /** Checks each outgoing message against the catalog of its surface. */
  validateOutgoing: OutgoingValidator;
  /** Receives errors thrown by the agent's hooks. */
  onAgentError: (error: unknown) => void;
  /**
   * Shared stores of the session host (scale-out on Redis, `A2UI_REDIS_URL`): spread them into
   * the binding's options. @default none: in-memory stores, this node alone
   */
  stores?: Pick<SessionHostOptions, 'registry' | 'router' | 'createReplayLog'>;
  /**
   * The A2UI versions this agent is served in, in its preference order (the server option
   * `a2uiVersions`). @default every version, v1.0 first (`DEFAULT_A2UI_VERSIONS`)
   */
  a2uiVersions?: readonly string[];
}

/** A mounted transport, to be closed when the server stops. */
export interface MountedTransport {
  close(): Promise<void>;
  /**
   * Offered every HTTP upgrade request of the Node server (e.g. a WebSocket handshake); returns
   * true when it took the socket (its path is this mount's), false to let another mount try.
   */
  upgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

/** One transport binding of the demo server. */
export interface ServerTransport {
  /** URL-safe id; the agent is served under `/a2ui/<agent>/<id>`. */
  readonly id: string;
  readonly label: string;
  /**
   * Whether, on several nodes sharing Redis, any node takes any request of a connection. When
   * false the binding keeps per-node state (docs/deployment.md § Bindings): a balancer must send
   * its requests to one node, as `pnpm demo:cluster` does ({@link clusterAffinity}).
   */
  readonly anyNode: boolean;
  /** Mounts the transport's routes on `app` (a sub-app already scoped to the base path). */
  mount(app: Hono, options: MountOptions): MountedTransport;
}

/** The transports of the demo server, in picker order. */
export const SERVER_TRANSPORTS: readonly ServerTransport[] = [
  routedTransport(
    { id: 'sse-jsonrpc', label: 'SSE + JSON-RPC', anyNode: true },
    ({ agent, validateOutgoing, onAgentError, stores, a2uiVersions }) =>
      createSseJsonRpcServer({ ...stores, agent, validateOutgoing, onAgentError, a2uiVersions }),
  ),
  {
    id: 'ws',
    label: 'WebSocket',
    anyNode: true,
    mount(_app, { basePath, agent, validateOutgoing, onAgentError, stores, a2uiVersions }) {
      // Sockets at `${basePath}/ws`, on the upgrades of the demo's Node server (no Hono route).
      const server = createWsServer({
        ...stores,
        agent,
        basePath,
        validateOutgoing,
        onAgentError,
        a2uiVersions,
      });
      return { close: () => server.close(), upgrade: (...args) => server.upgrade(...args) };
    },
  },
  // Each action answered with the agent's turn; its live updates (the countdowns) by long poll.
  routedTransport(
    { id: 'rest', label: 'REST', anyNode: true },
    ({ agent, validateOutgoing, onAgentError, stores, a2uiVersions }) =>
      createRestServer({ ...stores, agent, validateOutgoing, onAgentError, a2uiVersions }),
  ),
  // @a2a-js/sdk keeps tasks in a per-process store.
  routedTransport(
    { id: 'a2a', label: 'A2A', anyNode: false },
    ({ basePath, agent, validateOutgoing, onAgentError, a2uiVersions }) => {
      // The agent card is at `${basePath}/.well-known/agent-card.json`, the JSON-RPC endpoint at `basePath`.
      const agentId = basePath.split('/').at(-2) ?? 'agent';
      return createA2aServer({
        agent,
        validateOutgoing,
        onAgentError,
        a2uiVersions,
        card: {
          name: `a2ui-ts demo: ${agentId}`,
          description: `The demo's "${agentId}" agent, serving A2UI over A2A.`,
        },
      });
    },
  ),
  aguiTransport('agui-state', 'AG-UI (state)', 'state'),
  aguiTransport('agui-activity', 'AG-UI (activity)', 'activity'),
  MCP_TRANSPORT,
];

/**
 * A transport whose server is a Hono app: `create` makes it for a mount, which routes it at the
 * base path and closes it with the demo server.
 */
function routedTransport(
  entry: Pick<ServerTransport, 'id' | 'label' | 'anyNode'>,
  create: (options: MountOptions) => Hono & { close(): Promise<void> },
): ServerTransport {
  return {
    ...entry,
    mount(app, options) {
      const server = create(options);
      app.route('/', server);
      return { close: () => server.close() };
    },
  };
}

/**
 * The AG-UI endpoint in one output mode: `POST <basePath>` with `RunAgentInput`, what an AG-UI
 * `HttpAgent` (or CopilotKit) points its `url` at. A thread lives 30 minutes without a run.
 */
function aguiTransport(id: string, label: string, mode: AgUiOutputMode): ServerTransport {
  // The AG-UI server keeps each thread's run state in the node's memory.
  return routedTransport(
    { id, label, anyNode: false },
    ({ agent, validateOutgoing, onAgentError, stores, a2uiVersions }) =>
      createAgUiServer({ ...stores, agent, mode, validateOutgoing, onAgentError, a2uiVersions }),
  );
}

/**
 * The balancer rule of `pnpm demo:cluster`: the requests of a transport that cannot run on any
 * node (`anyNode: false`) go to one node, keyed by their mount (`/a2ui/<agent>/<transport>`); the
 * others round robin (`undefined`). For `startRoundRobinProxy`'s `affinity`.
 *
 * @example clusterAffinity('/a2ui/restaurant/a2a/.well-known/agent-card.json') // '/a2ui/restaurant/a2a'
 */
export function clusterAffinity(path: string): string | undefined {
  const mount = /^\/a2ui\/[^/?]+\/([^/?]+)/.exec(path);
  const transport = SERVER_TRANSPORTS.find((entry) => entry.id === mount?.[1]);
  return transport && !transport.anyNode ? mount![0] : undefined;
}

/**
 * Validates outgoing messages with core against the catalog their surface was created with, so a
 * demo agent that emits a bad message fails loudly at `send` instead of in the browser: v0.9 with
 * the registered catalogs (an unknown one is refused), v1.0 (the gallery's migrated streams) with
 * core's built-in v1.0 catalog check.
 */
export const validateOutgoingMessage: OutgoingValidator = (message, catalogId) => {
  if ((message as { version?: unknown }).version !== 'v0.9')
    return validateOutgoingWithBuiltinCatalogs(message, catalogId);
  try {
    return validateServerMessage(message, catalogId ? { catalogId } : {})[0];
  } catch (error) {
    return { path: '/createSurface/catalogId', message: (error as Error).message };
  }
};
