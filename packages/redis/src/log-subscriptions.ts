/**
 * The pub/sub side of the shared replay logs on one node: one subscriber connection, one channel
 * per followed connection (subscribed while at least one follower needs it), messages fanned out
 * to that connection's {@link LogFollower}s.
 */
import { decodeLogMessage } from './log-channel.js';
import type { LogFollower } from './log-follower.js';

/** The node-redis pub/sub methods used. */
export interface RedisSubscriber {
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<void>;
}

interface Channel {
  readonly followers: Set<LogFollower>;
  readonly listener: (message: string) => void;
  /** Settles when Redis confirmed the subscription. */
  readonly confirmed: Promise<void>;
}

/** Channel subscriptions of one node. */
export class LogSubscriptions {
  readonly #subscriber: RedisSubscriber;
  readonly #report: (error: unknown) => void;
  readonly #channels = new Map<string, Channel>();

  constructor(subscriber: RedisSubscriber, report: (error: unknown) => void) {
    this.#subscriber = subscriber;
    this.#report = report;
  }

  /** Followers on this node. */
  get size(): number {
    let count = 0;
    for (const channel of this.#channels.values()) count += channel.followers.size;
    return count;
  }

  /** Adds `follower` to `name`; resolves when the channel subscription is confirmed. */
  add(name: string, follower: LogFollower): Promise<void> {
    let channel = this.#channels.get(name);
    if (!channel) {
      const followers = new Set<LogFollower>();
      const listener = (text: string) => {
        const message = decodeLogMessage(text);
        if (message) for (const each of [...followers]) each.receive(message);
      };
      channel = { followers, listener, confirmed: this.#subscriber.subscribe(name, listener) };
      this.#channels.set(name, channel);
    }
    channel.followers.add(follower);
    return channel.confirmed;
  }

  remove(name: string, follower: LogFollower): void {
    const channel = this.#channels.get(name);
    if (!channel?.followers.delete(follower) || channel.followers.size > 0) return;
    this.#channels.delete(name);
    channel.confirmed
      .then(() => this.#subscriber.unsubscribe(name, channel.listener))
      .catch((error) => this.#report(error));
  }

  /** The subscriber connection came back: every follower reads what it may have missed. */
  resync(): void {
    for (const channel of this.#channels.values())
      for (const follower of channel.followers) follower.resync();
  }
}
