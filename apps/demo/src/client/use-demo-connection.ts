/**
 * One A2uiClient per (agent, transport) choice: created when the choice changes, closed when it
 * changes again or the page unmounts.
 */
import { A2uiClient, type ConnectionStatus } from '@a2ui-ts/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { CLIENT_TRANSPORTS } from './client-transports.js';
import { MessageLog } from './message-log.js';

/** Link state for the status badge. */
export interface LinkState {
  status: ConnectionStatus;
  /** Times the link came back after dropping. */
  reconnects: number;
  /** Times the server could not resume and the session restarted. */
  resets: number;
  reason: string | undefined;
}

/** What the page renders from. */
export interface DemoConnection {
  client: A2uiClient;
  log: MessageLog;
}

/**
 * Connects to `url` over the transport `transportId`; `undefined` until the first effect ran.
 */
export function useDemoConnection(
  url: string | undefined,
  transportId: string | undefined,
): DemoConnection | undefined {
  const [connection, setConnection] = useState<DemoConnection>();
  useEffect(() => {
    const factory = CLIENT_TRANSPORTS.find((entry) => entry.id === transportId);
    if (!url || !factory) return;
    const client = new A2uiClient({ transport: factory.connect(url) });
    const log = new MessageLog(client);
    setConnection({ client, log });
    // Link failures are shown by the status badge; the promise only settles when the link ends.
    client.connect().catch(() => {});
    return () => {
      log.dispose();
      void client.close();
      setConnection(undefined);
    };
  }, [url, transportId]);
  return connection;
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
      const previous = created.state;
      if (event.type === 'status') {
        if (event.status === 'reconnecting') dropped = true;
        const reconnected = event.status === 'open' && dropped;
        if (reconnected) dropped = false;
        created.state = {
          ...previous,
          status: event.status,
          reason: event.reason,
          reconnects: previous.reconnects + (reconnected ? 1 : 0),
        };
      } else if (event.type === 'reset') {
        created.state = { ...previous, resets: previous.resets + 1 };
      } else {
        return;
      }
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
