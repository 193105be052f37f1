/**
 * Calling agent functions (v1.0 `callAgentFunction`) from React.
 */
import type { FunctionCallOptions } from '@a2ui-ts/core';
import { useCallback, useContext } from 'react';
import { SurfaceContext } from '../provider/renderer-context.js';
import { useA2uiClient } from './use-a2ui-client.js';

/** Options of {@link useAgentFunction}. */
export interface UseAgentFunctionOptions {
  /**
   * The surface the call comes from (`callAgentFunction.surfaceId`).
   * @default the surface rendered around the caller (inside a custom component)
   */
  surfaceId?: string;
  /** The catalog the function belongs to (`callFunction.catalogId`). @default none */
  catalogId?: string;
}

/** Calls the agent function: resolves with its value, rejects as `client.callAgentFunction`. */
export type AgentFunctionCaller = (
  args?: Record<string, unknown>,
  options?: FunctionCallOptions,
) => Promise<unknown>;

/**
 * A function that calls agent function `name` with the same promise API as
 * `A2uiClient.callAgentFunction`: the agent's value, or `FUNCTION_CALL_FAILED` (`data.code`
 * `UNKNOWN_FUNCTION`, `INVALID_FUNCTION_CALL`, `EXECUTION_ERROR`), `TIMEOUT`, `ABORTED`,
 * `CONNECTION_CLOSED`. A call retransmitted by the transport runs once on the agent. Stable while
 * `name`, the surface and the catalog stay the same.
 *
 * @throws Error when called outside `<A2UIProvider>` / `<A2UIRenderer>`, or — when the returned
 *   function runs — an Error when no surface is known (pass `surfaceId`)
 * @example
 * ```tsx
 * const suggest = useAgentFunction('suggestNames', { surfaceId: 'form' });
 * const onInput = async (prefix: string) => setOptions((await suggest({ prefix })) as string[]);
 * ```
 */
export function useAgentFunction(
  name: string,
  options: UseAgentFunctionOptions = {},
): AgentFunctionCaller {
  const client = useA2uiClient();
  const around = useContext(SurfaceContext)?.surface.surfaceId;
  const surfaceId = options.surfaceId ?? around;
  const { catalogId } = options;
  return useCallback(
    (args = {}, callOptions = {}) => {
      if (surfaceId === undefined)
        return Promise.reject(
          new Error(`useAgentFunction('${name}') needs a surfaceId outside a surface.`),
        );
      return client.callAgentFunction(
        surfaceId,
        { call: name, args, ...(catalogId === undefined ? {} : { catalogId }) },
        callOptions,
      );
    },
    [client, name, surfaceId, catalogId],
  );
}
