/**
 * Serves the demo app on Node.
 */
import type { AddressInfo } from 'node:net';
import { createRedisScaleOut, type RedisScaleOut } from '@a2ui-ts/redis';
import { serve } from '@hono/node-server';
import { createDemoAgents, describeUnavailableAgents } from '../agents/create-demo-agents.js';
import type { DemoAgent, DemoLogger } from '../agents/demo-agent.js';
import { createDemoApp, type DemoAppOptions } from './create-demo-app.js';
import { createJsonLogger } from './json-logger.js';

/** Options of {@link startDemoServer}. */
export interface StartDemoServerOptions extends Partial<DemoAppOptions> {
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
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch: demo.app.fetch, port: options.port ?? 0, hostname }, () =>
      resolve(listening),
    );
    listening.once('error', reject);
  });
  // WebSocket handshakes (and any other upgrade) go to the transport mounted at their path.
  server.on('upgrade', (request, socket, head) => {
    if (!demo.upgrade(request, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });
  const { port } = server.address() as AddressInfo;
  const host =
    hostname === '0.0.0.0' || hostname === '::'
      ? 'localhost'
      : hostname.includes(':')
        ? `[${hostname}]`
        : hostname;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await demo.close();
        await scaleOut?.close();
        // Let the event streams write their last event before the sockets go.
        await new Promise((resolve) => setImmediate(resolve));
        if ('closeAllConnections' in server) server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
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
