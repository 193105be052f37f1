/**
 * The part of the demo page that speaks A2UI: the connection, the agent's surfaces, the paste
 * panel and the message inspector. Loaded apart from the page shell (see `app.tsx`).
 */
import type { A2uiClient, Surface } from '@a2ui-ts/core';
import type { ComponentRegistry } from '@a2ui-ts/react-renderer';
import { useMemo, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { Theme } from './app.js';
import { CLIENT_TRANSPORTS } from './client-transports.js';
import { ConnectionBadge } from './components/connection-badge.js';
import { Inspector } from './components/inspector.js';
import { StreamUploadPanel } from './components/stream-upload-panel.js';
import { SurfacePanel } from './components/surface-panel.js';
import { VersionBadge } from './components/version-badge.js';
import { useDemoConnection, useSurfaceList } from './use-demo-connection.js';
import { useActionAwaitingSurface, useFocusHandoff } from './use-focus-handoff.js';
import { VERSION_CHOICES, type VersionChoice } from './version-choice.js';

export { CLIENT_TRANSPORTS } from './client-transports.js';

const surfaceKeys = new WeakMap<Surface, string>();
let nextSurfaceKey = 0;

/** A key per surface object, so a surface deleted and created again under one id remounts. */
function surfaceKey(surface: Surface): string {
  let key = surfaceKeys.get(surface);
  if (key === undefined) {
    key = `${surface.surfaceId}:${nextSurfaceKey++}`;
    surfaceKeys.set(surface, key);
  }
  return key;
}

function Surfaces({
  client,
  theme,
  registry,
}: {
  client: A2uiClient;
  theme: Theme;
  registry: ComponentRegistry | undefined;
}) {
  const surfaces = useSurfaceList(client);
  const container = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => surfaces.map(surfaceKey), [surfaces]);
  // A surface created in answer to the user's action takes the focus (it is scrolled to).
  const pendingAction = useActionAwaitingSurface(client);
  const { announcement } = useFocusHandoff(container, keys, { pendingAction });
  return (
    <>
      {surfaces.length === 0 ? (
        <p className="empty">Waiting for the agent’s first surface…</p>
      ) : (
        <div className="surfaces" ref={container}>
          {surfaces.map((surface) => (
            <SurfacePanel
              key={surfaceKey(surface)}
              surfaceKey={surfaceKey(surface)}
              client={client}
              surface={surface}
              colorScheme={theme}
              registry={registry}
            />
          ))}
        </div>
      )}
      <p className="visually-hidden" aria-live="polite" data-testid="surface-announcer">
        {announcement}
      </p>
    </>
  );
}

/** Props of {@link Workspace}. */
export interface WorkspaceProps {
  /** The agent's endpoint on the chosen transport; nothing connects until it is known. */
  url: string | undefined;
  transportId: string;
  agentId: string;
  theme: Theme;
  /** Element of the top bar that shows the link status. */
  statusSlot: HTMLElement | null;
  /** The version switch. @default auto */
  versionChoice?: VersionChoice;
}

/** Connects to `url` and renders what the agent sends, with the inspector beside it. */
export function Workspace({
  url,
  transportId,
  agentId,
  theme,
  statusSlot,
  versionChoice = VERSION_CHOICES[0]!,
}: WorkspaceProps) {
  const state = useDemoConnection(url, transportId, {
    mcpApps: agentId === 'mcp-app',
    offeredVersions: versionChoice.offeredVersions,
  });
  const connection = state.status === 'ready' ? state.connection : undefined;
  return (
    <main className="layout">
      {connection &&
        statusSlot &&
        createPortal(
          <>
            <ConnectionBadge client={connection.client} />
            <VersionBadge
              client={connection.client}
              transport={connection.transport}
              choice={versionChoice}
            />
          </>,
          statusSlot,
        )}
      <section className="stage" aria-labelledby="stage-heading">
        {/* The outline a screen reader lists: the page (h1), then Surfaces, Your own stream and
            Messages (h2); the agents' own titles are h3 and below. */}
        <h2 id="stage-heading" className="visually-hidden">
          Surfaces
        </h2>
        {connection ? (
          <Surfaces client={connection.client} theme={theme} registry={connection.registry} />
        ) : state.status === 'failed' ? (
          <p className="notice" role="alert" data-testid="transport-load-error">
            {state.reason}
          </p>
        ) : (
          <p className="empty">Connecting…</p>
        )}
        {connection && agentId === 'gallery' && <StreamUploadPanel client={connection.client} />}
      </section>
      {connection && (
        <Inspector
          log={connection.log}
          networkNote={CLIENT_TRANSPORTS.find((entry) => entry.id === transportId)?.networkNote}
        />
      )}
    </main>
  );
}
