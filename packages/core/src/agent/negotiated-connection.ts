/**
 * Writing in the version a connection negotiated: the agent writes whichever version it is
 * written in, and core converts each send to what the client said it reads (docs/protocol-versions.md,
 * "Negotiation on the wire").
 */
import { A2uiError } from '../errors/a2ui-error.js';
import {
  detectMessageVersion,
  MessageMigrator,
  type MigrationVersion,
} from '../migrate/migrate-messages.js';
import type { MigrationIssue } from '../migrate/migration-issue.js';
import type { AnyServerMessage } from '../versions/server-messages.js';
import type { A2uiAgent, Connection } from './agent.js';

/** A version an agent can emit on a connection. */
export type EmitVersion = 'v0.8' | 'v0.9' | 'v0.9.1' | 'v1.0';

const EMIT_VERSIONS: ReadonlySet<string> = new Set<EmitVersion>(['v0.8', 'v0.9', 'v0.9.1', 'v1.0']);

/** What a client that offered no versions reads (every client older than negotiation). */
export const UNNEGOTIATED_EMIT_VERSION: EmitVersion = 'v0.9';

/**
 * The version to write on `connection`: the first of its negotiated `protocolVersions` (the
 * server's preference among those the client offered), or v0.9 when the client offered none.
 *
 * @example
 * ```ts
 * if (emitVersionOf(connection) === 'v1.0') await connection.callRendererFunction('getLocale', {}, { catalogId });
 * ```
 */
export function emitVersionOf(connection: Pick<Connection, 'protocolVersions'>): EmitVersion {
  const found = connection.protocolVersions?.find((version) => EMIT_VERSIONS.has(version));
  return (found as EmitVersion | undefined) ?? UNNEGOTIATED_EMIT_VERSION;
}

/**
 * Whether `connection` negotiated A2UI v1.0 (its emitted version, {@link emitVersionOf}), the
 * version that carries function calls (`callRendererFunction`, `callAgentFunction`) in both
 * directions. The client side makes the same decision on its transport's `protocolVersion`.
 */
export function supportsFunctionCalls(connection: Pick<Connection, 'protocolVersions'>): boolean {
  return emitVersionOf(connection) === 'v1.0';
}

/** Options of {@link withNegotiatedVersion}. */
export interface NegotiatedConnectionOptions {
  /**
   * Receives what a conversion could not express (a v0.9 `theme`, a Text `h1` in v1.0), per
   * send; the rest of the batch is sent.
   * @default ignored
   */
  onIssues?: (issues: readonly MigrationIssue[]) => void;
}

/**
 * `connection` with a `send` that accepts messages of any version core reads and writes them in
 * the connection's negotiated version ({@link emitVersionOf}), converted with
 * {@link MessageMigrator} (one per connection, so a v0.8 target keeps its surfaces' state across
 * sends). Messages already in that version pass unchanged; v0.9.1 is v0.9 with its own envelope
 * `version`. Everything else is the connection itself.
 *
 * @throws from `send`: what `connection.send` throws, and A2uiError `VALIDATION_FAILED` (nothing
 *   sent) when a batch holds a message of no known version
 *
 * @example
 * ```ts
 * onConnect(connection) {
 *   const versioned = withNegotiatedVersion(connection);
 *   versioned.send({ version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } });
 *   // a v1.0 client gets { version: 'v1.0', createSurface: { surfaceId: 's', catalogId: '…/v1_0/…' } }
 * }
 * ```
 */
export function withNegotiatedVersion(
  connection: Connection,
  options: NegotiatedConnectionOptions = {},
): Connection {
  return new NegotiatedConnection(connection, options);
}

class NegotiatedConnection implements Connection {
  readonly #inner: Connection;
  readonly #options: NegotiatedConnectionOptions;
  readonly #version: EmitVersion;
  readonly #migrator: MessageMigrator;

