/**
 * Live updates between tool calls: what the agent sends while no call of the session runs (a
 * countdown, another user's booking) goes to the client at once as `notifications/a2ui/messages`
 * on the session's standalone stream (Streamable HTTP `GET`), rather than waiting for the next
 * call. It follows the connection only while such a stream is open — an open stream is the
 * client's presence, as an SSE link is — and never before the client's first call (its
 * `a2ui_open` answers with the UI) nor while a call runs: that call's progress and result carry
 * the messages, so a call settles only once its own messages are in.
 */
import { A2uiError } from '@a2ui-ts/core';
import type { SessionHost } from '@a2ui-ts/core/host';
import type { McpEventDescriptions } from './replay-event-store.js';
import type { DeliveryBatch } from './tool-results.js';
import { toPushNotification } from './tool-results.js';

/** What pushing needs of its session. */
export interface A2uiPushOptions {
  readonly host: SessionHost;
  readonly connectionId: string;
  readonly principal: unknown;
  /** The session's cursor (`seq` of the last message handed out). */
  readonly cursor: () => number;
  /**
   * Takes what is past the cursor — unless `allowed()`, asked in turn with the session's other
   * hand-outs, says no (a call started meanwhile).
   */
  readonly take: (allowed: () => boolean) => Promise<DeliveryBatch & { afterSeq: number }>;
  /** Whether the client reads A2UI (a text-only client waits for its next call). */
  readonly a2ui: () => boolean;
  /** Sends a notification on the standalone stream. */
  readonly send: (notification: { method: string; params: object }) => Promise<void>;
  readonly events?: McpEventDescriptions;
  /**
   * The log no longer holds what the client missed, and the host has no snapshot for it
   * (`snapshots: false`): the session must end so the client starts a new one.
   */
  readonly onReplayGap?: () => void;
}

/** Whether `error` says the log no longer holds messages a reader still needs. */
const isReplayGap = (error: unknown): boolean =>
  A2uiError.isInstance(error) &&
  (error.data as { reset?: unknown } | undefined)?.reset === 'replay-gap';

/** The pushing of one session. */
export class A2uiPush {
  readonly #options: A2uiPushOptions;
  #streams = 0;
  #calls = 0;
  /** A call ended: the client took what came first (its `a2ui_open`), pushes may follow. */
  #opened = false;
  #follow: AbortController | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(options: A2uiPushOptions) {
    this.#options = options;
  }

  /** A standalone stream opened; call the returned function when it ends. */
  openStream(): () => void {
    this.#streams++;
    if (this.#streams === 1) this.#start();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.#streams--;
      if (this.#streams === 0) {
        this.#follow?.abort();
        this.#follow = undefined;
      }
    };
  }

  /** A tool call started; call the returned function when it ends. */
  callStarted(): () => void {
    this.#calls++;
    return () => {
      this.#calls--;
      this.#opened = true;
      // What came after the call's result: push it now.
      if (this.#calls === 0) this.flush();
    };
  }

  /** Pushes what is past the cursor, if nothing stands in the way. */
  flush(): void {
    this.#flushing = this.#flushing.then(() => this.#push()).catch((error) => this.#failed(error));
  }

  /** A push that failed: a replay gap ends the session; anything else ended the connection. */
  #failed(error: unknown): void {
    if (isReplayGap(error)) this.#options.onReplayGap?.();
  }

  #allowed = () => this.#opened && this.#streams > 0 && this.#calls === 0 && this.#options.a2ui();

  async #push(): Promise<void> {
    if (!this.#allowed()) return;
    const { afterSeq, entries } = await this.#options.take(this.#allowed);
    if (entries.length === 0) return;
    const notification = toPushNotification(entries);
    this.#options.events?.describePush(notification.params, {
      afterSeq,
      throughSeq: entries.at(-1)!.seq,
    });
    await this.#options.send(notification);
  }

  #start(): void {
    const stop = new AbortController();
    this.#follow = stop;
    const { host, connectionId, principal } = this.#options;
    void (async () => {
      const follow = await host.follow(connectionId, {
        principal,
        afterSeq: this.#options.cursor(),
        signal: stop.signal,
      });
      // Each message wakes a flush, which takes every message past the cursor at once.
      for await (const _entry of follow) this.flush();
    })().catch((error) => this.#failed(error)); // else the connection ended: nothing to push
    this.flush();
  }
}
