/**
 * The status a client transport reports (ARCHITECTURE §2 "Link kit"): the link's own state, and
 * `degraded` while the link is open but client messages cannot be delivered (the server refuses
 * or fails them) — so a status badge never says "connected" while actions go nowhere.
 */
import type {
  ConnectionStatus,
  TransportEvent,
  TroubleCause,
} from '../transport/client-transport.js';
import type { OutboxTrouble } from './outbox.js';

/** Combines the link state and the outbox's trouble into status events. */
export class LinkStatus {
  readonly #push: (event: TransportEvent) => void;
  #link: ConnectionStatus = 'closed';
  #trouble: OutboxTrouble | undefined;
  #reported: ConnectionStatus = 'closed';

  /** @param push - where status events go (the transport's event queue) */
  constructor(push: (event: TransportEvent) => void) {
    this.#push = push;
  }

  /** What was last reported. */
  get status(): ConnectionStatus {
    return this.#reported;
  }

  /** The link changed state. */
  link(status: ConnectionStatus, reason?: string, attempt?: number): void {
    this.#link = status;
    if (status === 'open' && this.#trouble) {
      this.#emit('degraded', describeTrouble(this.#trouble), undefined, this.#trouble.cause);
      return;
    }
    this.#emit(status, reason, attempt);
  }

  /** The outbox started failing (or failed again), or recovered (`undefined`). */
  trouble(trouble: OutboxTrouble | undefined): void {
    const was = this.#trouble;
    this.#trouble = trouble;
    if (this.#link !== 'open') return;
    if (trouble) this.#emit('degraded', describeTrouble(trouble), trouble.attempt, trouble.cause);
    else if (was) this.#emit('open', 'Client messages are delivered again.');
  }

  #emit(status: ConnectionStatus, reason?: string, attempt?: number, cause?: TroubleCause): void {
    this.#reported = status;
    const event: TransportEvent = { type: 'status', status };
    if (reason !== undefined) event.reason = reason;
    if (attempt !== undefined) event.attempt = attempt;
    if (cause !== undefined) event.cause = cause;
    this.#push(event);
  }
}

function describeTrouble(trouble: OutboxTrouble): string {
  const waiting = trouble.pending === 1 ? '1 client message' : `${trouble.pending} client messages`;
  return `${waiting} not delivered: ${trouble.reason.replace(/\.$/, '')}; retrying in ${trouble.retryInMs} ms.`;
}
