/**
 * Everything a client received and sent, as entries for the message inspector.
 */
import type { A2uiClient, ClientError, ClientEvent, ProtocolVersion } from '@a2ui-ts/core';
import { defaultProtocolVersions } from '@a2ui-ts/core';

/** One line of the inspector. */
export interface LogEntry {
  readonly id: number;
  readonly time: Date;
  /** `in`: server → client; `out`: client → server; `status`: link state changes. */
  readonly direction: 'in' | 'out' | 'status';
  /**
   * Message type in its own version's words (`createSurface`, `action`, v0.8's `beginRendering`,
   * `userAction`, v1.0's `callRendererFunction`, …), `batch of n`, `unknown` (no version core
   * reads), or the link status.
   */
  readonly kind: string;
  readonly surfaceId: string | undefined;
  /** The message (parsed when it arrived as text) and, for sent messages, its metadata. */
  readonly payload: unknown;
  readonly metadata?: unknown;
  /** Problems the client found while applying it, or the error it reports. */
  readonly errors: readonly ClientError[];
}

/** Both directions' message kinds of a protocol version module. */
const kindsOf = (version: ProtocolVersion): readonly string[] => [
  ...version.agentMessageKinds,
  ...version.rendererMessageKinds,
];

/**
 * The message kinds `message` may have: its envelope `version`'s, or, without one, those of the
 * version-less modules (v0.8), whose client messages (`userAction`) carry no `version` either.
 */
function candidateKinds(message: Readonly<Record<string, unknown>>): readonly string[] {
  if ('version' in message) {
    const version = defaultProtocolVersions.find(message.version);
    return version ? kindsOf(version) : [];
  }
  return [...defaultProtocolVersions.values()]
    .filter((version) => version.envelopeVersions.length === 0)
    .flatMap(kindsOf);
}

function describe(message: unknown): { kind: string; surfaceId: string | undefined } {
  if (Array.isArray(message)) {
    return message.length === 1
      ? describe(message[0])
      : { kind: `batch of ${message.length}`, surfaceId: undefined };
  }
  if (typeof message === 'object' && message !== null) {
    const record = message as Record<string, unknown>;
    for (const kind of candidateKinds(record)) {
      const body = record[kind];
      if (typeof body === 'object' && body !== null) {
        const surfaceId = (body as { surfaceId?: unknown }).surfaceId;
        return { kind, surfaceId: typeof surfaceId === 'string' ? surfaceId : undefined };
      }
    }
  }
  return { kind: 'unknown', surfaceId: undefined };
}

function parse(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** Most entries kept; the oldest go first. */
export const MAX_LOG_ENTRIES = 1000;

/** Most received messages kept for the transcript export; beyond it the oldest go first. */
export const MAX_TRANSCRIPT_MESSAGES = 20_000;

/** One received input, once {@link parse}d, as transcript lines: one message per line, batches split. */
function transcriptLines(parsed: unknown): string[] {
  if (typeof parsed === 'string') {
    // Not JSON: kept (on one line) so a replay reports it exactly where it arrived.
    return [parsed.replace(/\r?\n/g, ' ')];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).map((message) => JSON.stringify(message));
}

/**
 * An external store of {@link LogEntry} for `useSyncExternalStore`, fed by one client.
 */
export class MessageLog {
  #entries: readonly LogEntry[] = [];
  #transcript: string[] = [];
  #transcriptDropped = 0;
  #errorCount = 0;
  #receivedCount = 0;
  #sentCount = 0;
  #nextId = 1;
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: () => void;

  constructor(client: A2uiClient) {
    this.#unsubscribe = client.subscribe((event) => this.#record(event));
  }

  /** Current entries, oldest first; a new array after every change. */
  getSnapshot = (): readonly LogEntry[] => this.#entries;

  /** Entries with errors since the log started (kept even when old entries are dropped). */
  get errorCount(): number {
    return this.#errorCount;
  }

  /**
   * Server messages received since the log started: each message of a batch counts (a REST turn
   * is one batch), and old entries dropped over {@link MAX_LOG_ENTRIES} stay counted.
   */
  get receivedCount(): number {
    return this.#receivedCount;
  }

  /** Client messages sent since the log started (kept even when old entries are dropped). */
  get sentCount(): number {
    return this.#sentCount;
  }

  /**
   * The session's server messages as JSONL, in the order the client applied them: what
   * `a2ui replay` reads to rebuild the state on screen, and what the gallery's upload streams
   * again. Starts over when the server could not resume the session (a reset), like the client.
   */
  toJsonl(): string {
    return this.#transcript.length === 0 ? '' : `${this.#transcript.join('\n')}\n`;
  }

  /** Messages of the transcript, and how many older ones were dropped (over the cap). */
  get transcriptSize(): { messages: number; dropped: number } {
    return { messages: this.#transcript.length, dropped: this.#transcriptDropped };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * Forgets every entry and the counters: the inspector's list starts over from the next message
   * (the surfaces on screen are untouched). The transcript is kept: Export JSONL still saves the
   * whole session, which `a2ui replay` needs to rebuild what the page shows.
   */
  clear(): void {
    this.#entries = [];
    this.#errorCount = 0;
    this.#receivedCount = 0;
    this.#sentCount = 0;
    for (const listener of [...this.#listeners]) listener();
  }

  dispose(): void {
    this.#unsubscribe();
    this.#listeners.clear();
  }

  #record(event: ClientEvent): void {
    const time = new Date();
    let entry: LogEntry;
    switch (event.type) {
      case 'received': {
        const payload = parse(event.input);
        const lines = transcriptLines(payload);
        this.#receivedCount += lines.length;
        this.#transcript.push(...lines);
        const over = this.#transcript.length - MAX_TRANSCRIPT_MESSAGES;
        if (over > 0) {
          this.#transcript.splice(0, over);
          this.#transcriptDropped += over;
        }
        entry = {
          id: this.#nextId++,
          time,
          direction: 'in',
          ...describe(payload),
          payload,
          errors: event.result.errors,
        };
        break;
      }
      case 'sent': {
        this.#sentCount++;
        const errors = 'error' in event.message ? [event.message.error] : [];
        entry = {
          id: this.#nextId++,
          time,
          direction: 'out',
          ...describe(event.message),
          payload: event.message,
          metadata: event.metadata,
          errors,
        };
        break;
      }
      case 'status':
        entry = {
          id: this.#nextId++,
          time,
          direction: 'status',
          kind: event.status,
          surfaceId: undefined,
          payload: event.reason ?? null,
          errors: [],
        };
        break;
      case 'reset':
        this.#transcript = [];
        this.#transcriptDropped = 0;
        entry = {
          id: this.#nextId++,
          time,
          direction: 'status',
          kind: 'reset',
          surfaceId: undefined,
          payload: event.reason ?? null,
          errors: [],
        };
        break;
    }
    if (entry.errors.length > 0) this.#errorCount++;
    const next = [...this.#entries, entry];
    this.#entries =
      next.length > MAX_LOG_ENTRIES ? next.slice(next.length - MAX_LOG_ENTRIES) : next;
    for (const listener of [...this.#listeners]) listener();
  }
}
