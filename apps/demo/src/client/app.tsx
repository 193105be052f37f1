/**
 * The demo page: pickers and status on top, the agent's surfaces on the left, the message
 * inspector on the right (stacked on narrow windows).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { VERSION_CHOICES, versionChoiceOf } from './version-choice.js';

/**
 * Everything that speaks A2UI (core, the renderer, the transports, the inspector): most of the
 * page's code, and nothing the first paint (this shell) needs. Requested at once, so it downloads
 * while the configuration is fetched.
 */
const workspaceModule = import('./workspace.js');
const Workspace = lazy(() => workspaceModule.then((module) => ({ default: module.Workspace })));

/** What `GET /api/config` returns. */
interface DemoConfig {
  basePath: string;
  agents: Array<{ id: string; label: string; description: string }>;
  unavailableAgents: Array<{ id: string; label: string; description: string }>;
  transports: Array<{ id: string; label: string }>;
}

/** The page theme (the renderer's `colorScheme` follows it). */
export type Theme = 'light' | 'dark';

interface Choice {
  id: string;
  label: string;
  description?: string;
}

/**
 * What to pick for a `?agent=` / `?transport=` request and, when it cannot be honoured, a
 * sentence saying so (instead of silently showing something else).
 */
export function resolveChoice(
  kind: 'agent' | 'transport',
  requested: string,
  available: readonly Choice[],
  unavailable: readonly Choice[],
): { id: string; notice: string | undefined } {
  const fallback = available[0];
  if (available.some((entry) => entry.id === requested) || !fallback)
    return { id: available.length > 0 ? requested : '', notice: undefined };
  if (requested === '') return { id: fallback.id, notice: undefined };
  const instead = `showing ${fallback.label} instead`;
  const off = unavailable.find((entry) => entry.id === requested);
  if (off) {
    return {
      id: fallback.id,
      // What and instead first, then why or what to do (a sentence of its own, often long).
      notice: `The ${kind} “${off.label}” is not available; ${instead}.${off.description ? ` ${off.description}` : ''}`,
    };
  }
  const names = available.map((entry) => entry.label).join(', ');
  return {
    id: fallback.id,
    notice: `There is no ${kind} “${requested}” (available: ${names}); ${instead}.`,
  };
}

function initialTheme(): Theme {
  const stored = localStorage.getItem('a2ui-demo-theme');
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
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
  const [notices, setNotices] = useState<string[]>([]);
  /** Transport ids this client has a connector for (known once the workspace module loaded). */
  const [connectable, setConnectable] = useState<readonly string[]>([]);
  const [versionChoice, setVersionChoice] = useState(() =>
    versionChoiceOf(new URLSearchParams(window.location.search).get('version')),
  );
  /** Where the workspace puts the link status: the top bar. */
  const [statusSlot, setStatusSlot] = useState<HTMLElement | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/config', { signal: controller.signal })
      .then((response) => {
        if (!response.ok) throw new Error(`GET /api/config answered ${response.status}`);
        return response.json() as Promise<DemoConfig>;
      })
      .then((loaded) =>
        workspaceModule.then(({ CLIENT_TRANSPORTS }) => ({ loaded, CLIENT_TRANSPORTS })),
      )
      .then(({ loaded, CLIENT_TRANSPORTS }) => {
        setConfig(loaded);
        setConnectable(CLIENT_TRANSPORTS.map((factory) => factory.id));
        const params = new URLSearchParams(window.location.search);
        const agent = resolveChoice(
          'agent',
          params.get('agent') ?? '',
          loaded.agents,
          loaded.unavailableAgents,
        );
        // A transport the server offers but this client cannot speak is as unusable as none.
        const usable = loaded.transports.filter((entry) =>
          CLIENT_TRANSPORTS.some((factory) => factory.id === entry.id),
        );
        const transport = resolveChoice(
          'transport',
          params.get('transport') ?? '',
          usable,
          loaded.transports.filter((entry) => !usable.includes(entry)),
        );
        setAgentId(agent.id);
        setTransportId(transport.id);
        setNotices([agent.notice, transport.notice].filter((notice) => notice !== undefined));
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
    // `auto` is the default: left out of the address, as before there was a switch.
    if (versionChoice.id === 'auto') url.searchParams.delete('version');
    else url.searchParams.set('version', versionChoice.id);
    window.history.replaceState(null, '', url);
  }, [agentId, transportId, versionChoice]);

  const url =
    config && agentId && transportId ? `${config.basePath}/${agentId}/${transportId}` : undefined;
  const agent = config?.agents.find((entry) => entry.id === agentId);

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            A2
          </span>
          <h1 className="brand-name">a2ui-ts demo</h1>
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
                <option key={entry.id} value={entry.id} disabled={!connectable.includes(entry.id)}>
                  {entry.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>A2UI version</span>
            <select
              data-testid="version-picker"
              value={versionChoice.id}
              onChange={(event) => setVersionChoice(versionChoiceOf(event.target.value))}
            >
              {VERSION_CHOICES.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="topbar-end">
          <span className="status-slot" ref={setStatusSlot} />
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
      {notices.map((notice) => (
        <p key={notice} className="notice" role="status" data-testid="selection-notice">
          <span>{notice}</span>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => setNotices((current) => current.filter((entry) => entry !== notice))}
          >
            Dismiss
          </button>
        </p>
      ))}
      {agent && <p className="agent-description">{agent.description}</p>}
      {config && config.unavailableAgents.length > 0 && (
        // Said on the page, not only in a disabled option's tooltip (which keyboard and touch
        // users never see): how to turn each missing agent on.
        <details className="agent-description unavailable-agents" data-testid="unavailable-agents">
          <summary>
            {config.unavailableAgents.length === 1
              ? `${config.unavailableAgents[0]?.label}: how to turn it on`
              : `${config.unavailableAgents.length} agents are off: how to turn them on`}
          </summary>
          <ul>
            {config.unavailableAgents.map((entry) => (
              <li key={entry.id}>
                <strong>{entry.label}</strong> — {entry.description}
              </li>
            ))}
          </ul>
        </details>
      )}
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
      <Suspense
        fallback={
          <main className="layout">
            <p className="empty">Connecting…</p>
          </main>
        }
      >
        <Workspace
          url={url}
          transportId={transportId}
          agentId={agentId}
          theme={theme}
          statusSlot={statusSlot}
          versionChoice={versionChoice}
        />
      </Suspense>
    </div>
  );
}
