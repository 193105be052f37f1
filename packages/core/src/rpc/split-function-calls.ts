/**
 * Separates v1.0 function-call messages from the UI messages of one inbound delivery, so that
 * the client answers calls and settles responses while the processor applies the rest.
 */
import { isRecord } from '../protocol/guards.js';
import { getFunctionCallKind } from './function-call-messages.js';

/** The two parts of an inbound delivery. */
export interface SplitFunctionCalls {
  /** The function-call messages, in order. */
  readonly calls: Record<string, unknown>[];
  /** Everything else, in the input's own form; `undefined` when nothing is left. */
  readonly rest: unknown;
}

const MARKERS = ['"callRendererFunction"', '"agentFunctionResponse"'];

function splitList(list: unknown[]): { calls: Record<string, unknown>[]; rest: unknown[] } {
  const calls: Record<string, unknown>[] = [];
  const rest: unknown[] = [];
  for (const item of list) {
    if (isRecord(item) && getFunctionCallKind(item)) calls.push(item);
    else rest.push(item);
  }
  return { calls, rest };
}

/**
 * Splits what a transport delivered (one message, an array, `{messages}`, or JSON text of one of
 * those) into function-call messages and the rest. Input without function calls comes back
 * untouched as `rest` (text is parsed only when it mentions a function-call key), so the
 * processor sees exactly what it would have seen.
 *
 * @param input - A transport's `messages` event payload.
 * @returns The calls and the rest.
 *
 * @example
 * ```ts
 * const { calls, rest } = splitFunctionCalls(event.messages);
 * if (rest !== undefined) processor.process(rest);
 * ```
 */
export function splitFunctionCalls(input: unknown): SplitFunctionCalls {
  let value = input;
  if (typeof input === 'string') {
    if (!MARKERS.some((marker) => input.includes(marker))) return { calls: [], rest: input };
    try {
      value = JSON.parse(input);
    } catch {
      return { calls: [], rest: input };
    }
  }
  if (Array.isArray(value)) {
    const { calls, rest } = splitList(value);
    if (calls.length === 0) return { calls, rest: input };
    return { calls, rest: rest.length > 0 ? rest : undefined };
  }
  if (isRecord(value) && Array.isArray(value.messages) && !('version' in value)) {
    const { calls, rest } = splitList(value.messages);
    if (calls.length === 0) return { calls, rest: input };
    return { calls, rest: rest.length > 0 ? { ...value, messages: rest } : undefined };
  }
  if (isRecord(value) && getFunctionCallKind(value)) return { calls: [value], rest: undefined };
  return { calls: [], rest: input };
}
