/**
 * A linked client/agent pair in one process (ARCHITECTURE §2 "In-memory transport"), for tests and
 * same-process embedding. Messages cross as JSON text, exactly as on a wire, so nothing is shared
 * by reference between client and agent.
 */
import type { A2uiAgent, AgentInput } from '../agent/agent.js';
import {
  ConnectionSession,
  type ConnectionSessionOptions,
  type SessionSink,
} from '../agent/connection-session.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import type { ClientTransport, TransportEvent } from './client-transport.js';
import { createEventQueue, type EventQueue } from './event-queue.js';

/** Options of {@link createInMemoryTransport}. */
export interface InMemoryTransportOptions extends Omit<ConnectionSessionOptions, 'agent'> {
  agent: A2uiAgent;
}

/** A client transport wired straight to an agent session. */
export interface InMemoryTransport extends ClientTransport {
  /** The agent-side session (after `events()` was called). */
  readonly session: ConnectionSession | undefined;
  /**
   * Drops the link as a network failure would: the session keeps buffering and the transport
   * resumes from the last event it delivered when `reconnect()` is called.
   */
  drop(): void;
  /** Resumes a dropped link, replaying what was missed (or resetting if it was not kept). */
  reconnect(): void;
  /**
   * Sends user text and host context to the agent's `onInput` (what AG-UI and A2A carry), as an
   * in-process chat box would.
   * @throws A2uiError `CONNECTION_CLOSED` when the connection is closed
   */
  input(input: AgentInput, metadata?: ClientMessageMetadata): Promise<void>;
}

/**
 * Creates an in-memory transport whose agent side is a {@link ConnectionSession}.
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: createInMemoryTransport({ agent }) });
 * client.connect();
 * ```
 */
export function createInMemoryTransport(options: InMemoryTransportOptions): InMemoryTransport {
  let session: ConnectionSession | undefined;
  let queue: EventQueue<TransportEvent> | undefined;
  let sink: SessionSink | undefined;
  let lastSeq = 0;
  let closed = false;

  const newSink = (): SessionSink => {
    const current: SessionSink = {
      deliver(entry) {
        if (sink !== current) return;
        lastSeq = entry.seq;
        queue?.push({ type: 'messages', messages: entry.data });
      },
      close() {
        if (sink !== current) return;
        sink = undefined;
        queue?.push({
          type: 'status',
          status: 'closed',
          reason: 'The agent closed the connection.',
        });
        queue?.end();
      },
    };
    return current;
  };

  const startSession = (): void => {
    session = new ConnectionSession(options);
    sink = newSink();
    session.attach(sink);
    queue?.push({ type: 'status', status: 'open' });
    void session.start();
  };

  return {
    get session() {
      return session;
    },
    events({ signal } = {}) {
      if (queue)
        throw new A2uiError('INTERNAL_ERROR', 'events() can be called once per transport.');
      queue = createEventQueue<TransportEvent>({ signal });
      queue.push({ type: 'status', status: 'connecting' });
      startSession();
      return queue;
    },
    async send(message: ClientMessage, metadata: ClientMessageMetadata) {
      if (closed || !session || session.closed)
        throw new A2uiError('CONNECTION_CLOSED', 'The in-memory connection is closed.');
      const wire = JSON.parse(JSON.stringify({ message, metadata })) as {
        message: ClientMessage;
        metadata: ClientMessageMetadata;
      };
      session.receive(wire.message, wire.metadata);
    },
    async input(input, metadata) {
      if (closed || !session || session.closed)
        throw new A2uiError('CONNECTION_CLOSED', 'The in-memory connection is closed.');
      const wire = JSON.parse(JSON.stringify({ input, metadata: metadata ?? null })) as {
        input: AgentInput;
        metadata: ClientMessageMetadata | null;
      };
      await session.receiveInput(wire.input, wire.metadata ?? undefined).handled;
    },
    async close() {
      if (closed) return;
      closed = true;
      session?.close('client-closed');
      queue?.end();
    },
    drop() {
      if (!session || !sink) return;
      const dropped = sink;
      sink = undefined;
      session.detach(dropped);
      queue?.push({ type: 'status', status: 'reconnecting', reason: 'link dropped' });
    },
    reconnect() {
      if (!session || closed || sink) return;
      sink = newSink();
      const result = session.attach(sink, { lastSeq });
      if (result.ok) {
        queue?.push({ type: 'status', status: 'open' });
        return;
      }
      session.close('reset');
      lastSeq = 0;
      queue?.push({ type: 'reset', reason: 'The session could not be resumed.' });
      startSession();
    },
  };
}
