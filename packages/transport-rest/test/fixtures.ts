/** Messages the tests send and expect. */
import {
  type A2uiAgent,
  BASIC_CATALOG_ID,
  type Connection,
  type DisconnectReason,
  type ServerMessage,
} from '@a2ui-ts/core';

export const capabilities = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};

/** A v0.9 `action` object (the inner one, as REST bodies carry it). */
export const action = (name: string, context: Record<string, unknown> = {}) => ({
  name,
  surfaceId: 'main',
  sourceComponentId: 'send',
  timestamp: '2026-01-15T12:00:00.000Z',
  context,
});

export const createMain: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
};

export const update = (path: string, value: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'main', path, value },
});

/**
 * An agent that opens the `main` surface and answers each action with `/last = <name>`, recording
 * what it saw.
 */
export function echoAgent(extra: Partial<A2uiAgent> = {}) {
  const actions: string[] = [];
  const errors: string[] = [];
  const disconnects: DisconnectReason[] = [];
  const connections: Connection[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connections.push(connection);
      connection.send(createMain);
    },
    onAction(connection, event) {
      actions.push(event.name);
      connection.send(update('/last', event.name));
    },
    onError(_connection, error) {
      errors.push(error.code);
    },
    onDisconnect(_connection, reason) {
      disconnects.push(reason);
    },
    ...extra,
  };
  return { agent, actions, errors, disconnects, connections };
}
