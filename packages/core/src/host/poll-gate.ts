/**
 * One poll per connection at a time, on this node: a newer poll of a connection supersedes the
 * one still in progress, which stops waiting and answers empty. Polls read at a cursor (`after`),
 * so the superseded one takes nothing away from the newer one — and a client that retried a poll
 * its network lost does not leave the old one holding a waiting reader on the server.
 */

/** One poll's place in the gate. */
export interface PollTicket {
  /** Aborts when a newer poll of the same connection arrives. */
  readonly signal: AbortSignal;
  readonly superseded: boolean;
  /** The poll has answered. */
  leave(): void;
}

/** The polls in progress on this node, by connection. */
export class PollGate {
  readonly #current = new Map<string, AbortController>();

  /** Polls in progress. */
  get size(): number {
    return this.#current.size;
  }

  /** A poll of `connectionId` starts: the one before it (if still in progress) is superseded. */
  enter(connectionId: string): PollTicket {
    this.#current.get(connectionId)?.abort();
    const controller = new AbortController();
    this.#current.set(connectionId, controller);
    return {
      signal: controller.signal,
      get superseded() {
        return controller.signal.aborted;
      },
      leave: () => {
        if (this.#current.get(connectionId) === controller) this.#current.delete(connectionId);
      },
    };
  }
}
