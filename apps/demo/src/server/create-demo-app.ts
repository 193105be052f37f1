/**
 * The demo server as a Web-standard Hono app: the client's config endpoint, every agent on every
 * transport, and the built client.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  MCP_APP_SANDBOX_PROXY_HEADERS,
  MCP_APP_SANDBOX_PROXY_HTML,
} from '@a2ui-ts/react-renderer/mcp-app';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import type { DemoAgent, DemoLogger } from '../agents/demo-agent.js';
import { MCP_APP_PROXY_PATH } from '../shared/mcp-app-proxy-path.js';
import {
  type MountedTransport,
  type MountOptions,
  SERVER_TRANSPORTS,
  type ServerTransport,
  validateOutgoingMessage,
} from './transports.js';
import { withLogging } from './with-logging.js';

/** Names of the A2A agent card, as `@a2a-js/sdk` ≥ 0.3.2 and older clients ask for it. */
const AGENT_CARD_NAMES = ['agent-card.json', 'agent.json'];

/**
 * `/.well-known/*` at the origin root. A stock A2A client given the origin
 * (`ClientFactory.createFromUrl(origin)`) reads `/.well-known/agent-card.json` there: it gets the
 * card of the first agent over A2A (the card names that agent's own endpoint), not the client's
 * HTML shell, which it cannot parse. Every other well-known path is a JSON 404 rather than the shell.
 */
function serveWellKnown(
  app: Hono,
  agentId: string | undefined,
  transports: readonly ServerTransport[],
): void {
  const a2a = agentId !== undefined && transports.some((transport) => transport.id === 'a2a');
  app.get('/.well-known/:name', async (c, next) => {
    const name = c.req.param('name');
    if (!a2a || !AGENT_CARD_NAMES.includes(name)) return next();
    const card = new URL(`${A2UI_BASE_PATH}/${agentId}/a2a/.well-known/${name}`, c.req.url);
    return app.fetch(new Request(card, { headers: c.req.raw.headers }));
  });
  app.all('/.well-known/*', notFound);
}

/** The JSON 404 of every path that is not a page: `{error: {code: 'NOT_FOUND', message}}`. */
function notFound(c: Context): Response {
  return c.json(
    { error: { code: 'NOT_FOUND', message: `Nothing is served at ${c.req.path}.` } },
    404,
  );
}

/**
 * Cache policy of the built client. Vite names every file under `assets/` after a hash of its
 * content, so a browser may keep it for a year without asking again; anything else (the HTML
 * shell that names those files) is revalidated on each load, so a new build is seen at once.
 */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Cache policy of the HTML shell and the other unhashed files: revalidate on every load. */
export const SHELL_CACHE_CONTROL = 'no-cache';

function cacheControlOf(path: string): string {
  return /[\\/]assets[\\/][^\\/]+$/.test(path) ? ASSET_CACHE_CONTROL : SHELL_CACHE_CONTROL;
}

/** Where agents are served: `${A2UI_BASE_PATH}/<agent>/<transport>`. */
export const A2UI_BASE_PATH = '/a2ui';

/**
 * Paths that are never a page of the client. Any of them not served by a route or a file is a
 * JSON 404 rather than the app shell: a client given a mistyped agent or transport would
 * otherwise get HTML with a 200 (an `EventSource` retrying forever, `Unexpected token '<'`), and a
 * tab open across a deploy asking for an old build's hashed chunk would get HTML as a module.
 */
const NEVER_A_PAGE = [`${A2UI_BASE_PATH}/*`, A2UI_BASE_PATH, '/api/*', '/assets/*'];

/** What `GET /api/config` returns: everything the client's pickers list. */
export interface DemoConfig {
  basePath: string;
  agents: Array<{ id: string; label: string; description: string }>;
  /** Agents the server could offer but does not (not configured), with why. */
  unavailableAgents: Array<{ id: string; label: string; description: string }>;
  transports: Array<{ id: string; label: string }>;
}

/** Options of {@link createDemoApp}. */
export interface DemoAppOptions {
  agents: readonly DemoAgent[];
  /** Listed in the picker, disabled, with why. @default [] */
  unavailableAgents?: DemoConfig['unavailableAgents'];
  /** @default SERVER_TRANSPORTS */
  transports?: readonly ServerTransport[];
  /** Folder of the built client (`vite build` output); `undefined` serves the API only. */
  clientDir?: string;
  /** @default no logging */
  logger?: DemoLogger;
  /** Runs first, so its middleware sees every request (tests inject faults here). */
  configure?: (app: Hono) => void;
  /**
   * The shared stores of the session host named `name` (`<agent>/<transport>`), when the demo
   * runs as several nodes (Redis). @default none: in-memory stores
   */
  hostStores?: (name: string) => MountOptions['stores'];
  /** What `GET /api/health` answers (e.g. the Redis status). @default `{ status: 'ok' }` */
  health?: () => unknown;
}

