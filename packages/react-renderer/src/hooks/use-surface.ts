/**
 * One surface as React state.
 */
import type { Surface } from '@a2ui-ts/core';
import { useCallback, useContext, useSyncExternalStore } from 'react';
import { ClientContext, SurfaceContext } from '../provider/renderer-context.js';

/**
 * The surface `surfaceId` of the provider's client (re-renders when it is created or deleted),
 * or, without an id, the surface being rendered around the caller (inside a custom component).
 *
 * @returns the surface, or `undefined` when it does not exist (yet)
 * @example
 * ```tsx
 * const surface = useSurface('booking');
 * return surface ? <A2UIRenderer surfaceId="booking" /> : <Spinner />;
 * ```
 */
export function useSurface(surfaceId?: string): Surface | undefined {
  const clientContext = useContext(ClientContext);
  const current = useContext(SurfaceContext)?.surface;
  const processor = clientContext?.client.processor;
  const subscribe = useCallback(
    (listener: () => void) =>
      processor && surfaceId !== undefined ? processor.subscribe(listener) : () => {},
    [processor, surfaceId],
  );
  const getSnapshot = useCallback(
    () => (surfaceId === undefined ? current : processor?.getSurface(surfaceId)),
    [processor, surfaceId, current],
  );
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
