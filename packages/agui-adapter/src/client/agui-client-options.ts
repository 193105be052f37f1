/**
 * The options of `connectAgUi` and the transport it returns, with their defaults in one place.
 */
import type { ClientTransport, ConnectionStatus, HostContextEntry } from '@a2ui-ts/core';
import { LINK_DEFAULTS, type LinkOptions, type ReconnectOptions } from '@a2ui-ts/core/link';
import type { AbstractAgent } from '@ag-ui/client';

/** A tool the page offers the agent (AG-UI's frontend tool), with the code that runs it. */
export interface AgUiFrontendTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. @default `{type: 'object'}` */
  readonly parameters?: Record<string, unknown>;
  /**
   * Runs the tool. Its result (a string, or JSON) is the `tool` message's content; a throw sends
   * `Error: <message>` with `error` set.
   */
  handler(args: unknown, context: { readonly signal: AbortSignal }): unknown;
}

/**
 * Options of {@link connectAgUi}. Durations in milliseconds. `signal`, `random` and
 * `maxQueuedMessages` are core's {@link LinkOptions}; each client message is one run, whose
 * `runId` is its idempotency key.
 */
export interface ConnectAgUiOptions
  extends Omit<LinkOptions, 'maxBatchLength' | 'createRequestId'> {
  /** The AG-UI endpoint (an `HttpAgent`'s `url`). Ignored with {@link agent}. */
  url?: string | URL;
  /**
   * An agent to run instead of a new `HttpAgent` (e.g. one with middleware such as
   * `A2UIMiddleware`). Its `threadId`, `messages` and `state` are used and updated.
   */
  agent?: AbstractAgent;
  /** The thread to continue. @default a fresh random id */
  threadId?: string;
  /**
   * Headers of every request (e.g. `Authorization`). A function is called before each run.
   * @default none
   */
  headers?:
    | Record<string, string>
    | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * A run whose response sends no byte for this long (no event, no keep-alive comment) counts as
   * stalled: it is aborted and caught up by a new run. Keep it above the server's keep-alive
   * interval (this adapter's server: `keepAliveIntervalMs`, 15 s). Applies to runs over {@link url}
   * (not to an {@link agent} given whole). 0 never aborts.
   * @default 45000
   */
  idleTimeoutMs?: number;
  /** Frontend tools offered with every run. @default none */
  tools?: readonly AgUiFrontendTool[];
  /** Context entries sent with every run (`RunAgentInput.context`). @default none */
  context?: readonly HostContextEntry[];
  /**
   * AG-UI has no server push: what an agent sends between runs arrives with the next run. With
   * this set, a run without input is started whenever the thread was idle this long, so such
   * updates show up anyway. 0 never polls.
   * @default 0
   */
  pollIntervalMs?: number;
  /**
   * Long polling: whenever the thread is idle, one waiting run (`forwardedProps.a2uiWait`) is
   * open, and what the agent sends streams in as it is sent (this adapter's server holds such a
   * run up to its `maxRunWaitMs`). Before any other run the client asks the server to end it
   * (`a2uiRelease`, answered `204`), so actions never wait behind it. A server that answers a
   * waiting run at once is polled every `pollIntervalMs` (at least 1 s). Needs {@link url}.
   * @default false
   */
  longPoll?: boolean;
  /** Most runs started in a row by frontend tool results, before waiting for the user. @default 10 */
  maxToolRounds?: number;
  /**
   * The A2UI versions this client reads, offered with every run as `forwardedProps.a2uiVersions`;
   * the server answers with the one it speaks in state (`state.a2uiVersion`,
   * {@link AgUiTransport.protocolVersion}; this adapter's server carries v1.0 and v0.9), or refuses the run
   * with 406 (`NOT_SUPPORTED`) when it speaks none of them.
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[];
  /** Backoff of the first run and of redeliveries. */
  reconnect?: ReconnectOptions;
  /** Subscribes to "retry now" signals. @default the browser's `online` and `visibilitychange` */
  wake?: (listener: () => void) => () => void;
}

/** The transport returned by {@link connectAgUi}. */
export interface AgUiTransport extends ClientTransport {
  /** The AG-UI agent the runs go through. */
  readonly agent: AbstractAgent;
  readonly threadId: string;
  readonly status: ConnectionStatus;
  /** Client messages not yet answered. */
  readonly pendingMessages: number;
  /** Runs started so far. */
  readonly runs: number;
  /**
   * The A2UI version the server answered in state (`state.a2uiVersion`); `undefined` before a
   * run, or from a server older than negotiation.
   */
  readonly protocolVersion: string | undefined;
  /**
   * Starts a run without a client message: with user `text` (a `user` message), or nothing (to
   * collect what the agent sent since the last run). Resolves when the run ended.
   */
  run(options?: { text?: string; signal?: AbortSignal }): Promise<void>;
}

/** Defaults of {@link ConnectAgUiOptions}, in one place. */
export const AGUI_CLIENT_DEFAULTS = {
  maxToolRounds: 10,
  pollIntervalMs: 0,
  idleTimeoutMs: 45_000,
  longPoll: false,
  maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
  /** How long `close()` waits for the run that ends the thread. */
  closeTimeoutMs: LINK_DEFAULTS.closeTimeoutMs,
} as const;
