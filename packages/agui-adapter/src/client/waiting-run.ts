/**
 * Long polling in `connectAgUi`: whenever the thread is idle, one waiting run
 * (`forwardedProps.a2uiWait`) is open. Before any other run the client asks the server to end it
 * (`a2uiRelease`, a request of its own answered `204`) — but only once the server answered the
 * waiting run, as it holds the run from then on: a release sent earlier would find nothing to end.
 */
import { createConnectionId } from '@a2ui-ts/core';
import { FORWARDED_PROPS } from '../protocol/constants.js';
import type { ConnectAgUiOptions } from './agui-client-options.js';

/** The waiting run under way, if any, and its release. */
export class WaitingRun {
  /** Whether the server answered it, and whether it must end. */
  #current: { responded: boolean; releaseDue: boolean } | undefined;
  readonly #sendRelease: () => void;

  /** @param sendRelease - asks the server to end the thread's waiting run */
  constructor(sendRelease: () => void) {
    this.#sendRelease = sendRelease;
  }

  /** A waiting run starts. */
  begin(): void {
    this.#current = { responded: false, releaseDue: false };
  }

  /** The waiting run is over. */
  end(): void {
    this.#current = undefined;
  }

  /** The server answered a run: a release of the waiting run may go out now. */
  responded(): void {
    const current = this.#current;
    if (!current || current.responded) return;
    current.responded = true;
    if (current.releaseDue) this.#sendRelease();
  }

  /** Ends the waiting run under way (if any), once the server has answered it. */
  release(): void {
    const current = this.#current;
    if (!current || current.releaseDue) return;
    current.releaseDue = true;
    if (current.responded) this.#sendRelease();
  }
}

/** Asks the server to end the thread's waiting run: a request of its own, answered 204. */
export function sendRelease(
  fetchImpl: typeof fetch,
  options: Pick<ConnectAgUiOptions, 'url' | 'headers'>,
  threadId: () => string,
): void {
  void (async () => {
    const headers =
      typeof options.headers === 'function' ? await options.headers() : options.headers;
    await fetchImpl(String(options.url), {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        threadId: threadId(),
        runId: createConnectionId(),
        state: {},
        messages: [],
        tools: [],
        context: [],
        forwardedProps: { [FORWARDED_PROPS.release]: true },
      }),
    });
  })().catch(() => {
    // The server ends the waiting run after its `maxRunWaitMs` anyway.
  });
}
