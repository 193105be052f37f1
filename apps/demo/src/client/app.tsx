/**
 * The demo page: pickers and status on top, the agent's surfaces on the left, the message
 * inspector on the right (stacked on narrow windows).
 */
import type { A2uiClient, Surface } from '@a2ui-ts/core';
import { useEffect, useState } from 'react';
import { ConnectionBadge } from './components/connection-badge.js';
import { Inspector } from './components/inspector.js';
import { StreamUploadPanel } from './components/stream-upload-panel.js';
import { SurfacePanel } from './components/surface-panel.js';
import { useDemoConnection, useSurfaceList } from './use-demo-connection.js';

/** What `GET /api/config` returns. */
interface DemoConfig {
  basePath: string;
  agents: Array<{ id: string; label: string; description: string }>;
  unavailableAgents: Array<{ id: string; label: string; description: string }>;
  transports: Array<{ id: string; label: string }>;
}

type Theme = 'light' | 'dark';

function initialTheme(): Theme {
  const stored = localStorage.getItem('a2ui-demo-theme');
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

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

function Surfaces({ client, theme }: { client: A2uiClient; theme: Theme }) {
  const surfaces = useSurfaceList(client);
  if (surfaces.length === 0) return <p className="empty">Waiting for the agent’s first surface…</p>;
  return (
    <div className="surfaces">
      {surfaces.map((surface) => (
        <SurfacePanel
          key={surfaceKey(surface)}
          client={client}
          surface={surface}
          colorScheme={theme}
        />
      ))}
    </div>
  );
}

/** The whole page. */
export function App() {
  const [config, setConfig] = useState<DemoConfig>();
  const [configError, setConfigError] = useState<string>();
  const [agentId, setAgentId] = useState(
    () => new URLSearchParams(window.location.search).get('agent') ?? '',
  );
  const [transportId, setTransportId] = useState(
    () => new URLSearchParams(window.location.search).get('transport') ?? '',
  );
  const [theme, setTheme] = useState<Theme>(initialTheme);

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/config', { signal: controller.signal })
      .then((response) => {
        if (!response.ok) throw new Error(`GET /api/config answered ${response.status}`);
        return response.json() as Promise<DemoConfig>;
      })
      .then((loaded) => {
        setConfig(loaded);
        setAgentId((current) =>
          loaded.agents.some((agent) => agent.id === current)
            ? current
            : (loaded.agents[0]?.id ?? ''),
        );
        setTransportId((current) =>
          loaded.transports.some((entry) => entry.id === current)
            ? current
            : (loaded.transports[0]?.id ?? ''),
        );
      })
      .catch((error: Error) => {
        if (!controller.signal.aborted) setConfigError(error.message);
      });
    return () => controller.abort();
  }, []);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem('a2ui-demo-theme', theme);
  }, [theme]);

  useEffect(() => {
    if (!agentId || !transportId) return;
    const url = new URL(window.location.href);
    url.searchParams.set('agent', agentId);
    url.searchParams.set('transport', transportId);
    window.history.replaceState(null, '', url);
  }, [agentId, transportId]);

  const url =
    config && agentId && transportId ? `${config.basePath}/${agentId}/${transportId}` : undefined;
  const connection = useDemoConnection(url, transportId);
  const agent = config?.agents.find((entry) => entry.id === agentId);

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            A2
          </span>
          <span className="brand-name">a2ui-ts demo</span>
        </div>
        <div className="pickers">
          <label>
            <span>Agent</span>
            <select
              data-testid="agent-picker"
              value={agentId}
              onChange={(event) => setAgentId(event.target.value)}
              disabled={!config}
            >
              {config?.agents.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.label}
                </option>
              ))}
              {config?.unavailableAgents.map((entry) => (
                <option key={entry.id} value={entry.id} disabled title={entry.description}>
                  {entry.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Transport</span>
            <select
              data-testid="transport-picker"
              value={transportId}
              onChange={(event) => setTransportId(event.target.value)}
              disabled={!config}
            >
              {config?.transports.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="topbar-end">
          {connection && <ConnectionBadge client={connection.client} />}
          <button
            type="button"
            className="button button--ghost theme-toggle"
            onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
            aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          >
            {theme === 'dark' ? '☀' : '☾'}
          </button>
        </div>
      </header>
      {agent && <p className="agent-description">{agent.description}</p>}
      {url && transportId === 'a2a' && (
        <p className="agent-description">
          <a
            href={`${url}/.well-known/agent-card.json`}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="agent-card-link"
          >
            A2A agent card
          </a>
        </p>
      )}
      {configError && (
        <p role="alert" className="text-error">
          Could not load the demo configuration: {configError}
        </p>
      )}
      <main className="layout">
        <section className="stage" aria-label="Surfaces">
          {connection ? (
            <Surfaces client={connection.client} theme={theme} />
          ) : (
            <p className="empty">Connecting…</p>
          )}
          {connection && agentId === 'gallery' && <StreamUploadPanel client={connection.client} />}
        </section>
        {connection && <Inspector log={connection.log} />}
      </main>
    </div>
  );
}
