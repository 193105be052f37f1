/**
 * What the streaming parser does with a message once it has been written in full: start,
 * update or delete a surface, in each version's terms. Component and data-model messages that
 * arrive before their surface's start message wait for it (v0.8 replays them after it, v0.9
 * starts the surface fresh).
 */
import { isRecord } from '../protocol/guards.js';
import type { ComponentStreamer } from './component-streamer.js';
import type { StreamDialect } from './stream-dialect.js';
import type { JsonObject } from './stream-types.js';
import type { SurfaceCursor } from './surface-cursor.js';

/** The parser state a finished message acts on. */
export interface MessageHandlerHost {
  readonly dialect: StreamDialect;
  readonly cursor: SurfaceCursor;
  readonly components: ComponentStreamer;
  readonly startedSurfaces: Set<string>;
  readonly deletedSurfaces: Set<string>;
  readonly pending: Map<string, JsonObject[]>;
  bufferedStart: JsonObject | undefined;
  addMessageType(type: string): void;
  /** Throws `VALIDATION_FAILED` when the message fails validation. */
  assertValid(message: JsonObject): void;
  /**
   * Validates and sends; a finished message that fails validation throws.
   * @returns whether the message was sent (a partial one that fails is held back)
   */
  emit(message: JsonObject, options: { partial: boolean }): boolean;
  deleteSurface(surfaceId: string): void;
  sendReachable(options: { requireRoot: boolean }): void;
  /** Records the components reachable now as sent (they went out inside another message). */
  markReachableSent(): void;
}

/** The surface a message names (`deleteSurface` may be the bare id in v0.8). */
function namedSurface(
  message: JsonObject,
  keys: readonly string[],
  current?: string,
): string | undefined {
  let surfaceId = typeof message.surfaceId === 'string' ? message.surfaceId : current;
  for (const key of keys) {
    if (!(key in message)) continue;
    const payload = message[key];
    if (typeof payload === 'string' && key === 'deleteSurface') surfaceId = payload;
    else if (
      isRecord(payload) &&
      typeof payload.surfaceId === 'string' &&
      payload.surfaceId !== ''
    ) {
      surfaceId = payload.surfaceId;
    }
    break;
  }
  return surfaceId;
}

function storeComponents(payload: unknown, host: MessageHandlerHost): void {
  const components =
    isRecord(payload) && Array.isArray(payload.components) ? payload.components : [];
  for (const component of components) {
    if (isRecord(component) && 'id' in component) {
      host.components.received.set(String(component.id), component);
    }
  }
}

function rootOf(payload: unknown, current: string | undefined): string | undefined {
  if (isRecord(payload) && typeof payload.root === 'string') return payload.root;
  return current || 'root';
}

function startSurface(message: JsonObject, surfaceId: string, host: MessageHandlerHost): void {
  host.bufferedStart = message;
  if (!host.startedSurfaces.has(surfaceId)) {
    host.emit(message, { partial: false });
    host.startedSurfaces.add(surfaceId);
    host.bufferedStart = undefined;
  }
}

function completeV08(message: JsonObject, host: MessageHandlerHost): void {
  const { cursor } = host;
  cursor.surfaceId = namedSurface(
    message,
    ['surfaceUpdate', 'beginRendering', 'deleteSurface'],
    cursor.surfaceId,
  );
  const surfaceId = cursor.surfaceId ?? 'unknown';
  const started = host.startedSurfaces.has(surfaceId) || host.bufferedStart !== undefined;
  if ('deleteSurface' in message && started) host.deleteSurface(surfaceId);
  if (host.deletedSurfaces.has(surfaceId)) return;
  if (('surfaceUpdate' in message || 'deleteSurface' in message) && !started) {
    host.pending.set(surfaceId, [...(host.pending.get(surfaceId) ?? []), message]);
    return;
  }
  if ('beginRendering' in message) {
    const payload = message.beginRendering;
    if (isRecord(payload) && typeof payload.surfaceId === 'string')
      cursor.surfaceId = payload.surfaceId;
    cursor.rootId = rootOf(payload, cursor.rootId);
    startSurface(message, surfaceId, host);
    const waiting = host.pending.get(surfaceId);
    host.pending.delete(surfaceId);
    for (const pendingMessage of waiting ?? []) completeV08(pendingMessage, host);
    host.sendReachable({ requireRoot: false });
  } else if ('surfaceUpdate' in message) {
    host.addMessageType('surfaceUpdate');
    storeComponents(message.surfaceUpdate, host);
    host.sendReachable({ requireRoot: true });
  } else if ('dataModelUpdate' in message) {
    host.addMessageType('dataModelUpdate');
    host.emit(message, { partial: false });
    host.sendReachable({ requireRoot: false });
  } else {
    host.emit(message, { partial: false });
  }
}

/**
 * v0.9 and the v1.0 candidate.
 *
 * @returns false when the message is none of theirs (the caller validates it, which fails).
 */
function completeV09(message: JsonObject, host: MessageHandlerHost): boolean {
  const { cursor } = host;
  cursor.surfaceId = namedSurface(message, ['updateComponents', 'createSurface'], cursor.surfaceId);
  const surfaceId = cursor.surfaceId ?? 'unknown';
  if ('createSurface' in message) {
    const payload = message.createSurface;
    if (isRecord(payload)) cursor.rootId = rootOf(payload, cursor.rootId);
    // v1.0: components inline in createSurface go out with it; they are not sent a second time.
    const inline = isRecord(payload) && Array.isArray(payload.components);
    if (inline) storeComponents(payload, host);
    startSurface(message, surfaceId, host);
    host.pending.delete(surfaceId);
    if (inline) host.markReachableSent();
    host.sendReachable({ requireRoot: false });
  } else if ('updateComponents' in message) {
    host.addMessageType('updateComponents');
    cursor.rootId = rootOf(message.updateComponents, cursor.rootId);
    storeComponents(message.updateComponents, host);
    host.sendReachable({ requireRoot: true });
  } else if ('deleteSurface' in message) {
    if (!host.startedSurfaces.has(surfaceId)) {
      host.pending.set(surfaceId, [...(host.pending.get(surfaceId) ?? []), message]);
      return true;
    }
    host.addMessageType('deleteSurface');
    host.emit(message, { partial: false });
  } else if ('updateDataModel' in message) {
    host.addMessageType('updateDataModel');
    host.emit(message, { partial: false });
  } else {
    return false;
  }
  return true;
}

/**
 * Acts on a message written in full: validates it (a finished message that fails throws), then
 * starts, updates or deletes its surface and sends what became ready.
 *
 * @returns false when the object is not a message of the stream's version.
 */
export function completeMessage(message: JsonObject, host: MessageHandlerHost): boolean {
  host.assertValid(message);
  if (host.dialect.version === 'v0.8') {
    completeV08(message, host);
    return true;
  }
  return completeV09(message, host);
}
