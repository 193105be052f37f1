/**
 * Finds the function calls of a value that its surface cannot run, so that an action calling
 * one can be shown inert and refused with a clear error instead of half running (issue 13).
 */
import { isFunctionCall, isRecord } from '../protocol/guards.js';
import { isSystemFunction } from './system-functions.js';

/** Deepest nesting looked into (server messages are limited to 64 levels anyway). */
const MAX_DEPTH = 64;

/**
 * Names of the functions `value` calls (`{call}` anywhere inside it: an action's `functionCall`,
 * its arguments, an event's context values) that `functions` does not define, in order of
 * appearance, without repeats.
 *
 * @param value - a dynamic value or an action, as the agent sent it
 * @param functions - the surface catalog's functions by name
 * @returns the unknown names; empty when every call can run
 *
 * @example
 * ```ts
 * findUnknownFunctions({ functionCall: { call: 'share' } }, catalog.functions); // ['share']
 * ```
 */
export function findUnknownFunctions(
  value: unknown,
  functions: ReadonlyMap<string, unknown>,
): string[] {
  const unknown = new Set<string>();
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null || depth > MAX_DEPTH) continue;
    // System functions (`@index`) are no catalog's: the data context answers them.
    if (isFunctionCall(current) && !functions.has(current.call) && !isSystemFunction(current.call))
      unknown.add(current.call);
    const children: unknown[] = Array.isArray(current)
      ? current
      : isRecord(current)
        ? Object.values(current)
        : [];
    for (let index = children.length - 1; index >= 0; index--)
      stack.push({ value: children[index], depth: depth + 1 });
  }
  return [...unknown];
}
