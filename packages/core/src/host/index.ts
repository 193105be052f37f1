export type { BindingSessionHostOptions } from './binding-session-host.js';
export { createBindingSessionHost } from './binding-session-host.js';
export {
  PRINCIPAL_SCOPE_LENGTH,
  principalScope,
  scopedClientKey,
  typedKeyText,
} from './client-key.js';
export type { ClosedConnection } from './closed-connections.js';
export type {
  ConnectionRecord,
  ConnectionRegistry,
  MemoryConnectionRegistry,
} from './connection-registry.js';
export { createMemoryConnectionRegistry } from './connection-registry.js';
export type {
  AttachResult,
  ConnectionSessionOptions,
  LinkOpenInfo,
  OutgoingValidator,
  ReadOptions,
  ReadResult,
  ReceiveOptions,
  ReceiveResult,
  ResetReason,
  SessionLimits,
  SessionSink,
} from './connection-session.js';
export { ConnectionSession, SESSION_DEFAULTS } from './connection-session.js';
export { ExpiringMap } from './expiring-map.js';
export type { HttpErrorResponse } from './http-errors.js';
export { HTTP_STATUS_BY_CODE, HttpRefusal, shutdownRefusal, toHttpError } from './http-errors.js';
export type { HttpTimeoutOptions, HttpTimeoutTarget } from './http-timeouts.js';
export { applyHttpTimeouts, HTTP_TIMEOUT_DEFAULTS } from './http-timeouts.js';
export type { InboundCheck, InboundLimits } from './inbound.js';
export {
  checkClientMessage,
  checkInboundMessage,
  checkMetadata,
  checkRequestDepth,
  INBOUND_DEFAULTS,
} from './inbound.js';
export type { LinkBufferStats, TickingLink } from './link-set.js';
export { LinkSet } from './link-set.js';
export type {
  CreateAdaptorServer,
  FetchApp,
  HttpListener,
  ListenHttpServerOptions,
  ListenOptions,
  NodeHttpServerLike,
} from './listen-http-server.js';
export { LISTEN_DEFAULTS, listenHttpServer, serveFetchApp } from './listen-http-server.js';
export {
  A2UI_VERSIONS_HEADER,
  A2UI_VERSIONS_QUERY,
  readOfferedVersions,
} from './offered-versions.js';
export { validateOutgoingWithBuiltinCatalogs } from './outgoing-validator.js';
export type { Authenticate, AuthenticationResult } from './principal.js';
export { defaultIsSamePrincipal, defaultPrincipalKey, runAuthenticate } from './principal.js';
export type {
  JsonRequestFailure,
  JsonRequestFailureRow,
  JsonRequestLimits,
  JsonRequestResult,
} from './read-json-request.js';
export { JSON_REQUEST_FAILURES, JsonRequestRefusal, readJsonRequest } from './read-json-request.js';
export type {
  ReadableBody,
  ReadRequestBodyOptions,
  ReadRequestBodyResult,
} from './read-request-body.js';
export { DEFAULT_BODY_TIMEOUT_MS, readRequestBody } from './read-request-body.js';
export type {
  MaybePromise,
  MemoryReplayLog,
  ReplayEntry,
  ReplayLog,
  ReplayLogLimits,
  ReplayLogListener,
  ReplayLogSize,
} from './replay-log.js';
export { createMemoryReplayLog, DEFAULT_REPLAY_LOG_LIMITS } from './replay-log.js';
export type { RequestIdLimits } from './request-ids.js';
export { checkRequestFingerprint, REQUEST_ID_OVERHEAD_BYTES } from './request-ids.js';
export { beyondSentError, isBeyondSentError } from './sent-position.js';
export { SessionFollow } from './session-follow.js';
export type {
  ConnectOptions,
  HostFollowOptions,
  HostInputOptions,
  HostLink,
  HostPollOptions,
  HostPollResult,
  HostReadOptions,
  HostReceiveOptions,
  HostReceiveResult,
  OpenOptions,
  OpenResult,
  RequestContext,
  SessionHostOptions,
  SessionHostStats,
} from './session-host.js';
export { createSessionHost, SESSION_HOST_DEFAULTS, SessionHost } from './session-host.js';
export type {
  RoutedRequest,
  RoutedRequestHandler,
  RoutedResponse,
  SessionRouter,
} from './session-router.js';
export { createLocalSessionRouter } from './session-router.js';
export type { TurnOutcome, TurnResult } from './turn.js';
