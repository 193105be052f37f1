/**
 * Registering renderer functions (v1.0 `callRendererFunction`) next to the renderer.
 */
import type { AllowedCallers, RendererFunction } from '@a2ui-ts/core';
import { useEffect, useRef } from 'react';
import { useA2uiClient } from './use-a2ui-client.js';

/** Options of {@link useRendererFunction}. */
export interface UseRendererFunctionOptions {
  /**
   * Who may call it: agents only with `agentOnly` or `rendererOrAgent`.
   * @default "agentOnly" (a hook that registers a function for agents means agents to call it)
   */
  allowedCallers?: AllowedCallers;
  /**
   * The call needs a user gesture: it runs only within the client's `userActivationWindowMs`
   * (5000 ms by default) after a trusted click or key press on the page, and consumes it;
   * otherwise the agent gets `INVALID_FUNCTION_CALL`.
   * @default false
   */
  requiresUserActivation?: boolean;
  /** Answer only calls naming this catalog. @default any catalog */
  catalogId?: string;
}

/** Trusted gestures that count as user activation (as browsers' transient activation does). */
const GESTURES = ['pointerdown', 'keydown'] as const;

/**
 * Registers renderer function `name` on the provider's client while the component is mounted:
 * agents call it with `connection.callRendererFunction(name, args, { catalogId })` and get its
 * (awaited) result, `null` for `undefined`, or `EXECUTION_ERROR` when it throws (its text stays
 * here). The latest `implementation` is called; it need not be memoised. A call the agent
 * retransmits runs once. With `requiresUserActivation`, trusted `pointerdown` / `keydown` events
 * on the page are noted as gestures (`client.noteUserActivation()`).
 *
 * @throws Error when called outside `<A2UIProvider>` / `<A2UIRenderer>`
 * @example
 * ```tsx
 * useRendererFunction('getTimeZone', () => Intl.DateTimeFormat().resolvedOptions().timeZone);
 * ```
 */
export function useRendererFunction(
  name: string,
  implementation: RendererFunction['implementation'],
  options: UseRendererFunctionOptions = {},
): void {
  const client = useA2uiClient();
  const latest = useRef(implementation);
  latest.current = implementation;
  const { allowedCallers = 'agentOnly', requiresUserActivation = false, catalogId } = options;

  useEffect(() => {
    const fn: RendererFunction = {
      name,
      allowedCallers,
      requiresUserActivation,
      ...(catalogId === undefined ? {} : { catalogId }),
      implementation: (args, context) => latest.current(args, context),
    };
    client.rendererFunctions.register(fn);
    return () => {
      client.rendererFunctions.unregister(name);
    };
  }, [client, name, allowedCallers, requiresUserActivation, catalogId]);

  useEffect(() => {
    if (!requiresUserActivation || typeof window === 'undefined') return;
    // Only a real gesture counts: a script's synthetic event is not trusted.
    const onGesture = (event: Event) => {
      if (event.isTrusted) client.noteUserActivation();
    };
    for (const type of GESTURES) window.addEventListener(type, onGesture, { capture: true });
    return () => {
      for (const type of GESTURES) window.removeEventListener(type, onGesture, { capture: true });
    };
  }, [client, requiresUserActivation]);
}
