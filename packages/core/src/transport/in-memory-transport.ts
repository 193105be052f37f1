/**
 * The in-memory transport (ARCHITECTURE §2): a client transport linked straight to a session host
 * in the same process, for tests and same-process embedding. Messages cross as JSON text, exactly
 * as on a wire, so nothing is shared by reference between client and agent; everything else —
 * resume, resets, exactly-once delivery, turns, bounds — is the host's and the link kit's, as for
 * a network transport.
 */
import type { A2uiAgent, AgentInput } from '../agent/agent.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { ConnectionSession, SessionSink } from '../host/connection-session.js';
import {
  createSessionHost,
  type HostLink,
  type SessionHost,
  type SessionHostOptions,
} from '../host/session-host.js';
import type { ReconnectOptions } from '../link/backoff.js';
import { LinkStatus } from '../link/link-status.js';
import { Outbox, type OutboxDelivery } from '../link/outbox.js';
import { type ResumeStore, resolveResumeStore } from '../link/resume-store.js';
import { SequenceTracker } from '../link/sequence-tracker.js';
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';
import { isOvertakingMessage } from '../rpc/function-call-messages.js';
import { DEFAULT_A2UI_VERSIONS } from '../versions/wire-versions.js';
import type { ClientTransport, SendOptions, TransportEvent } from './client-transport.js';
import { createEventQueue, type EventQueue } from './event-queue.js';

/** Options of {@link createInMemoryTransport}: the agent (or a shared host) and the host's options. */
export interface InMemoryTransportOptions extends Partial<Omit<SessionHostOptions, 'agent'>> {
  /** The agent; a private session host is created for it. */
  agent?: A2uiAgent;
  /** A session host shared by several transports (then `agent` and the host options are unused). */
  host?: SessionHost;
  /** The principal this client is authenticated as (what `authenticate` would return). @default undefined */
  principal?: unknown;
  /** Most client messages waiting for delivery. @default 1000 */
  maxQueuedMessages?: number;
  /** Redelivery backoff after a refusal (a busy agent). @default `RECONNECT_DEFAULTS` */
  reconnect?: ReconnectOptions;
  /**
   * The A2UI versions this client offers, negotiated with `host.negotiate` as every binding
   * does (the agent reads the result as `connection.protocolVersions`); `null` offers none, as a
   * client older than negotiation (the agent then emits v0.9).
   * @default every version core speaks (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[] | null;
  /**
   * Where the connection id is kept so that a new transport (a reloaded page) resumes the same
   * session, with the surfaces as they are, instead of opening one; cleared when the session
   * ends. @default none (an in-process transport has no page to reload)
   */
  resume?: ResumeStore;
}

/** A client transport wired straight to a session host. */
export interface InMemoryTransport extends ClientTransport {
  /** The session host serving this transport. */
  readonly host: SessionHost;
  /** The connection id (once `events()` opened it). */
  readonly connectionId: string | undefined;
  /** The agent-side session (while it lives). */
  readonly session: ConnectionSession | undefined;
  /**
   * Drops the link as a network failure would: the connection keeps logging and the transport
   * resumes from the last message it applied when {@link reconnect} is called.
   */
  drop(): void;
  /** Resumes a dropped link, replaying what was missed (or resetting if it was not kept). */
  reconnect(): Promise<void>;
  /**
   * Sends user text and host context to the agent's `onInput` (what AG-UI and A2A carry), as an
   * in-process chat box would. Resolves when the agent's turn for it is over.
   * @throws A2uiError `CONNECTION_CLOSED` when the transport is closed
   */
  input(input: AgentInput, metadata?: ClientMessageMetadata): Promise<void>;
}

