/**
 * Renderer→agent messages of a v0.8 surface: `userAction` and `error` (v0.8 §5.2, §5.3), written
 * from the engine's action and error objects.
 */
import type { ActionEvent, ClientError } from '../../protocol/messages.js';
import type { V08ClientMessage } from './v08-messages.js';

/**
 * A user action in v0.8's shape: `{"userAction": {name, surfaceId, sourceComponentId, timestamp,
 * context}}`. v0.8 has no `version` and no later fields (`userMessage`, metadata).
 *
 * @example
 * ```ts
 * encodeV08Action({ name: 'go', surfaceId: 's', sourceComponentId: 'b', timestamp: new Date().toISOString(), context: {} });
 * ```
 */
export function encodeV08Action(action: ActionEvent): V08ClientMessage {
  const { name, surfaceId, sourceComponentId, timestamp, context } = action;
  return { userAction: { name, surfaceId, sourceComponentId, timestamp, context } };
}

/**
 * An error in v0.8's shape: `{"error": {…}}`, whose content v0.8 leaves free; the engine's
 * `code`, `surfaceId`, `path` and `message` are kept as they are.
 */
export function encodeV08Error(error: ClientError): V08ClientMessage {
  return { error: { ...error } };
}
