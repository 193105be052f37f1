/**
 * The agent side of A2UI (ARCHITECTURE §2 "Agent side"): an agent handles connections without
 * knowing which transport carries them.
 */
import type { VersionedCapabilities } from '../catalog/renderer-capabilities.js';
import type {
  ActionEvent,
  ClientCapabilities,
  ClientDataModel,
  ClientError,
  ClientMessageMetadata,
} from '../protocol/messages.js';
import type { AgentFunction } from '../rpc/agent-functions.js';
import type { FunctionCallOptions } from '../rpc/pending-function-calls.js';
import type { AnyServerMessage } from '../versions/server-messages.js';

/** Options of {@link Connection.callRendererFunction}. */
export interface RendererFunctionCallOptions extends FunctionCallOptions {
  /** The catalog that defines the function (required on the wire: the renderer resolves by it). */
  catalogId: string;
}

/** Why a connection ended. */
export type DisconnectReason =
  /** The client asked to close. */
  | 'client-closed'
  /** The server (or the agent) closed it. */
  | 'server-closed'
  /** The link dropped and the client did not resume within the grace period. */
  | 'grace-expired'
  /** The session could not be resumed and was replaced by a fresh one. */
  | 'reset';

/**
 * A connection to one client, as the agent sees it. Opaque: the transport behind it is unknown.
 */
export interface Connection {
  /** Unguessable connection id (≥128 random bits). */
  readonly id: string;
  /** What the transport's `authenticate(request)` hook returned; `undefined` without auth. */
  readonly principal: unknown;
  /**
   * The A2UI versions negotiated for this connection on the wire, in the server's preference
   * order: emit the first (`protocolVersions[0]`, e.g. `"v1.0"`), which the client said it reads.
   * `undefined` when the client offered no versions (a client older than negotiation): emit what
   * such clients read, v0.9. See `docs/wire-formats.md` for how each binding offers and answers.
   */
  readonly protocolVersions: readonly string[] | undefined;
  /** The latest `a2uiClientCapabilities` the client sent (§4.1). */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /**
   * The latest `a2uiRendererCapabilities` the client sent (v1.0 metadata, keyed by version); pass
   * the connection to `negotiatedVersion` to pick the version to emit.
   */
  readonly rendererCapabilities: VersionedCapabilities | undefined;
  /** The latest `a2uiClientDataModel` the client sent (§4.2). */
  readonly clientDataModel: ClientDataModel | undefined;
  /** Aborts when the connection ends; pass it to long work started for this client. */
  readonly signal: AbortSignal;
  readonly closed: boolean;
  /**
   * Queues server messages for delivery, in order, in any version core reads
   * ({@link AnyServerMessage}): v0.9 and v0.9.1 (checked against the v0.9 schema and the
   * surface's built-in catalog), v1.0 (`"v1.0"` or `"1.0"`, including `callRendererFunction` and
   * `agentFunctionResponse`; checked by its module's reader), or v0.8 (no `version`:
   * `beginRendering`, `surfaceUpdate`, `dataModelUpdate`, `deleteSurface`, checked against the
   * v0.8 schema, and the standard catalog's once `beginRendering` named it). A batch is checked
   * whole before any of it is sent. A surface takes only messages of the version it was created
   * in (the client refuses others).
   *
   * @param messages - one message or a batch; the types cover each version's canonical spelling
   *   (v1.0's drafted `@`-prefixed keys are accepted at run time but not typed)
   * @throws A2uiError `CONNECTION_CLOSED` after close, `VALIDATION_FAILED` for a malformed message
   *   (nothing of the batch is sent), `MESSAGE_TOO_LARGE` above the transport's frame limit
   *
   * @example
   * ```ts
   * connection.send({ version: 'v1.0', updateDataModel: { surfaceId: 's', path: '/draft', value: null } });
   * connection.send({ beginRendering: { surfaceId: 'legacy', root: 'root' } }); // v0.8
   * ```
   */
  send(messages: AnyServerMessage | readonly AnyServerMessage[]): void;
  /** Ends the connection; the agent's `onDisconnect` runs with `server-closed`. */
  close(): void;
  /**
   * Ends the agent's current turn now, before its hook returns: turn-based transports (REST, A2A,
   * AG-UI) answer the request with what was sent so far, and what the agent sends afterwards is a
   * push (delivered between turns). Without a call, a turn ends when its hook settles. A no-op
   * outside a turn.
   */
  endTurn(): void;
  /**
   * Frontend tools the host declared with the latest input (AG-UI `RunAgentInput.tools`); empty
   * on transports that carry none.
   */
  readonly hostTools: readonly HostTool[];
  /**
   * Calls a tool the host declared ({@link hostTools}) and waits for its result, which a later
   * request carries (AG-UI: the next run). Ends the current turn, so the host can run the tool.
   *
   * @param call - the tool's `name` and its `args` (JSON)
   * @param options - `signal` stops waiting (the call stays answered-or-not on the host)
   * @returns the host's result
   * @throws A2uiError `NOT_SUPPORTED` when the transport carries no tool calls, `CONNECTION_CLOSED`
   *   when the connection ends first, `ABORTED` when `signal` aborts
   */
  callHostTool(
    call: { name: string; args: unknown },
    options?: { signal?: AbortSignal },
  ): Promise<HostToolResult>;
  /**
   * Calls a function the renderer exposes (v1.0 `callRendererFunction`) and waits for its
   * `rendererFunctionResponse`, correlated by a fresh `functionCallId`. Ends the current turn, so
   * turn-based transports deliver the call now.
   *
   * @param name - The catalog function name.
   * @param args - Its arguments. @default {}
   * @param options - `catalogId` (required), `timeoutMs` (@default 30000), `signal`.
   * @returns The response's `value` (`null` for a `void` function).
   * @throws A2uiError `FUNCTION_CALL_FAILED` (the renderer refused or the function failed:
   *   `data.code` is `INVALID_FUNCTION_CALL`, `EXECUTION_ERROR`, …), `TIMEOUT`, `ABORTED`,
   *   `CONNECTION_CLOSED`
   *
   * @example
   * ```ts
   * const [width] = (await connection.callRendererFunction('getScreenResolution', {}, { catalogId })) as number[];
   * ```
   */
  callRendererFunction(
    name: string,
    args: Record<string, unknown> | undefined,
    options: RendererFunctionCallOptions,
  ): Promise<unknown>;
}

