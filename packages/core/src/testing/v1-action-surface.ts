/**
 * A v1.0 surface whose one button sends an action with a `userMessage`: what the tests of
 * "actions travel in the negotiated version's shape" (issue 20) render on every binding.
 */
import type { A2uiAgent, AgentAction } from '../agent/agent.js';
import type { ServerMessage } from '../protocol/messages.js';

/** The v1.0 basic catalog id. */
export const V10_BASIC_CATALOG_ID =
  'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

/**
 * A v1.0 `createSurface` with inline components: a `Button` `root` whose event is
 * `{name: 'book', context: {}, userMessage}` and its `Text` label.
 *
 * @param surfaceId - the surface's id
 * @param userMessage - the event's `userMessage` @default "Book it"
 */
export function createV10ActionSurface(surfaceId: string, userMessage = 'Book it'): ServerMessage {
  return {
    version: 'v1.0',
    createSurface: {
      surfaceId,
      catalogId: V10_BASIC_CATALOG_ID,
      components: [
        {
          id: 'root',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'book', context: {}, userMessage } },
        },
        { id: 'label', component: 'Text', text: 'Book' },
      ],
    },
  } as unknown as ServerMessage;
}

/**
 * An agent that sends {@link createV10ActionSurface} (`"s"`) to a connection that negotiated
 * v1.0, and records every action it receives, in order.
 */
export function createV10ActionAgent(): { agent: A2uiAgent; actions: AgentAction[] } {
  const actions: AgentAction[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      if (connection.protocolVersions?.[0] === 'v1.0') connection.send(createV10ActionSurface('s'));
    },
    onAction: (_connection, action) => void actions.push(action),
  };
  return { agent, actions };
}

/**
 * The action {@link createV10ActionSurface}'s button fires, as a client posts it on the wire
 * (`book` from `root` of `"s"`, empty context, a fixed timestamp), without the v1.0-only
 * `userMessage`: a test adds that, or a bad value in its place.
 */
export const BOOK_ACTION = {
  name: 'book',
  surfaceId: 's',
  sourceComponentId: 'root',
  timestamp: '2026-01-15T12:00:00.000Z',
  context: {},
} as const;
