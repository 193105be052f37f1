/**
 * A data-model value as React state.
 */
import { resolvePointer } from '@a2ui-ts/core';
import { useCallback, useContext, useMemo, useSyncExternalStore } from 'react';
import { ScopeContext } from '../provider/renderer-context.js';
import { useSurface } from './use-surface.js';

/** Options of {@link useDataValue}. */
export interface UseDataValueOptions {
  /** Read another surface of the provider's client. @default the surface around the caller */
  surfaceId?: string;
}

/**
 * The value at `path` in a surface's data model (§7), re-rendering only when that value changes.
 * Inside a template item, relative paths resolve against the item's scope (§7.4). The value is an
 * immutable snapshot: never mutate it.
 *
 * @param path - JSON Pointer, absolute (`/user/name`) or relative to the current scope (`name`)
 * @returns the value, or `undefined` when the path, the surface or the scope is missing or the
 *   path is malformed
 * @example
 * ```tsx
 * function CartBadge() {
 *   const count = useDataValue('/cart/count', { surfaceId: 'shop' });
 *   return <span>{String(count ?? 0)}</span>;
 * }
 * ```
 */
export function useDataValue(path: string, options: UseDataValueOptions = {}): unknown {
  const surface = useSurface(options.surfaceId);
  const scope = useContext(ScopeContext);
  const absolute = useMemo(() => {
    try {
      return resolvePointer(path, options.surfaceId === undefined ? scope : '/');
    } catch {
      return undefined;
    }
  }, [path, scope, options.surfaceId]);
  const subscribe = useCallback(
    (listener: () => void) =>
      surface && !surface.disposed && absolute !== undefined
        ? surface.dataModel.subscribe(absolute, listener)
        : () => {},
    [surface, absolute],
  );
  const getSnapshot = useCallback(
    () => (surface && absolute !== undefined ? surface.dataModel.get(absolute) : undefined),
    [surface, absolute],
  );
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
