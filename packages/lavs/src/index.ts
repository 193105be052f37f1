/**
 * `@a2ui-ts/lavs` — a LAVS (Local Agent View Service, spec v1.0 draft) runtime: `lavs.json`
 * loaded and validated, endpoints run by script, function, http and mcp handlers with their
 * permissions enforced and every call audited, served as JSON-RPC 2.0 — `lavs/call` over HTTP,
 * `lavs/subscribe` / `lavs/unsubscribe` / `lavs/data` over WebSocket — and the bridge to A2UI:
 * `createLavsViewAgent` shows a service as a live A2UI surface.
 *
 * @module
 */

export type {
  LavsClient,
  LavsClientOptions,
  SubscribeOptions,
  WebSocketLike,
} from './client/create-lavs-client.js';
export { createLavsClient } from './client/create-lavs-client.js';
export type {
  LavsErrorCode,
  LavsErrorObject,
  LavsErrorOptions,
  LavsErrorRow,
} from './errors/lavs-error.js';
export { LAVS_ERRORS, LavsError, toLavsErrorObject } from './errors/lavs-error.js';
export type { SchemaCheck } from './manifest/endpoint-schemas.js';
export { MANIFEST_SCHEMA } from './manifest/manifest-schema.js';
export type {
  ComponentSource,
  Endpoint,
  FunctionHandler,
  Handler,
  HttpHandler,
  JsonSchema,
  LavsManifest,
  McpHandler,
  McpStdioServer,
  Permissions,
  ScriptHandler,
  ViewConfig,
} from './manifest/manifest-types.js';
export type {
  LoadedEndpoint,
  LoadedManifest,
  ParseManifestOptions,
  SafeParseManifestResult,
} from './manifest/parse-manifest.js';
export { loadManifest, parseManifest, safeParseManifest } from './manifest/parse-manifest.js';
export type { SchemaIssue } from './manifest/schema-issues.js';
export type { FileAccessPolicy } from './permissions/file-access-policy.js';
export { createFileAccessPolicy } from './permissions/file-access-policy.js';
export { checkNetworkAccess } from './permissions/network-access-policy.js';
export type { PermissionName } from './permissions/permission-denied.js';
export type {
  DispatchContext,
  JsonRpcId,
  JsonRpcResponse,
  LavsDataNotification,
  SubscriptionHost,
} from './protocol/json-rpc.js';
export { dispatchJsonRpc } from './protocol/json-rpc.js';
export type { LavsAuditEntry, LavsAuditLogger } from './runtime/audit-entry.js';
export { stderrAuditLogger } from './runtime/audit-entry.js';
export { createLocalLavsClient } from './runtime/create-local-lavs-client.js';
export type { CallOptions, LavsRuntime, LavsRuntimeOptions } from './runtime/lavs-runtime.js';
export { createLavsRuntime, LAVS_RUNTIME_DEFAULTS } from './runtime/lavs-runtime.js';
export type { LavsWebSocket, LavsWebSocketOptions } from './server/attach-lavs-web-socket.js';
export { attachLavsWebSocket } from './server/attach-lavs-web-socket.js';
export type { LavsServerOptions } from './server/create-lavs-server.js';
export { createLavsServer, LAVS_SERVER_DEFAULTS } from './server/create-lavs-server.js';
export type { ServeLavsOptions } from './server/serve-lavs.js';
export { serveLavs } from './server/serve-lavs.js';
export type { LavsViewAgentOptions } from './view/create-lavs-view-agent.js';
export { createLavsViewAgent } from './view/create-lavs-view-agent.js';
export { LAVS_VIEW_APPLY, lavsViewSurface } from './view/lavs-view-surface.js';
export type {
  LavsViewColumn,
  LavsViewFallback,
  LavsViewField,
  LavsViewPlan,
  PlanLavsViewOptions,
} from './view/plan-lavs-view.js';
export { planLavsView } from './view/plan-lavs-view.js';
