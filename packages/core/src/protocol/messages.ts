/**
 * A2UI v0.9 message types, mirroring `server_to_client.json`, `client_to_server.json`,
 * `common_types.json`, `client_capabilities.json`, `client_data_model.json` and
 * `server_capabilities.json` (digest §2–§6).
 */
import type { A2UI_VERSION } from './constants.js';

/** Any JSON value. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** `{"path": "/a/b"}` — a data binding, absolute or relative to the current scope (§6). */
export interface DataBinding {
  path: string;
}

/** Declared result type of a function call (§6 `FunctionCall.returnType`, default `"boolean"`). */
export type FunctionReturnType =
  | 'string'
  | 'number'
  | 'boolean'
  | 'array'
  | 'object'
  | 'any'
  | 'void';

/** `{"call": "name", "args": {...}}` — a named catalog function call (§6, §8.1). */
export interface FunctionCall {
  call: string;
  args?: Record<string, unknown>;
  returnType?: FunctionReturnType;
}

/** A literal, a binding or a function call (§6 `DynamicValue`). */
export type DynamicValue = string | number | boolean | unknown[] | DataBinding | FunctionCall;
export type DynamicString = string | DataBinding | FunctionCall;
export type DynamicNumber = number | DataBinding | FunctionCall;
export type DynamicBoolean = boolean | DataBinding | FunctionCall;
export type DynamicStringList = string[] | DataBinding | FunctionCall;

/** A ChildList template: instantiate `componentId` once per element of the array at `path` (§5.2, §7.4). */
export interface ChildTemplate {
  componentId: string;
  path: string;
}
/** Static ids, or a template (§5.2). */
export type ChildList = string[] | ChildTemplate;

/** `{"condition": DynamicBoolean, "message": "…"}` (§8.4). */
export interface CheckRule {
  condition: DynamicBoolean;
  message: string;
}

/** Server event action (§8.5). */
export interface EventAction {
  event: { name: string; context?: Record<string, DynamicValue> };
}
/** Local function-call action (§8.5); nothing is sent to the agent. */
export interface FunctionCallAction {
  functionCall: FunctionCall;
}
export type Action = EventAction | FunctionCallAction;

/** `accessibility` on every component (§6 `AccessibilityAttributes`). */
export interface AccessibilityAttributes {
  label?: DynamicString;
  description?: DynamicString;
}

/**
 * One component of the flat adjacency list (§5.1). Catalog-specific properties sit flat beside
 * `id` and `component`.
 */
export interface ComponentInstance {
  id: string;
  component: string;
  accessibility?: AccessibilityAttributes;
  [property: string]: unknown;
}

/** Surface theme, validated by the catalog's `$defs/theme` (§9 Theme). */
export interface Theme {
  primaryColor?: string;
  iconUrl?: string;
  agentDisplayName?: string;
  [property: string]: unknown;
}

export interface CreateSurface {
  surfaceId: string;
  catalogId: string;
  theme?: Theme;
  /** @default false */
  sendDataModel?: boolean;
}
export interface UpdateComponents {
  surfaceId: string;
  components: ComponentInstance[];
}
export interface UpdateDataModel {
  surfaceId: string;
  /** JSON Pointer; omitted, `""` or `"/"` = the whole data model. */
  path?: string;
  /** Omitted = remove the value at `path`. */
  value?: unknown;
}
export interface DeleteSurface {
  surfaceId: string;
}

export interface CreateSurfaceMessage {
  version: typeof A2UI_VERSION;
  createSurface: CreateSurface;
}
export interface UpdateComponentsMessage {
  version: typeof A2UI_VERSION;
  updateComponents: UpdateComponents;
}
export interface UpdateDataModelMessage {
  version: typeof A2UI_VERSION;
  updateDataModel: UpdateDataModel;
}
export interface DeleteSurfaceMessage {
  version: typeof A2UI_VERSION;
  deleteSurface: DeleteSurface;
}

/** One of the four server→client messages (§2). */
export type ServerMessage =
  | CreateSurfaceMessage
  | UpdateComponentsMessage
  | UpdateDataModelMessage
  | DeleteSurfaceMessage;

/** What the processor accepts: one message, an array, or the `{messages}` wrapper (§1). */
export type ServerMessageInput = ServerMessage | ServerMessage[] | { messages: ServerMessage[] };

/** The inner object of a client `action` message (§3.1). */
export interface ActionEvent {
  name: string;
  surfaceId: string;
  sourceComponentId: string;
  /** ISO 8601 date-time. */
  timestamp: string;
  context: Record<string, unknown>;
}

/** `VALIDATION_FAILED` error (§3.2). */
export interface ValidationFailedError {
  code: 'VALIDATION_FAILED';
  /**
   * The surface concerned. Left out of what the processor reports when there is none (input that
   * is not JSON, a batch nested too deep); an {@link ErrorMessage} always carries it (`""` then),
   * as `client_to_server.json` requires.
   */
  surfaceId?: string;
  /** JSON Pointer into the offending message. */
  path: string;
  message: string;
}
/** Any other error code (§3.2), extra fields allowed. */
export interface GenericClientError {
  code: string;
  /** As {@link ValidationFailedError.surfaceId}. */
  surfaceId?: string;
  message: string;
  [field: string]: unknown;
}
export type ClientError = ValidationFailedError | GenericClientError;

export interface ActionMessage {
  version: typeof A2UI_VERSION;
  action: ActionEvent;
}
export interface ErrorMessage {
  version: typeof A2UI_VERSION;
  /** The error; on the wire `surfaceId` is required (`""` when no surface is concerned). */
  error: ClientError & { surfaceId: string };
}
/** One of the two client→server messages (§3). */
export type ClientMessage = ActionMessage | ErrorMessage;

/** `FunctionDefinition` of an inline catalog (§4.1). */
export interface FunctionDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  returnType: FunctionReturnType;
}
/** Inline catalog definition (§4.1 `Catalog`). */
export interface InlineCatalog {
  catalogId: string;
  components?: Record<string, unknown>;
  functions?: FunctionDefinition[];
  theme?: Record<string, unknown>;
}

/** `a2uiClientCapabilities` metadata, keyed by version (§4.1). */
export interface ClientCapabilities {
  'v0.9': { supportedCatalogIds: string[]; inlineCatalogs?: InlineCatalog[] };
}
/** `a2uiClientDataModel` metadata (§4.2). */
export interface ClientDataModel {
  version: typeof A2UI_VERSION;
  surfaces: Record<string, unknown>;
}
/** Server capabilities (§4.3). */
export interface ServerCapabilities {
  'v0.9': { supportedCatalogIds?: string[]; acceptsInlineCatalogs?: boolean };
}

/** Metadata that travels beside every client message (§4): never inside it. */
export interface ClientMessageMetadata {
  a2uiClientCapabilities: ClientCapabilities;
  /**
   * v1.0 renderer capabilities keyed by version (`{"v1.0": {supportedCatalogIds, inlineCatalogs?}}`);
   * sent beside `a2uiClientCapabilities` when the client has v1.0 catalogs.
   */
  a2uiRendererCapabilities?: Record<
    string,
    { supportedCatalogIds: string[]; inlineCatalogs?: unknown[] }
  >;
  a2uiClientDataModel?: ClientDataModel;
  /**
   * v1.0's name of the data model (`renderer_data_model.json`: `{version: "v1.0", surfaces}`),
   * sent instead of `a2uiClientDataModel` on v1.0 links; read either with `readRendererDataModel`.
   */
  a2uiRendererDataModel?: { version: string; surfaces: Record<string, unknown> };
  [key: string]: unknown;
}
