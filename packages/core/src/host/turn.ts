/**
 * Turns: the agent's handling of one input (`onConnect`, `onAction`, `onError`, `onInput`, or a
 * host tool result), from the moment its hook starts until it settles or the agent calls
 * `connection.endTurn()`. Turn-based bindings (REST, A2A, AG-UI) answer a request with its turn:
 * the agent's own end-of-turn signal, never a timing window.
 */

/** How a turn ended. */
export type TurnOutcome =
  /** The hook returned, or the agent called `endTurn()` / `callHostTool()`. */
  | 'completed'
  /** The hook threw (the error went to `onAgentError`); what it sent before is still the turn's. */
  | 'failed'
  /** The connection closed before the turn could start or finish. */
  | 'closed';

/** One finished turn. Its messages are the connection's entries with `startSeq < seq ≤ endSeq`. */
export interface TurnResult {
  /** `seq` of the last message sent before the turn started. */
  readonly startSeq: number;
  /** `seq` of the last message sent when the turn ended (`= startSeq` when it sent nothing). */
  readonly endSeq: number;
  readonly outcome: TurnOutcome;
}

/** A turn in progress, as the session tracks it. */
export class TurnTracker {
  readonly done: Promise<TurnResult>;
  #resolve!: (result: TurnResult) => void;
  #startSeq: number | undefined;
  #ended = false;

  constructor() {
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  get started(): boolean {
    return this.#startSeq !== undefined;
  }

  get ended(): boolean {
    return this.#ended;
  }

  start(seq: number): void {
    this.#startSeq ??= seq;
  }

  end(seq: number, outcome: TurnOutcome): void {
    if (this.#ended) return;
    this.#ended = true;
    const startSeq = this.#startSeq ?? seq;
    this.#resolve({ startSeq, endSeq: Math.max(seq, startSeq), outcome });
  }
}
