/**
 * One surface: who sent it, the rendered UI, and its live data model.
 */
import {
  type A2uiClient,
  BASIC_CATALOG_ID,
  MCP_APP_CATALOG_ID,
  MINIMAL_CATALOG_ID,
  type Surface,
  V0_9_1_BASIC_CATALOG_ID,
  V1_0_BASIC_CATALOG_ID,
  V08_STANDARD_CATALOG_ID,
} from '@a2ui-ts/core';
import { A2UIRenderer, type ComponentRegistry } from '@a2ui-ts/react-renderer';
import { useEffect, useRef, useState } from 'react';
import { DataModelView } from './data-model-view.js';

const CATALOG_NAMES: Record<string, string> = {
  [BASIC_CATALOG_ID]: 'basic',
  [MINIMAL_CATALOG_ID]: 'minimal',
  [V0_9_1_BASIC_CATALOG_ID]: 'basic',
  [V1_0_BASIC_CATALOG_ID]: 'basic',
  [V08_STANDARD_CATALOG_ID]: 'standard',
  [MCP_APP_CATALOG_ID]: 'mcp-apps',
};

/** Highest heading level of agent text: below the page's h1 and the section h2s. */
export const SURFACE_MIN_HEADING_LEVEL = 3;

/** Cards mounted in the current frame; the first one is revealed. */
let added: HTMLElement[] = [];

/** Scrolls the first card added in this frame into view, unless its top is already visible. */
function revealWhenAdded(element: HTMLElement): void {
  added.push(element);
  if (added.length > 1) return;
  requestAnimationFrame(() => {
    const first = added.find((candidate) => candidate.isConnected);
    added = [];
    if (!first) return;
    const top = first.getBoundingClientRect().top;
    // The sticky top bar covers the top of the window: scroll-margin-top in app.css.
    const margin = Number.parseFloat(getComputedStyle(first).scrollMarginTop) || 0;
    // Already where a reader looks (its top in the upper half of the window): leave it.
    if (top >= margin && top < window.innerHeight / 2) return;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    first.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
  });
}

/** Props of {@link SurfacePanel}. */
export interface SurfacePanelProps {
  client: A2uiClient;
  surface: Surface;
  /** Identifies this card among the list (`data-surface-key`), for the focus handoff. */
  surfaceKey?: string;
  /** Pins the renderer's light or dark palette to the page theme. */
  colorScheme: 'light' | 'dark';
  /** The connection's registry (an opt-in catalog); @default the built-in catalogs */
  registry?: ComponentRegistry;
}

/** A card around one rendered surface. */
export function SurfacePanel({
  client,
  surface,
  surfaceKey,
  colorScheme,
  registry,
}: SurfacePanelProps) {
  const [showData, setShowData] = useState(false);
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    // A new surface (results, a confirmation, a streamed example) can land below the fold or
    // beside a list the user scrolled down: bring it into view once, when it appears.
    if (card.current) revealWhenAdded(card.current);
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
      data-surface-key={surfaceKey}
      data-a2ui-version={surface.protocolVersion.name}
      aria-label={`Surface ${surface.surfaceId}`}
    >
      <header className="surface-header">
        <span className="surface-id">{surface.surfaceId}</span>
        {owner && <span className="surface-owner">{owner}</span>}
        <span className="badge" title={surface.catalogId}>
          {CATALOG_NAMES[surface.catalogId] ?? surface.catalogId}
        </span>
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
        {/* The page has its h1 and section h2s: an agent's h1 (the official examples use it) is
            this card's h3, so the page keeps one h1 and an outline without gaps. */}
        <A2UIRenderer
          client={client}
          surfaceId={surface.surfaceId}
          colorScheme={colorScheme}
          minHeadingLevel={SURFACE_MIN_HEADING_LEVEL}
          {...(registry ? { registry } : {})}
        />
      </div>
      <details className="surface-data" onToggle={(event) => setShowData(event.currentTarget.open)}>
        <summary>Data model</summary>
        {/* Subscribed only while open: a closed view costs nothing on every data change. */}
        {showData && <DataModelView surface={surface} />}
      </details>
    </article>
  );
}