  constructor(inner: Connection, options: NegotiatedConnectionOptions) {
    this.#inner = inner;
    this.#options = options;
    this.#version = emitVersionOf(inner);
    this.#migrator = new MessageMigrator({ to: toMigrationVersion(this.#version) });
  }

  get id() {
    return this.#inner.id;
  }
  get principal() {
    return this.#inner.principal;
  }
  get protocolVersions() {
    return this.#inner.protocolVersions;
  }
  get clientCapabilities() {
    return this.#inner.clientCapabilities;
  }
  get rendererCapabilities() {
    return this.#inner.rendererCapabilities;
  }
  get clientDataModel() {
    return this.#inner.clientDataModel;
  }
  get signal() {
    return this.#inner.signal;
  }
  get closed() {
    return this.#inner.closed;
  }
  get hostTools() {
    return this.#inner.hostTools;
  }

  send(messages: AnyServerMessage | readonly AnyServerMessage[]): void {
    const batch: readonly unknown[] = Array.isArray(messages) ? messages : [messages];
    const unknown = batch.findIndex((message) => detectMessageVersion(message) === undefined);
    if (unknown !== -1) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `Message ${unknown} of the batch is not an A2UI agent message of a known version; nothing was sent.`,
        { path: '', data: { index: unknown } },
      );
    }
    const { messages: converted, issues } = this.#migrator.migrate(batch);
    if (issues.length > 0) this.#options.onIssues?.(issues);
    // v0.9 and v0.9.1 share their messages; only the envelope says which one the client reads.
    const envelope = this.#version === 'v0.9.1' ? 'v0.9.1' : 'v0.9';
    const out = converted.map((message) =>
      (message.version === 'v0.9' || message.version === 'v0.9.1') && message.version !== envelope
        ? { ...message, version: envelope }
        : message,
    );
    if (out.length > 0) this.#inner.send(out as unknown as AnyServerMessage[]);
  }

  close(): void {
    this.#inner.close();
  }
  endTurn(): void {
    this.#inner.endTurn();
  }
  callHostTool(...args: Parameters<Connection['callHostTool']>) {
    return this.#inner.callHostTool(...args);
  }
  callRendererFunction(...args: Parameters<Connection['callRendererFunction']>) {
    return this.#inner.callRendererFunction(...args);
  }
}

function toMigrationVersion(version: EmitVersion): MigrationVersion {
  return version === 'v0.9.1' ? 'v0.9' : version;
}

/**
 * `agent` with every hook given its connection through {@link withNegotiatedVersion} (one
 * wrapper per connection, so its conversion state lasts as long as the connection): an agent
 * written in one version serves each client in the version it negotiated, unchanged.
 *
 * @example
 * ```ts
 * createSseJsonRpcServer({ agent: withNegotiatedVersions(myV09Agent) }); // a v1.0 client gets v1.0
 * ```
 */
export function withNegotiatedVersions(
  agent: A2uiAgent,
  options: NegotiatedConnectionOptions = {},
): A2uiAgent {
  const wrapped = new WeakMap<Connection, Connection>();
  const of = (connection: Connection): Connection => {
    let versioned = wrapped.get(connection);
    if (!versioned) {
      versioned = withNegotiatedVersion(connection, options);
      wrapped.set(connection, versioned);
    }
    return versioned;
  };
  return {
    ...agent,
    ...(agent.onConnect && { onConnect: (connection) => agent.onConnect!(of(connection)) }),
    ...(agent.onAction && {
      onAction: (connection, action, metadata) => agent.onAction!(of(connection), action, metadata),
    }),
    ...(agent.onError && {
      onError: (connection, error, metadata) => agent.onError!(of(connection), error, metadata),
    }),
    ...(agent.onInput && {
      onInput: (connection, input, metadata) => agent.onInput!(of(connection), input, metadata),
    }),
    ...(agent.onDisconnect && {
      onDisconnect: (connection, reason) => agent.onDisconnect!(of(connection), reason),
    }),
  };
}
