/**
 * The MCP Apps example: a surface of the MCP Apps catalog holding "Catch the dot", an MCP App in
 * the double-iframe sandbox, and A2UI siblings. The app's score reaches the sibling "Score" Text
 * through the data model at once (no round trip); each `scored` action it triggers reaches this
 * agent, which keeps the best score and sends it back with `updateDataModel`.
 */
import {
  type A2uiAgent,
  defaultValidatorRegistry,
  MCP_APP_CATALOG_ID,
  mcpAppCatalogSchema,
  type ServerMessage,
} from '@a2ui-ts/core';
import { compileCatalogValidator } from '@a2ui-ts/core/compile';
import type { DemoLogger } from './demo-agent.js';
import { CATCH_THE_DOT_HTML } from './mcp-app-game.js';

const SURFACE_ID = 'mcp-app-game';
const v = 'v0.9' as const;

/** Options of {@link createMcpAppAgent}. */
export interface McpAppAgentOptions {
  logger?: DemoLogger;
}

const SURFACE: readonly ServerMessage[] = [
  { version: v, createSurface: { surfaceId: SURFACE_ID, catalogId: MCP_APP_CATALOG_ID } },
  {
    version: v,
    updateComponents: {
      surfaceId: SURFACE_ID,
      components: [
        { id: 'root', component: 'Card', child: 'column' },
        { id: 'column', component: 'Column', children: ['title', 'game', 'score', 'best'] },
        { id: 'title', component: 'Text', text: 'An MCP App inside A2UI', variant: 'h1' },
        {
          id: 'game',
          component: 'McpApp',
          title: 'Catch the dot',
          content: CATCH_THE_DOT_HTML,
          allowedTools: [],
          value: { path: '/game' },
          action: { event: { name: 'scored', context: { score: { path: '/game/score' } } } },
        },
        {
          id: 'score',
          component: 'Text',
          text: { call: 'formatString', args: { value: 'Score: ${/game/score}' } },
        },
        {
          id: 'best',
          component: 'Text',
          variant: 'caption',
          text: { call: 'formatString', args: { value: 'Best, kept by the agent: ${/best}' } },
        },
      ],
    },
  },
  {
    version: v,
    updateDataModel: { surfaceId: SURFACE_ID, value: { game: { score: 0 }, best: 0 } },
  },
];

/**
 * Creates the MCP Apps agent (one best score per connection).
 *
 * @example
 * ```ts
 * const agent = createMcpAppAgent();
 * ```
 */
export function createMcpAppAgent(options: McpAppAgentOptions = {}): A2uiAgent {
  // The server checks what agents send against the catalogs it knows: this one is opt-in.
  if (!defaultValidatorRegistry.has(MCP_APP_CATALOG_ID))
    defaultValidatorRegistry.register(compileCatalogValidator(mcpAppCatalogSchema()));
  const log = options.logger ?? (() => {});
  const best = new Map<string, number>();
  return {
    onConnect(connection) {
      best.set(connection.id, 0);
      connection.send([...SURFACE]);
    },
    onAction(connection, action) {
      if (action.name !== 'scored') return;
      const score = action.context.score;
      if (typeof score !== 'number' || !Number.isSafeInteger(score) || score < 0) return;
      const previous = best.get(connection.id) ?? 0;
      if (score <= previous) return;
      best.set(connection.id, score);
      log('mcp-app.best', { score });
      connection.send([
        { version: v, updateDataModel: { surfaceId: SURFACE_ID, path: '/best', value: score } },
      ]);
    },
    onDisconnect(connection) {
      best.delete(connection.id);
    },
  };
}
