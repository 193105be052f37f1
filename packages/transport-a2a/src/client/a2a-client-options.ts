/**
 * The options of `connectA2a` and the transport it returns, with their defaults in one place.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type {
  ClientMessage,
  ClientMessageMetadata,
  ClientTransport,
  ConnectionStatus,
  SendOptions,
} from '@a2ui-ts/core';
import { type HttpLinkOptions, LINK_DEFAULTS } from '@a2ui-ts/core/link';

/**
 * Options of {@link connectA2a}. Durations in milliseconds. `headers`, `fetch`, `credentials`,
 * `signal`, `reconnect`, `random`, `maxQueuedMessages` and `wake` are core's
 * {@link HttpLinkOptions}; each client message is one A2A message, whose id is its idempotency key.
 */
export interface A2aClientOptions
  extends Omit<HttpLinkOptions, 'maxBatchLength' | 'createRequestId'> {
  /**
   * The agent's base URL (its card is `{url}/.well-known/agent-card.json`), or the URL of its card
   * (ending in `.json`). A relative URL is resolved against the page's location.
   */
  url: string | URL;
  /** The card, when the application already has it (no card request is made). */
  card?: AgentCard;
  /**
   * The context to continue (an A2UI session of this client, e.g. after a page reload).
   * @default a new one (minted by the client, so a retried opening reaches the same context)
   */
  contextId?: string;
  /**
   * The first message, which opens the conversation: the user's request to agents that need one
   * (the official restaurant finder), or nothing (this package's server runs `onConnect`).
   * @default no parts
   */
  open?: { text?: string };
  /**
   * Capabilities sent with the opening message, before `A2uiClient` sent any.
   * @default the basic catalog
   */
  clientCapabilities?: ClientMessageMetadata['a2uiClientCapabilities'];
  /**
   * Refuse agents whose card declares the A2UI extension of none of {@link offeredVersions}
   * (`NOT_SUPPORTED`). @default true
   */
  requireExtension?: boolean;
  /**
   * The A2UI versions this client reads, offered as their A2A extension URIs
   * (`https://a2ui.org/a2a-extension/a2ui/v1.0`, …) in the `A2A-Extensions` header and
   * `message.extensions`; the server activates the one it speaks, or refuses a request that
   * shares none with `NOT_SUPPORTED` (HTTP 406).
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[];
  /**
   * Hold a `SubscribeToTask` stream while the task waits for input, so the agent's pushes arrive
   * without a request. `'auto'`: against an agent whose parts carry `a2uiSeq` (this package's
   * server). @default 'auto'
   */
  serverPush?: boolean | 'auto';
  /**
   * Deadline of the agent card request, and of the answer to every message and subscription to
   * begin (its HTTP response headers), when the card says the agent streams (a streaming answer
   * begins at once; a blocking one only when the turn is over). A call past it is retried like a
   * dropped link, so no call waits forever on a server that accepted it and never answered.
   * @default 30000
   */
  requestTimeoutMs?: number;
  /** Receives the text parts the agent sends beside its A2UI messages. */
  onText?: (text: string) => void;
  /**
   * A stream of this package's server (which pings idle streams every `keepAliveIntervalMs`)
   * that delivers no byte for this long is a dead link: it is reconnected. Streams of other
   * agents are not watched. Keep it above twice the server's interval; 0 disables it.
   * @default 45000
   */
  heartbeatTimeoutMs?: number;
}

/** The transport returned by {@link connectA2a}. */
export interface A2aTransport extends ClientTransport {
  /** The A2A context of the session. */
  readonly contextId: string;
  /** The task the next message continues (while it waits for input), if any. */
  readonly taskId: string | undefined;
  /** The protocol version spoken (`'1.0'` or `'0.3'`), once the card was read. */
  readonly protocolVersion: string | undefined;
  /** `a2uiSeq` of the last message applied (sent as `Last-Event-ID`). */
  readonly lastEventId: number;
  readonly status: ConnectionStatus;
  /** Client messages not yet answered. */
  readonly pendingMessages: number;
  /**
   * Sends what the user typed as a text part (the agent's `onInput`), after earlier messages.
   * @throws as `send`
   */
  sendText(text: string, options?: SendOptions): Promise<void>;
}

/** Defaults of {@link A2aClientOptions}, in one place. */
export const A2A_CLIENT_DEFAULTS = {
  requireExtension: true,
  serverPush: 'auto',
  requestTimeoutMs: 30_000,
  heartbeatTimeoutMs: 45_000,
  maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
  /** How long `close()` waits for the server to cancel the task. */
  closeTimeoutMs: LINK_DEFAULTS.closeTimeoutMs,
} as const;

/** A client message waiting in the outbox: an A2UI message, or text the user typed. */
export type Outgoing =
  | { kind: 'a2ui'; message: ClientMessage; metadata: ClientMessageMetadata | undefined }
  | { kind: 'text'; text: string; metadata: ClientMessageMetadata | undefined };
