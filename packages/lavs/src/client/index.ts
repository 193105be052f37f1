/**
 * `@a2ui-ts/lavs/client`: what a view or an agent needs to use a running LAVS service — the
 * client (spec §7.2), its error class and the manifest's types — without the runtime and the
 * server (no `hono`, `ws` or `node:` modules), for browsers and for agents.
 *
 * @module
 */

export type { LavsErrorCode, LavsErrorObject, LavsErrorOptions } from '../errors/lavs-error.js';
export { LAVS_ERRORS, LavsError } from '../errors/lavs-error.js';
export type {
  Endpoint,
  JsonSchema,
  LavsManifest,
  ViewConfig,
} from '../manifest/manifest-types.js';
export type {
  LavsClient,
  LavsClientOptions,
  SubscribeOptions,
  WebSocketLike,
} from './create-lavs-client.js';
export { createLavsClient } from './create-lavs-client.js';
