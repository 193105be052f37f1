/**
 * The page of the MCP Apps browser suite: two surfaces of the MCP Apps catalog — a hostile app,
 * and a dice game whose score a sibling Text shows — fed by a real MCP server through the SDK
 * `Client`. Bundled by esbuild in the suite's setup.
 */
import {
  A2uiClient,
  type ClientMessage,
  type ClientTransport,
  createDefaultCatalogs,
  MCP_APP_CATALOG_ID,
  MCP_APP_CATALOG_V1_0_ID,
} from '@a2ui-ts/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRoot } from 'react-dom/client';
import { A2UIRenderer } from '../../../src/index.js';
import {
  createMcpAppCatalog,
  createMcpAppRegistry,
  type McpAppRefusal,
  mcpAppServerFromClient,
} from '../../../src/mcp-app/index.js';
import '../../../src/styles.css';

interface McpAppPageState {
  ready: boolean;
  client: A2uiClient;
  sent: ClientMessage[];
  refusals: McpAppRefusal[];
  errors: unknown[];
  /** Content-Security-Policy violations (`directive blockedURI line:column`) the page saw. */
  violations: string[];
}

declare global {
  interface Window {
    __mcpApps: McpAppPageState;
  }
}

// What the hostile app hunts for: the host's own secrets.
localStorage.setItem('host-secret', 'local-secret');
// biome-ignore lint/suspicious/noDocumentCookie: the plain cookie a host page has is the target.
document.cookie = 'host-secret=cookie-secret; SameSite=Strict';

const sent: ClientMessage[] = [];
const transport: ClientTransport = {
  async *events() {},
  async send(message) {
    sent.push(message);
  },
  async close() {},
};
const client = new A2uiClient({
  transport,
  catalogs: [
    ...createDefaultCatalogs().values(),
    createMcpAppCatalog(),
    createMcpAppCatalog({ protocolVersion: 'v1.0' }),
  ],
});
const state: McpAppPageState = {
  ready: false,
  client,
  sent,
  refusals: [],
  errors: [],
  violations: [],
};
document.addEventListener('securitypolicyviolation', (event) =>
  state.violations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.lineNumber}:${event.columnNumber}`,
  ),
);
window.__mcpApps = state;
client.processor.onError((error) => state.errors.push(error));

const mcp = new Client({ name: 'mcp-app-suite', version: '1.0.0' });
await mcp.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));

const registry = createMcpAppRegistry({
  proxyUrl: '/mcp-app-sandbox.html',
  server: mcpAppServerFromClient(mcp),
  // The host allows both tools; each surface's agent narrows the list for its app.
  allowedTools: ['roll_dice', 'delete_everything'],
  onRefused: (refusal) => state.refusals.push(refusal),
});

const surface = (surfaceId: string, components: unknown[]) => [
  { version: 'v0.9', createSurface: { surfaceId, catalogId: MCP_APP_CATALOG_ID } },
  { version: 'v0.9', updateComponents: { surfaceId, components } },
];

client.process([
  ...surface('hostile', [
    { id: 'root', component: 'Column', children: ['app'] },
    {
      id: 'app',
      component: 'McpApp',
      title: 'Hostile app',
      resourceUri: 'ui://hostile/app',
      allowedTools: [],
      value: { path: '/report' },
    },
  ]),
  ...surface('game', [
    { id: 'root', component: 'Column', children: ['dice', 'score'] },
    {
      id: 'dice',
      component: 'McpApp',
      title: 'Dice game',
      resourceUri: 'ui://dice/app',
      allowedTools: ['roll_dice'],
      value: { path: '/game' },
      action: { event: { name: 'scored', context: { score: { path: '/game/score' } } } },
    },
    {
      id: 'score',
      component: 'Text',
      text: { call: 'formatString', args: { value: 'Score: ${/game/score}' } },
    },
  ]),
  { version: 'v0.9', updateDataModel: { surfaceId: 'game', value: { game: { score: 0 } } } },
  // A resource the server does not have: the app cannot load, the surface says so.
  ...surface('broken', [
    { id: 'root', component: 'McpApp', title: 'Missing app', resourceUri: 'ui://missing/app' },
  ]),
]);

// Under the strict CSP page (`/csp`), a v1.0 surface of the v1.0 MCP Apps catalog as well.
if (location.pathname === '/csp')
  client.process([
    // The v1.0 MCP Apps catalog: the surface built in its createSurface.
    {
      version: 'v1.0',
      createSurface: {
        surfaceId: 'v1-game',
        catalogId: MCP_APP_CATALOG_V1_0_ID,
        components: [
          { id: 'root', component: 'Column', children: ['dice'] },
          {
            id: 'dice',
            component: 'McpApp',
            title: 'Dice game (v1.0)',
            resourceUri: 'ui://dice/app',
            allowedTools: ['roll_dice'],
            value: { path: '/game' },
          },
        ],
      },
    },
  ]);

createRoot(document.getElementById('app')!).render(
  <A2UIRenderer client={client} registry={registry} />,
);
state.ready = true;
