/**
 * How a session host hands a request for a connection it does not run to the node that runs it
 * (ARCHITECTURE §3 item 7). One node needs none of it: the default router knows only itself. A
 * shared implementation (Redis streams or pub/sub) lets any node take any request.
 */
import type { AgentInput, DisconnectReason, HostToolResult } from '../agent/agent.js';
import { createConnectionId } from '../agent/connection-id.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import type { MaybePromise } from './replay-log.js';
import type { TurnResult } from './turn.js';

/** What a client asked for, on its way to the owner of its connection. Already validated. */
export type RoutedRequest =
  | {
      readonly type: 'receive';
      readonly connectionId: string;
      readonly message: ClientMessage;
      readonly metadata: ClientMessageMetadata | undefined;
      readonly requestId: string | undefined;
      /** Fingerprint of the request's body (see `HostReceiveOptions.fingerprint`). */
      readonly fingerprint?: string;
      /** Size of the message and its metadata as received, in bytes. */
      readonly bytes: number;
      /** Answer only once the agent's turn is over (and include it). */
      readonly awaitTurn: boolean;
    }
  | {
      readonly type: 'input';
      readonly connectionId: string;
      readonly input: AgentInput;
      readonly metadata: ClientMessageMetadata | undefined;
      readonly requestId: string | undefined;
      readonly bytes: number;
      readonly awaitTurn: boolean;
    }
  | {
      readonly type: 'tool-result';
      readonly connectionId: string;
      readonly result: HostToolResult;
      readonly awaitTurn: boolean;
    }
  /** A link of another node follows this connection from the shared log (or stopped doing so). */
  | {
      readonly type: 'link';
      readonly connectionId: string;
      readonly linkId: string;
      readonly node: string;
      readonly attached: boolean;
    }
  | { readonly type: 'touch'; readonly connectionId: string }
  /** The session's surfaces as one snapshot entry, for a reader the shared log no longer covers. */
  | { readonly type: 'snapshot'; readonly connectionId: string }
  | {
      readonly type: 'disconnect';
      readonly connectionId: string;
      /** What the agent is told. @default 'client-closed' */
      readonly reason?: DisconnectReason;
    };

/** The owner's answer. Errors travel as codes, so the asking node raises the same `A2uiError`. */
export type RoutedResponse =
  | {
      readonly ok: true;
      readonly duplicate?: boolean;
      readonly turn?: TurnResult;
      /** Answer to `snapshot`: the entry (`seq`, `data`), absent when the surfaces are not kept. */
      readonly snapshot?: { readonly seq: number; readonly data: string };
    }
  | {
      readonly ok: false;
      readonly error: {
        readonly code: A2uiError['code'];
        readonly message: string;
        readonly data?: Record<string, unknown>;
      };
    };

/**
 * Handles requests forwarded to this node. `signal` fires when the asking node stops waiting for
 * the turn of an `awaitTurn` request: the handler then answers at once without the turn (the
 * request stays delivered), as a local request whose wait ended.
 */
export type RoutedRequestHandler = (
  request: RoutedRequest,
  options?: { signal?: AbortSignal },
) => Promise<RoutedResponse>;

/** The cluster as one session host sees it. */
export interface SessionRouter {
  /** This node's id (the `owner` of the connections it creates). */
  readonly nodeId: string;
  /**
   * Sends `request` to node `owner` and resolves with its answer. `signal` stops waiting for the
   * turn, not for the answer: the owner's handler gets a signal that fires too, and answers at
   * once (without the turn). Whether the owner accepted the request is only known from its
   * answer, so the asking node never gives up on it early (a client would otherwise be told of a
   * failure for a message that was delivered). `timeoutMs` does give up (`TIMEOUT`).
   * @throws A2uiError `CONNECTION_CLOSED` when the owner is gone, `TIMEOUT`
   */
  forward(
    owner: string,
    request: RoutedRequest,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<RoutedResponse>;
  /** Starts answering requests forwarded to this node; returns how to stop. */
  listen(handler: RoutedRequestHandler): MaybePromise<() => MaybePromise<void>>;
  /** Whether node `id` is alive (its lease is current). */
  isAlive(id: string): MaybePromise<boolean>;
  /**
   * Resolves once this node is sure it still holds its lease. When it is not (its process stalled
   * past the lease — a long pause, `SIGSTOP` — and no renewal has confirmed it since), it renews
   * first; a lease that had lapsed is refused with `LIMIT_EXCEEDED` and `data.retryAfterMs`, and
   * the node ends the sessions another node took over meanwhile. The host awaits it before every
   * agent turn, so a node that another may have replaced never acts. Optional: a router of one
   * node always holds its lease.
   */
  confirmLease?(): MaybePromise<void>;
  /** Calls `listener` with the id of each node whose lease expired. Returns the unsubscribe function. */
  onNodeDown?(listener: (id: string) => void): () => void;
}

/**
 * The router of a host that runs alone: every connection is its own, nothing is forwarded.
 *
 * @param nodeId - @default a random id
 */
export function createLocalSessionRouter(nodeId: string = createConnectionId()): SessionRouter {
  return {
    nodeId,
    forward: async (owner) => {
      throw new A2uiError(
        'CONNECTION_CLOSED',
        `Node ${owner} is not reachable: this host runs alone (no shared router).`,
      );
    },
    listen: () => () => {},
    isAlive: (id) => id === nodeId,
  };
}
