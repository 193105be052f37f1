/**
 * One surface: who sent it, the rendered UI, and its live data model.
 */
import { type A2uiClient, BASIC_CATALOG_ID, MINIMAL_CATALOG_ID, type Surface } from '@a2ui-ts/core';
import { A2UIRenderer } from '@a2ui-ts/react-renderer';
import { useEffect, useRef, useState } from 'react';
import { DataModelView } from './data-model-view.js';

const CATALOG_NAMES: Record<string, string> = {
  [BASIC_CATALOG_ID]: 'basic',
  [MINIMAL_CATALOG_ID]: 'minimal',
};

/** Props of {@link SurfacePanel}. */
export interface SurfacePanelProps {
  client: A2uiClient;
  surface: Surface;
  /** Pins the renderer's light or dark palette to the page theme. */
  colorScheme: 'light' | 'dark';
}

/** A card around one rendered surface. */
export function SurfacePanel({ client, surface, colorScheme }: SurfacePanelProps) {
  const [showData, setShowData] = useState(false);
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    // On a narrow window surfaces stack, so a new one (results, a confirmation) can land below
    // the fold with no cue; bring it into view once, when it appears.
    if (window.matchMedia('(max-width: 720px)').matches) {
      card.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    }
  }, []);
  const owner =
    typeof surface.theme?.agentDisplayName === 'string'
      ? surface.theme.agentDisplayName
      : undefined;
  return (
    <article
      ref={card}
      className="surface-card"
      data-testid={`surface-${surface.surfaceId}`}
      aria-label={`Surface ${surface.surfaceId}`}
    >
      <header className="surface-header">
        <span className="surface-id">{surface.surfaceId}</span>
        {owner && <span className="surface-owner">{owner}</span>}
        <span className="badge">{CATALOG_NAMES[surface.catalogId] ?? surface.catalogId}</span>
        {surface.sendDataModel && (
          <span
            className="badge badge--accent"
            title="The client attaches this surface's data model to every message it sends"
          >
            sends data model
          </span>
        )}
      </header>
      <div className="surface-body">
        <A2UIRenderer client={client} surfaceId={surface.surfaceId} colorScheme={colorScheme} />
      </div>
      <details className="surface-data" onToggle={(event) => setShowData(event.currentTarget.open)}>
        <summary>Data model</summary>
        {/* Subscribed only while open: a closed view costs nothing on every data change. */}
        {showData && <DataModelView surface={surface} />}
      </details>
    </article>
  );
}