/** The app and how to stop what it mounted. */
export interface DemoApp {
  app: Hono;
  config: DemoConfig;
  /** Closes every transport (and with it every connection). */
  close(): Promise<void>;
  /**
   * Hands an HTTP upgrade of the Node server to the transport mounted at its path; returns false
   * (the caller rejects the socket) when none takes it.
   */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

/**
 * Builds the demo app.
 *
 * @example
 * ```ts
 * const { app } = createDemoApp({ agents: [{ id: 'gallery', label: 'Gallery', description: '…', agent: createGalleryAgent() }] });
 * ```
 */
export function createDemoApp(options: DemoAppOptions): DemoApp {
  const transports = options.transports ?? SERVER_TRANSPORTS;
  const logger = options.logger ?? (() => {});
  const app = new Hono();
  options.configure?.(app);

  const config: DemoConfig = {
    basePath: A2UI_BASE_PATH,
    agents: options.agents.map(({ id, label, description }) => ({ id, label, description })),
    unavailableAgents: options.unavailableAgents ?? [],
    transports: transports.map(({ id, label }) => ({ id, label })),
  };
  app.get('/api/config', (c) => c.json(config));
  // The MCP Apps sandbox proxy: from the page's own origin, as the double iframe requires.
  app.get(MCP_APP_PROXY_PATH, (c) =>
    c.body(MCP_APP_SANDBOX_PROXY_HTML, 200, { ...MCP_APP_SANDBOX_PROXY_HEADERS }),
  );
  app.get('/api/health', (c) => c.json((options.health?.() ?? { status: 'ok' }) as object));

  const mounted: MountedTransport[] = [];
  for (const demoAgent of options.agents) {
    for (const transport of transports) {
      const labels = { agent: demoAgent.id, transport: transport.id };
      const sub = new Hono();
      const basePath = `${A2UI_BASE_PATH}/${demoAgent.id}/${transport.id}`;
      mounted.push(
        transport.mount(sub, {
          basePath,
          agent: withLogging(demoAgent.agentFor?.(transport.id) ?? demoAgent.agent, logger, labels),
          validateOutgoing: validateOutgoingMessage,
          stores: options.hostStores?.(`${demoAgent.id}/${transport.id}`),
          a2uiVersions: demoAgent.a2uiVersions,
          onAgentError: (error) =>
            logger('agent.error', {
              ...labels,
              message: error instanceof Error ? error.message : String(error),
            }),
        }),
      );
      app.route(basePath, sub);
    }
  }

  serveWellKnown(app, options.agents[0]?.id, transports);

  const clientDir = options.clientDir;
  if (clientDir !== undefined) {
    // The build writes `.br` and `.gz` beside each asset (vite.config.ts); the smallest one the
    // browser accepts is sent as it is, with no compression work per request.
    app.use(
      '/*',
      serveStatic({
        root: clientDir,
        precompressed: true,
        onFound: (path, c) => c.header('Cache-Control', cacheControlOf(path)),
      }),
    );
  }
  for (const path of NEVER_A_PAGE) app.all(path, notFound);
  if (clientDir !== undefined) {
    const indexFile = `${clientDir.replace(/\/+$/, '')}/index.html`;
    // Client-side routes (and reloads of them) get the app shell.
    app.get('*', (c) => {
      if (!existsSync(indexFile))
        return c.text('The client is not built: run "pnpm --filter @a2ui-ts/demo build".', 503);
      c.header('Cache-Control', SHELL_CACHE_CONTROL);
      return c.html(readFileSync(indexFile, 'utf8'));
    });
  }

  app.onError((error, c) => {
    logger('server.error', { method: c.req.method, path: c.req.path, message: error.message });
    return c.json({ error: 'Internal server error' }, 500);
  });

  return {
    app,
    config,
    async close() {
      await Promise.all(mounted.map((entry) => entry.close()));
    },
    upgrade(request, socket, head) {
      return mounted.some((entry) => entry.upgrade?.(request, socket, head) ?? false);
    },
  };
}
