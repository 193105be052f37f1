/**
 * Test support: a `FunctionContext` over a plain object, dispatching `call` to a function list and
 * recording every path read. Not part of the public API.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { parsePointer, resolvePointer } from '../state/json-pointer.js';
import { BASIC_FUNCTIONS } from './basic-functions.js';
import type { FunctionContext, FunctionImplementation } from './function-types.js';

/** Options of {@link createTestFunctionContext}. */
export interface TestFunctionContextOptions {
  /** @default 'en-US' */
  locale?: string;
  /** Scope that relative paths resolve against. @default '/' */
  scope?: string;
  /** @default BASIC_FUNCTIONS */
  functions?: readonly FunctionImplementation[];
  openUrl?: (url: string) => void;
}

/** A context reading `data`; `reads` lists the paths read, in order. */
export function createTestFunctionContext(
  data: unknown = {},
  options: TestFunctionContextOptions = {},
): FunctionContext & { reads: string[] } {
  const functions = new Map((options.functions ?? BASIC_FUNCTIONS).map((fn) => [fn.name, fn]));
  const reads: string[] = [];
  const context = {
    locale: options.locale ?? 'en-US',
    openUrl: options.openUrl,
    reads,
    read(path: string): unknown {
      reads.push(path);
      let node = data;
      for (const segment of parsePointer(resolvePointer(path, options.scope ?? '/'))) {
        if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment))
          return undefined;
        node = (node as Record<string, unknown>)[segment];
      }
      return node;
    },
    call(name: string, args: Record<string, unknown>): unknown {
      const fn = functions.get(name);
      if (fn === undefined) throw new A2uiError('EXPRESSION_ERROR', `Unknown function '${name}'.`);
      return fn.execute(args, context);
    },
  };
  return context;
}