/**
 * A user action as the agent receives it (`onAction`): v0.9's fields, and, from a client that
 * negotiated v1.0, v1.0's optional `userMessage` (the event's `userMessage`, resolved) and
 * `metadata` (`{extensions}`), `renderer_to_agent.json` `action`.
 */
export interface AgentAction extends ActionEvent {
  readonly userMessage?: string;
  readonly metadata?: { readonly extensions?: Readonly<Record<string, unknown>> };
}

/** A tool the host (frontend) offers the agent: AG-UI's `Tool`. */
export interface HostTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly parameters: Record<string, unknown>;
}

/** One context entry the host gave the agent: AG-UI's `Context`. */
export interface HostContextEntry {
  readonly description: string;
  readonly value: string;
}

/** A host tool call the agent made, as the transport carries it to the host. */
export interface HostToolCall {
  /** Unique per connection; the result names it. */
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}

/** The host's answer to a {@link HostToolCall}. */
export interface HostToolResult {
  readonly toolCallId: string;
  /** The tool's output as the host sent it (AG-UI: the `tool` message's `content`). */
  readonly content: string;
  /** Set when the host reports that the tool failed. */
  readonly error?: string;
}

/**
 * Input that is not an A2UI client message: what a user typed (AG-UI user messages, A2A text
 * parts) and the host's context. Transports that carry only A2UI never produce it.
 */
export interface AgentInput {
  /** The user's text, when the request carried some. */
  readonly text?: string;
  /** Frontend tools offered with this request (also on `connection.hostTools`). */
  readonly tools?: readonly HostTool[];
  /** Context entries (AG-UI `RunAgentInput.context`). */
  readonly context?: readonly HostContextEntry[];
  /** Host state that is not A2UI's own (AG-UI `RunAgentInput.state` without `surfaces`). */
  readonly state?: unknown;
  /** Transport-specific extras (AG-UI `forwardedProps`, A2A message metadata), untouched. */
  readonly extras?: Readonly<Record<string, unknown>>;
}

/**
 * An A2UI agent. Every hook is optional and may be async; hooks of one connection run one at a
 * time, in the order the client's messages arrived. Each hook is one **turn**: it ends when the
 * hook settles (or at `connection.endTurn()`), which is when turn-based transports answer.
 *
 * @example
 * ```ts
 * const agent: A2uiAgent = {
 *   onConnect(connection) {
 *     connection.send([{ version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } }]);
 *   },
 *   onAction(connection, action) { console.log(action.name, action.context); },
 * };
 * ```
 */
export interface A2uiAgent {
  /**
   * Functions renderers may call (v1.0 `callAgentFunction`); arguments are checked against each
   * function's `parameters` schema before its handler runs, and every call is answered with an
   * `agentFunctionResponse` (`UNKNOWN_FUNCTION` for a name not listed). @default none
   */
  readonly functions?: readonly AgentFunction[];
  onConnect?(connection: Connection): void | Promise<void>;
  onAction?(
    connection: Connection,
    action: AgentAction,
    metadata: ClientMessageMetadata | undefined,
  ): void | Promise<void>;
  onError?(
    connection: Connection,
    error: ClientError,
    metadata: ClientMessageMetadata | undefined,
  ): void | Promise<void>;
  /**
   * User text and host context ({@link AgentInput}) from transports that carry them (AG-UI, A2A).
   * @default ignored
   */
  onInput?(
    connection: Connection,
    input: AgentInput,
    metadata: ClientMessageMetadata | undefined,
  ): void | Promise<void>;
  onDisconnect?(connection: Connection, reason: DisconnectReason): void | Promise<void>;
}
