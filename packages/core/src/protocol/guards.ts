import type {
  Action,
  ChildTemplate,
  DataBinding,
  EventAction,
  FunctionCall,
  ServerMessage,
} from './messages.js';

/** The message key of a server message: `createSurface`, `updateComponents`, … */
export type ServerMessageKind =
  | 'createSurface'
  | 'updateComponents'
  | 'updateDataModel'
  | 'deleteSurface';

export const SERVER_MESSAGE_KINDS: readonly ServerMessageKind[] = [
  'createSurface',
  'updateComponents',
  'updateDataModel',
  'deleteSurface',
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export { isRecord };

/**
 * Sets `key` as an own data property of `target`, even when `key` is `"__proto__"`: plain
 * assignment would invoke the `__proto__` setter and replace the prototype instead. Use it
 * wherever a key comes from the agent or the user (surface ids, component ids, context keys).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` is the one inherited accessor of a plain object; every other key assigns as an
  // own data property, and assignment is several times cheaper than defineProperty (hot in the
  // v0.8 upgrade, which copies every property of every component).
  if (key !== '__proto__') {
    target[key] = value;
    return;
  }
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** True for `{"path": string}` (§6 `DataBinding`). */
export function isDataBinding(value: unknown): value is DataBinding {
  return isRecord(value) && typeof value.path === 'string' && !('call' in value);
}

/** True for `{"call": string, …}` (§6 `FunctionCall`). */
export function isFunctionCall(value: unknown): value is FunctionCall {
  return isRecord(value) && typeof value.call === 'string';
}

/** True for a ChildList template `{componentId, path}` (§5.2). */
export function isChildTemplate(value: unknown): value is ChildTemplate {
  return isRecord(value) && typeof value.componentId === 'string' && typeof value.path === 'string';
}

/** True for an `{"event": …}` action (§8.5). */
export function isEventAction(value: Action | unknown): value is EventAction {
  return isRecord(value) && isRecord(value.event) && typeof value.event.name === 'string';
}

/** The kind of a server message, or `undefined` when it has none of the four keys. */
export function getServerMessageKind(message: unknown): ServerMessageKind | undefined {
  if (!isRecord(message)) return undefined;
  return SERVER_MESSAGE_KINDS.find((kind) => kind in message);
}

/** The `surfaceId` a server message targets, if it can be read. */
export function getSurfaceId(message: ServerMessage | unknown): string | undefined {
  const kind = getServerMessageKind(message);
  if (!kind) return undefined;
  const body = (message as Record<string, unknown>)[kind];
  return isRecord(body) && typeof body.surfaceId === 'string' ? body.surfaceId : undefined;
}
