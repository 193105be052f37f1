/**
 * The event an action sends (spec §8.5), read from either form an agent writes: the schema's
 * `{event: {name, context}}` or the `{name, context}` shorthand other renderers accept; and its
 * context resolved for sending.
 */
import type { DataContext, EvaluateOptions } from '../binding/data-context.js';
import { isEventAction, isRecord } from '../protocol/guards.js';

/** The name and (unresolved) context of an event action. */
export interface EventActionParts {
  readonly name: string;
  readonly context: Record<string, unknown> | undefined;
  /** v1.0's `userMessage` (a dynamic string), unresolved. */
  readonly userMessage?: unknown;
}

/**
 * The event of `action`, or `undefined` when it is not an event action (a `functionCall`, or
 * nothing usable).
 *
 * @param action - a component's `action` as sent
 */
export function readEventAction(action: unknown): EventActionParts | undefined {
  const event = isEventAction(action) ? action.event : action;
  if (!isRecord(event) || typeof event.name !== 'string' || 'functionCall' in event)
    return undefined;
  const context = isRecord(event.context) ? event.context : undefined;
  return event.userMessage === undefined
    ? { name: event.name, context }
    : { name: event.name, context, userMessage: event.userMessage };
}

/**
 * Resolves an event's context for sending: each key once, in the action's data scope. A value
 * that resolves to nothing — an unbound path, or a call of a function the catalog does not define
 * (reported once as `EXPRESSION_ERROR` by the evaluation) — is sent as `null`, so the agent still
 * gets every key it asked for.
 *
 * @param scope - the action's data context
 * @param context - the event's context as sent
 * @param options - evaluation options (`openUrl` for a user gesture)
 */
export function resolveEventContext(
  scope: DataContext,
  context: Record<string, unknown> | undefined,
  options: EvaluateOptions,
): Record<string, unknown> {
  const resolved = scope.resolveContext(context, options);
  for (const key of Object.keys(context ?? {}))
    if (resolved[key] === undefined) resolved[key] = null;
  return resolved;
}
