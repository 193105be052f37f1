/**
 * The reconnect loop of a client transport: open a link, run it until it drops, back off with
 * jitter (honouring the server's retry hint and `Retry-After`, and starting over only after a link
 * proved healthy), and try again — until the link is closed for good, a fatal answer arrives, or
 * `maxAttempts` failures in a row. A browser coming back online or to the foreground cuts the
 * wait short.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import type { ConnectionStatus } from '../transport/client-transport.js';
import { type Backoff, RECONNECT_DEFAULTS } from './backoff.js';

/** How one link ended. */
export type LinkOutcome =
  /** The link dropped or could not be opened: reconnect (not before `retryAfterMs`). */
  | { readonly kind: 'dropped'; readonly reason: string; readonly retryAfterMs?: number }
  /** Closed for good (by the client, or the server said so): do not reconnect. */
  | { readonly kind: 'closed'; readonly reason: string }
  /** The server refused in a way a retry cannot fix (401, 403, a protocol error). */
  | { readonly kind: 'fatal'; readonly error: A2uiError };

/** What one attempt gets from the loop. */
export interface LinkAttempt {
  /** Aborts when the transport closes. */
  readonly signal: AbortSignal;
  /** Failed attempts in a row before this one (0 on a first or healthy connect). */
  readonly attempt: number;
  /** The link is open: status `open` (with `reason`, e.g. how many messages were replayed). */
  opened(reason?: string): void;
  /** The link delivered a new server message: it is healthy, the backoff starts over. */
  delivered(): void;
}

/** Options of {@link runReconnectLoop}. */
export interface ReconnectLoopOptions {
  /** Runs one link until it ends. */
  connect(attempt: LinkAttempt): Promise<LinkOutcome>;
  /** The reconnect schedule (its `maxAttempts` applies). */
  backoff: Backoff;
  /** A link open this long without delivering a message is healthy too. @default 5000 */
  stableAfterMs?: number;
  /** Status changes: `connecting`, `open`, `reconnecting` (with the reason and attempt). */
  onStatus(status: ConnectionStatus, reason?: string, attempt?: number): void;
  /** Stops the loop. */
  signal: AbortSignal;
  /**
   * Subscribes to "reconnect now" signals; returns the unsubscribe function.
   * @default the browser's `online` event and `visibilitychange` to visible, where they exist
   */
  wake?: (listener: () => void) => () => void;
}

/** How the loop ended. */
export type LoopEnd =
  | { readonly kind: 'closed'; readonly reason: string }
  | { readonly kind: 'fatal'; readonly error: A2uiError };

/**
 * Runs links until the transport is closed or gives up.
 *
 * @returns why it stopped: `closed` (by either side) or `fatal` (a refusal, or `maxAttempts`
 *   failures in a row: `TRANSPORT_ERROR`)
 *
 * @example
 * ```ts
 * const end = await runReconnectLoop({ connect: runOneLink, backoff: createBackoff(options.reconnect),
 *   onStatus: status.link, signal: lifetime.signal });
 * ```
 */
export async function runReconnectLoop(options: ReconnectLoopOptions): Promise<LoopEnd> {
  const { backoff, signal } = options;
  const stableAfterMs = options.stableAfterMs ?? RECONNECT_DEFAULTS.stableAfterMs;
  const wake = options.wake ?? listenForBrowserWake;
  options.onStatus('connecting');
  while (!signal.aborted) {
    let openedAt: number | undefined;
    let delivered = false;
    const outcome = await options.connect({
      signal,
      attempt: backoff.attempt,
      opened: (reason) => {
        openedAt ??= Date.now();
        options.onStatus('open', reason);
      },
      delivered: () => {
        delivered = true;
      },
    });
    if (signal.aborted) break;
    if (outcome.kind === 'closed' || outcome.kind === 'fatal') return outcome;
    // Only a link that proved healthy starts the backoff over: one that ends right after it
    // opened is a failed attempt, or a server could make the client reconnect in a loop.
    if (delivered || (openedAt !== undefined && Date.now() - openedAt >= stableAfterMs))
      backoff.succeed();
    const delayMs = backoff.fail(outcome.retryAfterMs);
    if (backoff.exhausted) {
      const reason = `Gave up after ${backoff.attempt - 1} reconnect attempts: ${outcome.reason}`;
      return { kind: 'fatal', error: new A2uiError('TRANSPORT_ERROR', reason) };
    }
    options.onStatus(
      'reconnecting',
      `${outcome.reason.replace(/\.$/, '')}; retrying in ${delayMs} ms.`,
      backoff.attempt,
    );
    await sleep(delayMs, signal, wake);
  }
  return { kind: 'closed', reason: 'Closed by the client.' };
}

/**
 * Waits `ms`, or less when `signal` aborts or `wake` fires; leaves no timer or listener behind.
 */
export function sleep(
  ms: number,
  signal: AbortSignal,
  wake?: (listener: () => void) => () => void,
): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    let unsubscribe = (): void => {};
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    if (wake) unsubscribe = wake(done);
  });
}

interface BrowserGlobals {
  addEventListener?(type: string, listener: () => void): void;
  removeEventListener?(type: string, listener: () => void): void;
  document?: {
    visibilityState?: string;
    addEventListener?(type: string, listener: () => void): void;
    removeEventListener?(type: string, listener: () => void): void;
  };
}

/**
 * The browser's "the network may be back" signals: `online` on the window, and the page
 * becoming visible again (a laptop waking up). A no-op where they do not exist (Node).
 */
export function listenForBrowserWake(listener: () => void): () => void {
  const scope = globalThis as BrowserGlobals;
  const document = scope.document;
  const onVisibility = () => {
    if (document?.visibilityState === 'visible') listener();
  };
  scope.addEventListener?.('online', listener);
  document?.addEventListener?.('visibilitychange', onVisibility);
  return () => {
    scope.removeEventListener?.('online', listener);
    document?.removeEventListener?.('visibilitychange', onVisibility);
  };
}
