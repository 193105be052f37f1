/**
 * Finds the agent's A2UI messages wherever A2A agents put them (`a2a-mcp-lavs.md` §2.3 item 3):
 * the messages of `working` status updates (what the official agents stream), a task's status
 * message and history (what a blocking call returns), artifacts, and plain message results — in
 * arrival order, each once. Parts of this package's server carry their `a2uiSeq`, checked by a
 * `SequenceTracker` (so a resubscribe or a task's history never applies a message twice, and a gap
 * is noticed); parts of other agents are de-duplicated by message id (and artifact part).
 */

import { type Artifact, type Message, type Part, Role, type Task } from '@a2a-js/sdk';
import { SequenceTracker } from '@a2ui-ts/core/link';
import { isA2uiDataPart, partSeq } from '../protocol/a2ui-parts.js';

/** What one harvest found. */
export interface Harvest {
  /** A2UI payloads (one message, an array or `{messages}` each), in order. */
  readonly payloads: unknown[];
  /** Text the agent sent beside them. */
  readonly texts: string[];
  /** A sequenced part skipped ahead: messages before it are missing (resume from `sequence.last`). */
  readonly gap: boolean;
}

/** Options of {@link A2uiHarvester}. */
export interface A2uiHarvesterOptions {
  /** Message ids (and artifact parts) remembered to skip repeats. @default 10000 */
  maxRememberedIds?: number;
}

/** The harvester of one A2UI session. */
export class A2uiHarvester {
  /** The sequence of this package's server (the client's `Last-Event-ID`). */
  readonly sequence = new SequenceTracker();
  readonly #seen = new Set<string>();
  readonly #maxSeen: number;
  #sequenced = false;

  constructor(options: A2uiHarvesterOptions = {}) {
    this.#maxSeen = options.maxRememberedIds ?? 10_000;
  }

  /** True once the agent sent a part with `a2uiSeq`: it is this package's server (resumable, pushes). */
  get sequenced(): boolean {
    return this.#sequenced;
  }

  /** Starts over (a new session). */
  reset(): void {
    this.sequence.reset();
    this.#seen.clear();
  }

  /** The A2UI payloads of an agent message (user messages are skipped: they are our own). */
  message(message: Message | undefined, into: MutableHarvest = newHarvest()): MutableHarvest {
    if (!message || message.role === Role.ROLE_USER || into.gap) return into;
    const key = `m:${message.messageId}`;
    if (message.messageId && this.#seen.has(key)) return into;
    for (const part of message.parts ?? []) {
      if (!this.#part(part, into)) return into;
    }
    if (message.messageId) this.#remember(key);
    return into;
  }

  /** The payloads of a task: its history, its status message, its artifacts. */
  task(task: Task, into: MutableHarvest = newHarvest()): MutableHarvest {
    for (const message of task.history ?? []) this.message(message, into);
    this.message(task.status?.message, into);
    for (const artifact of task.artifacts ?? []) this.artifact(artifact, into);
    return into;
  }

  /** The payloads of an artifact, each part once. */
  artifact(artifact: Artifact | undefined, into: MutableHarvest = newHarvest()): MutableHarvest {
    if (!artifact) return into;
    (artifact.parts ?? []).forEach((part, index) => {
      if (into.gap) return;
      const key = `a:${artifact.artifactId}:${index}`;
      if (this.#seen.has(key)) return;
      if (this.#part(part, into)) this.#remember(key);
    });
    return into;
  }

  /** Harvests one part; false when a gap stops the harvest. */
  #part(part: Part, into: MutableHarvest): boolean {
    const content = part.content;
    if (content?.$case === 'text') {
      if (content.value) into.texts.push(content.value);
      return true;
    }
    if (!isA2uiDataPart(part, 'server')) return true;
    const seq = partSeq(part);
    if (seq !== undefined) {
      this.#sequenced = true;
      // A snapshot (`a2uiSnapshot`) moves the tracker to the message it covers.
      const verdict = this.sequence.acceptEntry(seq, (content as { value: unknown }).value);
      if (verdict === 'duplicate') return true;
      if (verdict === 'gap') {
        into.gap = true;
        return false;
      }
    }
    into.payloads.push((content as { value: unknown }).value);
    return true;
  }

  #remember(key: string): void {
    if (this.#seen.size >= this.#maxSeen) {
      // Oldest first: a Set iterates in insertion order.
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    this.#seen.add(key);
  }
}

/** A harvest being filled. */
export interface MutableHarvest extends Harvest {
  gap: boolean;
}

export const newHarvest = (): MutableHarvest => ({ payloads: [], texts: [], gap: false });
