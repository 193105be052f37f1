/**
 * The connections one node runs, oldest first, with the caps on them: `maxSessions` in total and
 * `maxSessionsPerPrincipal` per principal key. A new connection beyond a cap evicts the oldest
 * connection without a link; when every one has a link, it is refused — before anything is created.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import type { ConnectionSession } from './connection-session.js';

/** Limits of {@link SessionTable}. */
export interface SessionTableLimits {
  readonly maxSessions: number;
  /** Applies only when `perPrincipal`. */
  readonly maxSessionsPerPrincipal: number;
  readonly perPrincipal: boolean;
  readonly principalKey: (principal: unknown) => unknown;
  /** The retry hint of a refusal. */
  readonly retryAfterMs: number;
}

/** Live sessions by id (Maps keep insertion order: oldest first) and by principal key. */
export class SessionTable {
  readonly #limits: SessionTableLimits;
  readonly #sessions = new Map<string, ConnectionSession>();
  readonly #byPrincipal = new Map<unknown, Set<ConnectionSession>>();
  readonly #createdAt = new WeakMap<ConnectionSession, number>();
  #evicted = 0;
  #refused = 0;

  constructor(limits: SessionTableLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Connections evicted to make room, and new ones refused. */
  get counters(): { evicted: number; refused: number } {
    return { evicted: this.#evicted, refused: this.#refused };
  }

  /** The live session of `id`, if this node runs it. */
  get(id: string): ConnectionSession | undefined {
    const session = this.#sessions.get(id);
    return session && !session.closed ? session : undefined;
  }

  values(): IterableIterator<ConnectionSession> {
    return this.#sessions.values();
  }

  /** When `session` was created (ms since the epoch). */
  createdAt(session: ConnectionSession): number {
    return this.#createdAt.get(session) ?? Date.now();
  }

  /**
   * Makes room for one more connection of `principal` under both caps, evicting the oldest
   * connections without a link if needed (their agents see `onDisconnect('grace-expired')`).
   * `replacing` admits without a check: the new connection takes the place of one being closed.
   * @returns the principal key to {@link track} the new session under
   * @throws A2uiError `LIMIT_EXCEEDED` (`data.retryAfterMs`), having evicted nothing
   */
  admit(principal: unknown, replacing = false): unknown {
    const limits = this.#limits;
    const key = limits.perPrincipal ? limits.principalKey(principal) : undefined;
    if (replacing) return key;
    const victims: ConnectionSession[] = [];
    const group = this.#byPrincipal.get(key);
    if (limits.perPrincipal && (group?.size ?? 0) >= limits.maxSessionsPerPrincipal) {
      const victim = oldestDetached(group!);
      if (!victim) this.#refuse();
      victims.push(victim);
    }
    if (this.#sessions.size - victims.length >= limits.maxSessions) {
      const victim = oldestDetached(this.#sessions.values(), victims[0]);
      if (!victim) this.#refuse();
      victims.push(victim);
    }
    for (const victim of victims) {
      this.#evicted++;
      victim.close('grace-expired');
    }
    return key;
  }

  /** Adds `session`; it leaves the table (and the caps) the moment it closes. */
  track(session: ConnectionSession, key: unknown): void {
    this.#sessions.set(session.id, session);
    this.#createdAt.set(session, Date.now());
    const group = this.#byPrincipal.get(key) ?? new Set<ConnectionSession>();
    this.#byPrincipal.set(key, group);
    group.add(session);
    session.signal.addEventListener(
      'abort',
      () => {
        if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
        group.delete(session);
        if (group.size === 0 && this.#byPrincipal.get(key) === group) this.#byPrincipal.delete(key);
      },
      { once: true },
    );
  }

  #refuse(): never {
    this.#refused++;
    throw new A2uiError('LIMIT_EXCEEDED', 'Too many open connections; retry later.', {
      data: { retryAfterMs: this.#limits.retryAfterMs },
    });
  }
}

function oldestDetached(
  sessions: Iterable<ConnectionSession>,
  except?: ConnectionSession,
): ConnectionSession | undefined {
  for (const session of sessions)
    if (
      session !== except &&
      !session.attached &&
      session.remoteLinks === 0 &&
      // A long poll waiting on a linkless connection (REST) is its client's link.
      session.waitingReaders === 0 &&
      // So is a follow (`SessionHost.follow`): an A2A stream, say.
      session.followers === 0 &&
      !session.closed
    )
      return session;
  return undefined;
}
