/**
 * `@a2ui-ts/transport-ws` — A2UI v0.9 full duplex over one WebSocket: resumable, exactly once
 * both ways, with a heartbeat that finds silent links. This entry is the client (browser's
 * `WebSocket`, or `ws` in Node) and the wire format; the Node server binding is in
 * `@a2ui-ts/transport-ws/server`.
 *
 * @module
 */

export type { BackoffDelayOptions, ReconnectOptions } from '@a2ui-ts/core/link';
export { computeBackoffDelay, RECONNECT_DEFAULTS } from '@a2ui-ts/core/link';
export type {
  WebSocketConstructor,
  WsClientOptions,
  WsTransport,
} from './client/connect-ws.js';
export { connectWs, WS_CLIENT_DEFAULTS } from './client/connect-ws.js';
export { bearerProtocol, tokenOfBearerProtocol } from './protocol/bearer-token.js';
export type { FrameShape } from './protocol/frame-errors.js';
export {
  ERROR_FRAME_CODES,
  fromErrorFrameBody,
  toErrorFrameBody,
} from './protocol/frame-errors.js';
export {
  formatAckFrame,
  formatClientMessageFrame,
  formatConnectedFrame,
  formatErrorFrame,
  formatResetFrame,
  formatRestartReason,
  formatSeqAckFrame,
  HEARTBEAT_FRAME,
  isControlFrame,
  PING_FRAME,
  PONG_FRAME,
} from './protocol/frames.js';
export type {
  AckFrame,
  ClientEnvelope,
  ConnectedFrame,
  ErrorFrame,
  ErrorFrameBody,
  ResetFrame,
  RestartReason,
} from './protocol/wire.js';
export {
  CLIENT_FRAME_TYPES,
  CONTROL_FRAME_PREFIX,
  SERVER_FRAME_TYPES,
  WS_BEARER_PROTOCOL_PREFIX,
  WS_CLOSE_CODES,
  WS_PATH,
  WS_QUERY,
  WS_SUBPROTOCOL,
} from './protocol/wire.js';
