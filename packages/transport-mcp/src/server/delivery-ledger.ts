/**
 * When the replay log may drop what a session handed to its MCP client. A client that cannot
 * resume a stream (stdio, or a Streamable HTTP client older than protocol 2025-11-25, which gets
 * no event ids) acknowledges on hand-out. One that holds event ids may come back with
 * `Last-Event-ID` for anything it missed, so its messages stay in the log until it proves it has
 * them (a resume past them) or the event store forgets the events that carried them (its bound);
 * the log's own bounds drop the oldest anyway.
 */

/** What the ledger needs: the host's acknowledgement of the connection. */
export interface DeliveryLedgerOptions {
  /** The client has every message through `seq` (`SessionHost.acknowledge`). */
  readonly acknowledge: (seq: number) => Promise<void>;
  /** Whether hand-out waits for proof (the client can resume). */
  readonly deferred: boolean;
}

/** Ranges of `seq`s handed out and not yet known to have arrived. */
export class DeliveryLedger {
  readonly #options: DeliveryLedgerOptions;
  /** Unconfirmed ranges: first `seq` → last `seq` (disjoint). */
  readonly #pending = new Map<number, number>();
  #handedOut = 0;
  #acknowledged = 0;

  constructor(options: DeliveryLedgerOptions) {
    this.#options = options;
  }

  /** Whether hand-out waits for proof. */
  get deferred(): boolean {
    return this.#options.deferred;
  }

  /** Messages `from`…`through` were handed to the client (in the answer being built). */
  handedOut(from: number, through: number): void {
    if (through < from) return;
    this.#handedOut = Math.max(this.#handedOut, through);
    if (this.#options.deferred) this.#pending.set(from, through);
    this.#flush();
  }

  /** The range starting at `from` arrived (or can no longer be resent): the log may drop it. */
  confirm(from: number): void {
    if (this.#pending.delete(from)) this.#flush();
  }

  /** Acknowledges everything below the oldest unconfirmed range. */
  #flush(): void {
    let safe = this.#handedOut;
    for (const from of this.#pending.keys()) safe = Math.min(safe, from - 1);
    if (safe <= this.#acknowledged) return;
    this.#acknowledged = safe;
    // A connection that ended meanwhile has nothing left to trim.
    void this.#options.acknowledge(safe).catch(() => undefined);
  }
}
