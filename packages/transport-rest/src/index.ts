/**
 * `@a2ui-ts/transport-rest` — A2UI v0.9 over plain HTTP: every client request (connect, action,
 * error) is answered with the agent's turn, a long poll carries what the agent pushes between
 * turns, and retried POSTs with the same idempotency key are delivered once. The server binding
 * is a Web-standard Hono app (on Node, serve it with `@hono/node-server`).
 *
 * @module
 */

export type { ReconnectOptions } from '@a2ui-ts/core/link';
export type { RestClientOptions, RestTransport } from './client/connect-rest.js';
export { connectRest, REST_CLIENT_DEFAULTS } from './client/connect-rest.js';
export type { HeadersOption } from './client/http.js';
export type {
  RestCallOptions,
  RestPollOptions,
  RestTurnOptions,
  RestTurnResult,
} from './client/rest-turn.js';
export { restPoll, restTurn } from './client/rest-turn.js';
export type {
  RestClientMessageRequest,
  RestConnectAnswer,
  RestConnectRequest,
  RestDisconnectAnswer,
  RestDisconnectRequest,
  RestErrorBody,
  RestMessagesAnswer,
  RestPollAnswer,
  RestTurnAnswer,
} from './protocol/wire.js';
export { IDEMPOTENCY_KEY_HEADER, REST_PATHS, REST_QUERY } from './protocol/wire.js';
export type {
  RestCorsOptions,
  RestServer,
  RestServerOptions,
  RestServerStats,
} from './server/create-rest-server.js';
export {
  createRestServer,
  defaultIsSamePrincipal,
  defaultPrincipalKey,
  REST_SERVER_DEFAULTS,
} from './server/create-rest-server.js';