const toWire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Creates an in-memory transport. `send` resolves once the agent's turn for the message is over,
 * with the messages of the turn already queued as events.
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: createInMemoryTransport({ agent }) });
 * void client.connect();
 * ```
 */
export function createInMemoryTransport(options: InMemoryTransportOptions): InMemoryTransport {
  const host =
    options.host ??
    (() => {
      if (!options.agent)
        throw new A2uiError('INTERNAL_ERROR', 'createInMemoryTransport needs an agent or a host.');
      return createSessionHost({ ...options, agent: options.agent });
    })();
  const principal = options.principal;
  let queue: EventQueue<TransportEvent> | undefined;
  const pending: TransportEvent[] = [];
  const push = (event: TransportEvent) => {
    if (queue) queue.push(event);
    else pending.push(event);
  };
  const status = new LinkStatus(push);
  const sequence = new SequenceTracker();
  // No default store here (no page to reload); one given clears only a token this transport used.
  const resume = options.resume
    ? resolveResumeStore(options.resume, { name: 'in-memory', url: '' })
    : undefined;
  let link: HostLink | undefined;
  let currentSink: SessionSink | undefined;
  let connectionId: string | undefined;
  let closed = false;
  let protocolVersion: string | undefined;

  const outbox = new Outbox<{ message: ClientMessage; metadata: ClientMessageMetadata }>({
    maxQueuedMessages: options.maxQueuedMessages,
    backoff: options.reconnect,
    onTrouble: (trouble) => status.trouble(trouble),
    overtakes: (item) => isOvertakingMessage(item.message),
    async deliver(batch, context): Promise<OutboxDelivery> {
      const errors = new Map<string, A2uiError>();
      for (const entry of batch) {
        const wire = toWire(entry.item);
        try {
          await host.receive(context.connectionId, {
            principal,
            message: wire.message,
            metadata: wire.metadata,
            requestId: entry.id,
            bytes: JSON.stringify(wire).length,
            awaitTurn: true,
          });
        } catch (error) {
          const known = A2uiError.isInstance(error) ? error : undefined;
          if (known?.code === 'LIMIT_EXCEEDED' && known.data?.retryAfterMs !== undefined)
            return {
              kind: 'retry',
              reason: known.message,
              retryAfterMs: known.data.retryAfterMs as number,
            };
          errors.set(entry.id, known ?? new A2uiError('INTERNAL_ERROR', String(error)));
        }
      }
      return { kind: 'answered', errors };
    },
  });

  const newSink = (): SessionSink => {
    const sink: SessionSink = {
      open(info) {
        if (currentSink !== sink) return;
        if (info.reset !== undefined) {
          sequence.reset();
          outbox.reset();
          push({ type: 'reset', reason: `The session could not be resumed (${info.reset}).` });
        }
        connectionId = info.connectionId;
        resume?.save({ connectionId });
        outbox.setConnection(info.connectionId);
        status.link(
          'open',
          info.resumed ? `Resumed; ${info.replayed} missed messages replayed.` : undefined,
        );
      },
      deliver(entry) {
        if (currentSink !== sink) return;
        if (sequence.acceptEntry(entry.seq, entry.data) === 'apply')
          push({ type: 'messages', messages: entry.data });
      },
      close(reason) {
        if (currentSink !== sink || reason === 'reset') return;
        currentSink = undefined;
        closed = true;
        resume?.clear();
        outbox.close();
        status.link('closed', `The agent closed the connection (${reason}).`);
        queue?.end();
      },
    };
    return sink;
  };

  const openLink = async (): Promise<void> => {
    const sink = newSink();
    currentSink = sink;
    try {
      // A reloaded page: the session of the one before, from the start (it holds nothing yet).
      if (connectionId === undefined && resume) connectionId = (await resume.load())?.connectionId;
      const offered =
        options.offeredVersions === null
          ? undefined
          : (options.offeredVersions ?? DEFAULT_A2UI_VERSIONS);
      const negotiated = host.negotiate(offered);
      // Known before the first message arrives (host.connect delivers while it runs).
      protocolVersion = negotiated?.version;
      link = await host.connect({
        principal,
        connectionId,
        lastSeq: connectionId === undefined ? undefined : sequence.last,
        sink,
        protocolVersions: negotiated?.versions,
      });
    } catch (error) {
      currentSink = undefined;
      closed = true;
      outbox.close(error);
      status.link('closed', error instanceof Error ? error.message : String(error));
      queue?.fail(error);
    }
  };

  const transport: InMemoryTransport = {
    host,
    get connectionId() {
      return connectionId;
    },
    get a2uiVersion() {
      return protocolVersion;
    },
    get session() {
      return connectionId === undefined ? undefined : host.session(connectionId);
    },
    events({ signal } = {}) {
      if (queue)
        throw new A2uiError('INTERNAL_ERROR', 'events() can be called once per transport.');
      queue = createEventQueue<TransportEvent>({ signal });
      for (const event of pending.splice(0)) queue.push(event);
      signal?.addEventListener('abort', () => void transport.close(), { once: true });
      status.link('connecting');
      void openLink();
      return queue;
    },
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      if (closed)
        return Promise.reject(
          new A2uiError('CONNECTION_CLOSED', 'The in-memory connection is closed.'),
        );
      return outbox.enqueue({ message, metadata }, sendOptions);
    },
    async input(input, metadata) {
      if (closed || connectionId === undefined)
        throw new A2uiError('CONNECTION_CLOSED', 'The in-memory connection is closed.');
      const wire = toWire({ input, metadata: metadata ?? null });
      await host.input(connectionId, {
        principal,
        input: wire.input,
        metadata: wire.metadata ?? undefined,
        awaitTurn: true,
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      outbox.close();
      currentSink = undefined;
      resume?.clear();
      if (connectionId !== undefined)
        await host.disconnect(connectionId, { principal }).catch(() => {});
      if (!options.host) await host.close();
      status.link('closed', 'Closed by the client.');
      queue?.end();
    },
    drop() {
      if (!link || !currentSink || closed) return;
      const dropped = link;
      currentSink = undefined;
      link = undefined;
      outbox.pause();
      dropped.detach();
      status.link('reconnecting', 'The link dropped.');
    },
    async reconnect() {
      if (closed || currentSink) return;
      await openLink();
    },
  };
  return transport;
}
