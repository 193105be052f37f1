/**
 * `@a2ui-ts/transport-sse-jsonrpc` — A2UI v0.9 over Server-Sent Events (server → client) and
 * JSON-RPC 2.0 POST (client → server): resumable, authenticated, bounded. The server binding is a
 * Web-standard Hono app; the Node listener is in `@a2ui-ts/transport-sse-jsonrpc/node`.
 *
 * @module
 */

export type { BackoffDelayOptions, ReconnectOptions } from '@a2ui-ts/core/link';
export { computeBackoffDelay, RECONNECT_DEFAULTS } from '@a2ui-ts/core/link';
export type {
  SseJsonRpcClientOptions,
  SseJsonRpcTransport,
} from './client/connect-sse-json-rpc.js';
export { connectSseJsonRpc, SSE_JSON_RPC_CLIENT_DEFAULTS } from './client/connect-sse-json-rpc.js';
export type { RpcErrorName, RpcErrorRow, ToRpcErrorOptions } from './protocol/json-rpc-errors.js';
export {
  fromRpcError,
  RPC_ERRORS,
  rpcErrorNameOf,
  toRpcError,
} from './protocol/json-rpc-errors.js';
export type {
  ConnectedEventData,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcResponse,
  ReasonEventData,
  RpcAcceptedResult,
} from './protocol/wire.js';
export { RPC_METHODS, RPC_PATH, SSE_EVENTS, SSE_PATH, SSE_QUERY } from './protocol/wire.js';
export type {
  SseJsonRpcCorsOptions,
  SseJsonRpcServer,
  SseJsonRpcServerOptions,
  SseJsonRpcServerStats,
} from './server/create-sse-json-rpc-server.js';
export {
  createSseJsonRpcServer,
  defaultIsSamePrincipal,
  defaultPrincipalKey,
  SESSION_LIMIT_RETRY_AFTER_SECONDS,
  SSE_JSON_RPC_SERVER_DEFAULTS,
} from './server/create-sse-json-rpc-server.js';
