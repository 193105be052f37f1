/**
 * One A2uiClient per (agent, transport) choice: created when the choice changes, closed when it
 * changes again or the page unmounts.
 */
import {
  A2uiClient,
  type ClientEvent,
  type ClientTransport,
  type ConnectionStatus,
  createDefaultCatalogs,
  type TroubleCause,
} from '@a2ui-ts/core';
import type { ComponentRegistry } from '@a2ui-ts/react-renderer';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { CLIENT_TRANSPORTS } from './client-transports.js';
import { loadMcpApps, type McpAppsSupport } from './mcp-apps.js';
import { MessageLog } from './message-log.js';
import { DEMO_RENDERER_FUNCTIONS, watchCityFinder } from './page-functions.js';

/** Link state for the status badge. */
export interface LinkState {
  status: ConnectionStatus;
  /** Times the link came back after dropping. */
  reconnects: number;
  /** Times the server could not resume and the session restarted. */
  resets: number;
  reason: string | undefined;
  /** While `degraded`: what the server said when it refused messages for now. */
  cause?: TroubleCause;
}

/**
 * The link state after `event` (unchanged for events that are not about the link). `dropped`
 * says whether the link went down since it was last open (a reconnect is counted when it opens).
 */
export function nextLinkState(
  previous: LinkState,
  event: ClientEvent,
  dropped: boolean,
): { state: LinkState; dropped: boolean } {
  if (event.type === 'reset')
    return { state: { ...previous, resets: previous.resets + 1 }, dropped };
  if (event.type !== 'status') return { state: previous, dropped };
  const down = dropped || event.status === 'reconnecting';
  const reconnected = event.status === 'open' && down;
  const state: LinkState = {
    status: event.status,
    reconnects: previous.reconnects + (reconnected ? 1 : 0),
    resets: previous.resets,
    reason: event.reason,
  };
  if (event.status === 'degraded' && event.cause) state.cause = event.cause;
  return { state, dropped: down && !reconnected };
}

/** What the page renders from. */
export interface DemoConnection {
  client: A2uiClient;
  log: MessageLog;
  /** The link (for what it negotiated). */
  transport: ClientTransport;
  /** The renderer registry, when the connection offers an opt-in catalog (MCP Apps). */
  registry?: ComponentRegistry;
}

/** Options of {@link useDemoConnection}. */
export interface DemoConnectionOptions {
  /** Offer the MCP Apps catalog (the `mcp-app` agent's connections only). @default false */
  mcpApps?: boolean;
  /** The A2UI versions to offer (the version switch). @default the transport's: every one */
  offeredVersions?: readonly string[];
}

/** The connection once its transport loaded, or why it could not load. */
export type DemoConnectionState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly connection: DemoConnection }
  | { readonly status: 'failed'; readonly reason: string };

const LOADING: DemoConnectionState = { status: 'loading' };

/**
 * Connects to `url` over the transport `transportId`, whose code is loaded first: `loading` until
 * it is, `failed` when it cannot be (offline, or a deploy replaced the chunk). `offeredVersions`
 * are the A2UI versions offered (the version switch; @default the transport's, every one). The
 * client exposes the page's functions to agents and runs the city finder's suggestions.
 */
export function useDemoConnection(
  url: string | undefined,
  transportId: string | undefined,
  options: DemoConnectionOptions = {},
): DemoConnectionState {
  const mcpApps = options.mcpApps ?? false;
  const [state, setState] = useState<DemoConnectionState>(LOADING);
  // The offer is a list: the effect depends on its value (the switch makes a new array per render).
  const offer = options.offeredVersions?.join(',');
  useEffect(() => {
    const factory = CLIENT_TRANSPORTS.find((entry) => entry.id === transportId);
    if (!url || !factory) return;
    let ended = false;
    let opened: DemoConnection | undefined;
    let stopPageFunctions: (() => void) | undefined;
    const offered = offer === undefined ? undefined : offer.split(',');
    const support: Promise<McpAppsSupport | undefined> = mcpApps
      ? loadMcpApps()
      : Promise.resolve(undefined);
    Promise.all([factory.connect(url, { offeredVersions: offered }), support]).then(
      ([transport, apps]) => {
        // The choice changed while the transport's code loaded: this one never starts.
        if (ended) {
          void transport.close();
          return;
        }
        const client = new A2uiClient({
          transport,
          rendererFunctions: [...DEMO_RENDERER_FUNCTIONS],
          ...(apps ? { catalogs: [...createDefaultCatalogs().values(), apps.catalog] } : {}),
        });
        opened = {
          client,
          log: new MessageLog(client),
          transport,
          ...(apps ? { registry: apps.registry } : {}),
        };
        stopPageFunctions = watchCityFinder(client);
        setState({ status: 'ready', connection: opened });
        // Link failures are shown by the status badge; the promise only settles when the link ends.
        client.connect().catch(() => {});
      },
      (error: unknown) => {
        if (ended) return;
        const detail = error instanceof Error ? error.message : String(error);
        setState({
          status: 'failed',
          reason: `Could not load the ${factory.id} transport (${detail}). Reload the page to try again.`,
        });
      },
    );
    return () => {
      ended = true;
      stopPageFunctions?.();
      if (opened) {
        opened.log.dispose();
        void opened.client.close();
      }
      setState(LOADING);
    };
  }, [url, transportId, mcpApps, offer]);
  return state;
}

const linkStates = new WeakMap<A2uiClient, { state: LinkState; listeners: Set<() => void> }>();

function linkStore(client: A2uiClient) {
  let store = linkStates.get(client);
  if (!store) {
    const created = {
      state: { status: client.status, reconnects: 0, resets: 0, reason: undefined } as LinkState,
      listeners: new Set<() => void>(),
    };
    let dropped = false;
    client.subscribe((event) => {
      const next = nextLinkState(created.state, event, dropped);
      dropped = next.dropped;
      if (next.state === created.state) return;
      created.state = next.state;
      for (const listener of [...created.listeners]) listener();
    });
    linkStates.set(client, created);
    store = created;
  }
  return store;
}

/** The link state of `client`, live. */
export function useLinkState(client: A2uiClient): LinkState {
  const store = linkStore(client);
  return useSyncExternalStore(
    (listener) => {
      store.listeners.add(listener);
      return () => {
        store.listeners.delete(listener);
      };
    },
    () => store.state,
  );
}

/** The surfaces of `client`, in creation order, live. */
export function useSurfaceList(client: A2uiClient) {
  return useSyncExternalStore(
    (listener) => client.processor.subscribe(listener),
    () => client.processor.getSurfaces(),
  );
}
