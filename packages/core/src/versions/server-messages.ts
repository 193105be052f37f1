/**
 * Server-to-client (v1.0: agent-to-renderer) message types of every version core reads, so an
 * agent can hand any of them to `Connection.send` without a cast. Types only: what a message of
 * each version may hold is checked at run time by that version's module (schemas, catalogs).
 */
import type {
  ComponentInstance,
  DeleteSurface,
  ServerMessage,
  UpdateComponents,
} from '../protocol/messages.js';
import type {
  AgentFunctionResponseMessage,
  CallRendererFunctionMessage,
} from '../rpc/function-call-messages.js';
import type { V08ServerMessage } from './v0-8/v08-messages.js';

/** `M` with its envelope `version` replaced by `V`, member by member of a union. */
type InVersion<M, V extends string> = M extends unknown
  ? Omit<M, 'version'> & { version: V }
  : never;

/**
 * A v0.9.1 server-to-client message (`specification/v0_9_1/json/server_to_client.json`): v0.9's
 * four messages ({@link ServerMessage}) with `"version": "v0.9.1"`.
 */
export type V091ServerMessage = InVersion<ServerMessage, 'v0.9.1'>;

/**
 * The `version` of a v1.0 envelope: `"v1.0"` (the `specification/v1_0` snapshot, what core
 * writes) or `"1.0"` (later drafts), both read (`V1_0_ENVELOPE_VERSIONS`).
 */
export type V10EnvelopeVersion = 'v1.0' | '1.0';

/**
 * v1.0 `createSurface` (`agent_to_renderer.json#/$defs/CreateSurfaceMessage`): the catalog is
 * optional (components may name their own), and the first components and data model may come
 * inline. Creating a surface instantiates the implicit `Surface` container with child `root`.
 */
export interface V10CreateSurface {
  surfaceId: string;
  /** Default catalog of the surface's components and function calls. */
  catalogId?: string;
  /** @default false */
  sendDataModel?: boolean;
  /** At least one component when present (`minItems: 1`). */
  components?: ComponentInstance[];
  /** The initial root data model object. */
  dataModel?: Record<string, unknown>;
  metadata?: { extensions?: Record<string, unknown> };
}

/**
 * v1.0 `updateDataModel`: unlike v0.9, `value` is required, and `null` deletes the key at
 * `path` (v0.9 deletes when `value` is omitted).
 */
export interface V10UpdateDataModel {
  surfaceId: string;
  /** JSON Pointer; omitted or `"/"` = the whole data model. */
  path?: string;
  /** The new value; `null` deletes. */
  value: unknown;
}

/**
 * A v1.0 agent-to-renderer message (`specification/v1_0/json/agent_to_renderer.json`): the four
 * surface messages plus `callRendererFunction` and `agentFunctionResponse`. Typed in the bare-key
 * spelling core writes; the drafted `@`-prefixed keys are read too but not typed here.
 */
export type V10ServerMessage =
  | { version: V10EnvelopeVersion; createSurface: V10CreateSurface }
  | { version: V10EnvelopeVersion; updateComponents: UpdateComponents }
  | { version: V10EnvelopeVersion; updateDataModel: V10UpdateDataModel }
  | { version: V10EnvelopeVersion; deleteSurface: DeleteSurface }
  | InVersion<CallRendererFunctionMessage | AgentFunctionResponseMessage, V10EnvelopeVersion>;

/**
 * A server-to-client message of any version core reads and an agent may emit: v0.8 (no
 * `version`; {@link V08ServerMessage}), v0.9 ({@link ServerMessage}), v0.9.1
 * ({@link V091ServerMessage}) or v1.0 ({@link V10ServerMessage}). A surface takes only messages
 * of the version it was created in.
 */
export type AnyServerMessage =
  | ServerMessage
  | V091ServerMessage
  | V10ServerMessage
  // v0.8 is told apart by having no `version`: a message with an unknown one is none of these.
  | (V08ServerMessage & { version?: never });
