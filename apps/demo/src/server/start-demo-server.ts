/**
 * Serves the demo app on Node.
 */
import type { Server } from 'node:http';
import { type HttpTimeoutOptions, listenHttpServer } from '@a2ui-ts/core/host';
import { createRedisScaleOut, type RedisScaleOut } from '@a2ui-ts/redis';
import { createAdaptorServer } from '@hono/node-server';
import { createDemoAgents, describeUnavailableAgents } from '../agents/create-demo-agents.js';
import type { DemoAgent, DemoLogger } from '../agents/demo-agent.js';
import { createDemoApp, type DemoAppOptions } from './create-demo-app.js';
import { createJsonLogger } from './json-logger.js';

/**
 * Options of {@link startDemoServer}. The request timeouts (`headersTimeoutMs` 10 s,
 * `requestTimeoutMs` 30 s, `keepAliveTimeoutMs` 5 s, `timeoutCheckIntervalMs` 1 s) are core's,
 * as for every binding's `serve…`: a client that sends its request slowly is cut.
 */
export interface StartDemoServerOptions extends Partial<DemoAppOptions>, HttpTimeoutOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** @default '127.0.0.1' */
  hostname?: string;
  /** @default the agents of `createDemoAgents()` */
  agents?: readonly DemoAgent[];
  /** @default JSON lines on stdout */
  logger?: DemoLogger;
  /**
   * Redis shared by every node of the demo (`A2UI_REDIS_URL` in `main.ts`): connections are then
   * served by whichever node a request reaches. @default none: this node alone, in memory
   */
  redisUrl?: string;
}

/** A listening demo server. */
export interface DemoServer {
  /** `http://<host>:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** The Node HTTP server. */
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Starts the demo server and resolves once it listens.
 *
 * @example
 * ```ts
 * const server = await startDemoServer({ port: 5173, clientDir: 'dist/client' });
 * console.log(server.url);
 * ```
 */
export async function startDemoServer(options: StartDemoServerOptions = {}): Promise<DemoServer> {
  const logger = options.logger ?? createJsonLogger();
  const hostname = options.hostname ?? '127.0.0.1';
  const scaleOut = options.redisUrl ? await startScaleOut(options.redisUrl, logger) : undefined;
  const demo = createDemoApp({
    ...options,
    ...(scaleOut
      ? {
          hostStores: (name: string) => scaleOut.forHost(name),
          health: () => ({ status: 'ok', redis: scaleOut.health() }),
        }
      : {}),
    logger,
    agents: options.agents ?? createDemoAgents({ logger }),
    unavailableAgents:
      options.unavailableAgents ?? (options.agents ? [] : describeUnavailableAgents()),
  });
  const server = createAdaptorServer({ fetch: demo.app.fetch, hostname }) as Server;
  // WebSocket handshakes (and any other upgrade) go to the transport mounted at their path.
  server.on('upgrade', (request, socket, head) => {
    if (!demo.upgrade(request, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });
  const listener = await listenHttpServer(server, {
    port: options.port ?? 0,
    hostname,
    headersTimeoutMs: options.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs,
    timeoutCheckIntervalMs: options.timeoutCheckIntervalMs,
    async beforeCloseSockets() {
      await demo.close();
      await scaleOut?.close();
      // Let the event streams write their last event before the sockets go.
      await new Promise((resolve) => setImmediate(resolve));
    },
  });
  const host =
    hostname === '0.0.0.0' || hostname === '::'
      ? 'localhost'
      : hostname.includes(':')
        ? `[${hostname}]`
        : hostname;
  return {
    url: `http://${host}:${listener.port}`,
    port: listener.port,
    server,
    close: () => listener.close(),
  };
}

/** The Redis stores of this node, with their errors and status changes logged. */
async function startScaleOut(url: string, logger: DemoLogger): Promise<RedisScaleOut> {
  const scaleOut = await createRedisScaleOut({
    url,
    onError: (error) =>
      logger('redis.error', { message: error instanceof Error ? error.message : String(error) }),
  });
  logger('redis.ready', { node: scaleOut.nodeId });
  scaleOut.onStatus((status) => logger('redis.status', { status, node: scaleOut.nodeId }));
  return scaleOut;
}
