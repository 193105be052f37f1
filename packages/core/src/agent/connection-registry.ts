/**
 * Where live sessions are found by id (ARCHITECTURE §3 item 7: the scale-out seam). In memory by
 * default; a shared store can implement the same interface.
 */
import type { ConnectionSession } from './connection-session.js';

/** Sessions by connection id. */
export interface ConnectionRegistry {
  get(id: string): ConnectionSession | undefined;
  set(session: ConnectionSession): void;
  delete(id: string): void;
  /** Live sessions. */
  readonly size: number;
  values(): IterableIterator<ConnectionSession>;
}

/** A `Map`-backed {@link ConnectionRegistry}. */
export function createMemoryConnectionRegistry(): ConnectionRegistry {
  const sessions = new Map<string, ConnectionSession>();
  return {
    get: (id) => sessions.get(id),
    set: (session) => {
      sessions.set(session.id, session);
    },
    delete: (id) => {
      sessions.delete(id);
    },
    get size() {
      return sessions.size;
    },
    values: () => sessions.values(),
  };
}
