/**
 * The client's live surfaces as React state.
 */
import type { A2uiClient, Surface } from '@a2ui-ts/core';
import { useCallback, useSyncExternalStore } from 'react';
import { useA2uiClient } from './use-a2ui-client.js';

/**
 * Every live surface in creation order; re-renders when one is created or deleted (once per
 * message batch).
 *
 * @param client - @default the nearest provider's client
 * @throws Error without a client argument or provider
 */
export function useSurfaces(client?: A2uiClient): readonly Surface[] {
  const fromContext = useA2uiClient({ optional: true });
  const effective = client ?? fromContext;
  if (!effective)
    throw new Error('useSurfaces needs a client argument or an enclosing <A2UIProvider>.');
  const { processor } = effective;
  const subscribe = useCallback(
    (listener: () => void) => processor.subscribe(listener),
    [processor],
  );
  const getSnapshot = useCallback(() => processor.getSurfaces(), [processor]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
