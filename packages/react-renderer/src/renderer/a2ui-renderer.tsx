/**
 * The entry point: renders one surface of a client, or all of them in creation order.
 */
import type { A2uiClient, Surface } from '@a2ui-ts/core';
import { useContext } from 'react';
import { useSurfaces } from '../hooks/use-surfaces.js';
import { useClientContextValue } from '../provider/a2ui-provider.js';
import { ClientContext, type RendererOptions } from '../provider/renderer-context.js';
import { A2UISurface } from './a2ui-surface.js';

/** Props of {@link A2UIRenderer}. */
export interface A2UIRendererProps extends RendererOptions {
  /** The client to render. @default the nearest `<A2UIProvider>`'s client */
  readonly client?: A2uiClient;
  /**
   * Render only this surface (nothing until it exists, nothing after `deleteSurface`).
   * @default every surface of the client, in creation order
   */
  readonly surfaceId?: string;
  /** Extra class on each surface element. */
  readonly className?: string;
}

const surfaceKeys = new WeakMap<Surface, string>();
let nextSurfaceKey = 0;

/** A key per surface object, so a surface deleted and created again under one id remounts. */
function surfaceKey(surface: Surface): string {
  let key = surfaceKeys.get(surface);
  if (key === undefined) {
    key = `${surface.surfaceId}\u0000${nextSurfaceKey++}`;
    surfaceKeys.set(surface, key);
  }
  return key;
}

/**
 * Renders A2UI surfaces of `client` with the basic catalog (and any registered components). A
 * message batch renders in one commit; a data change re-renders only the components bound to
 * the changed paths.
 *
 * @throws Error when there is neither a `client` prop nor an enclosing `<A2UIProvider>`
 * @example
 * ```tsx
 * import '@a2ui-ts/react-renderer/styles.css';
 * const client = new A2uiClient({ transport });
 * client.connect();
 * root.render(<A2UIRenderer client={client} />);
 * ```
 */
export function A2UIRenderer({ client, surfaceId, className, ...options }: A2UIRendererProps) {
  const parent = useContext(ClientContext);
  const effectiveClient = client ?? parent?.client;
  if (!effectiveClient)
    throw new Error('<A2UIRenderer> needs a `client` prop or an enclosing <A2UIProvider>.');
  const value = useClientContextValue(effectiveClient, options);
  return (
    <ClientContext.Provider value={value}>
      <SurfaceList client={effectiveClient} surfaceId={surfaceId} className={className} />
    </ClientContext.Provider>
  );
}

function SurfaceList({
  client,
  surfaceId,
  className,
}: {
  client: A2uiClient;
  surfaceId?: string;
  className?: string;
}) {
  const surfaces = useSurfaces(client);
  const shown =
    surfaceId === undefined
      ? surfaces
      : surfaces.filter((surface) => surface.surfaceId === surfaceId);
  return (
    <>
      {shown.map((surface) => (
        <A2UISurface key={surfaceKey(surface)} surface={surface} className={className} />
      ))}
    </>
  );
}
