/**
 * Where a client transport keeps what it needs to resume its session after the page reloads
 * (docs/session-host.md "Reload keeps the screen"): one small interface for every transport,
 * `sessionStorage` by default in a browser, nothing by default elsewhere.
 */

/** What a transport saves to resume its session: its connection, as the server named it. */
export interface ResumeToken {
  /** The connection id (SSE, WebSocket, REST), A2A context id or AG-UI thread id. */
  readonly connectionId: string;
  /** The A2UI version the server chose for it, when the binding reports one. */
  readonly protocolVersion?: string;
}

/**
 * Storage of one transport's {@link ResumeToken}. Methods must not throw (a full or disabled
 * storage is no reason to fail a link); `load` may answer with a promise.
 */
export interface ResumeStore {
  load(): ResumeToken | undefined | Promise<ResumeToken | undefined>;
  save(token: ResumeToken): void;
  /** The session ended for good (closed by either side, or reset away): forget it. */
  clear(): void;
}

/** The part of the Web Storage API a {@link createWebStorageResumeStore} uses. */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * A {@link ResumeStore} in Web Storage under one key: `sessionStorage` resumes a reloaded page
 * (each tab its own session); `localStorage` also lets a second tab of the same browser take the
 * session over, where the app allows it.
 *
 * @param options - `storage` (e.g. `window.sessionStorage`), `key` (one per server and app)
 *
 * @example
 * ```ts
 * const resume = createWebStorageResumeStore({ storage: sessionStorage, key: 'a2ui:https://example.com/a2ui' });
 * ```
 */
export function createWebStorageResumeStore(options: {
  storage: WebStorageLike;
  key: string;
}): ResumeStore {
  const { storage, key } = options;
  return {
    load() {
      try {
        const value = JSON.parse(storage.getItem(key) ?? 'null') as unknown;
        if (
          typeof value === 'object' &&
          value !== null &&
          typeof (value as ResumeToken).connectionId === 'string'
        ) {
          const { connectionId, protocolVersion } = value as ResumeToken;
          return typeof protocolVersion === 'string'
            ? { connectionId, protocolVersion }
            : { connectionId };
        }
      } catch {
        // A disabled storage or a value another script wrote: nothing to resume.
      }
      return undefined;
    },
    save(token) {
      try {
        storage.setItem(key, JSON.stringify(token));
      } catch {
        // Full or disabled: the page starts a new session after a reload, as without a store.
      }
    },
    clear() {
      try {
        storage.removeItem(key);
      } catch {
        // As above.
      }
    },
  };
}

/**
 * The resume store of a transport: `store` when given, none with `false`, else `sessionStorage`
 * under `a2ui-resume:<name>:<url>` where the runtime has it (a browser), else none (Node).
 *
 * The store answers for one client, which clears only a token it took part in: `clear()` does
 * nothing until this client loaded or saved one. A client closed before it ever linked — React
 * StrictMode mounts every effect twice in development, so a page creates a transport, closes it
 * unused and creates another at once — must not wipe the token its successor is about to resume
 * with; it never had a session to end.
 */
export function resolveResumeStore(
  store: ResumeStore | false | undefined,
  options: { name: string; url: string },
): ResumeStore | undefined {
  if (store === false) return undefined;
  const resolved = store ?? defaultResumeStore(options);
  return resolved ? ownTokenOnly(resolved) : undefined;
}

/** `sessionStorage` under `a2ui-resume:<name>:<url>`, where the runtime has it. */
function defaultResumeStore(options: { name: string; url: string }): ResumeStore | undefined {
  let storage: WebStorageLike | undefined;
  try {
    storage = (globalThis as { sessionStorage?: WebStorageLike }).sessionStorage;
  } catch {
    // Access denied (an opaque origin, storage blocked): no default persistence.
  }
  if (!storage) return undefined;
  return createWebStorageResumeStore({
    storage,
    key: `a2ui-resume:${options.name}:${options.url}`,
  });
}

/** `store`, whose `clear()` acts only once this client has loaded or saved a token. */
function ownTokenOnly(store: ResumeStore): ResumeStore {
  let used = false;
  return {
    load() {
      used = true;
      return store.load();
    },
    save(token) {
      used = true;
      store.save(token);
    },
    clear() {
      if (used) store.clear();
    },
  };
}
