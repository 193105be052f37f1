/**
 * The server binding (ARCHITECTURE §4 "AG-UI"): a Web-standard Hono app with the AG-UI `POST`
 * endpoint. Each request is one run and one agent turn; a thread is one A2UI session whose
 * surfaces live on across runs. The binding holds the route, the run's event stream (its link)
 * and the codec (`run-input.ts`, `surface-emitter.ts`); every session rule — principals, caps,
 * grace, validation, idempotency, turns, host tool calls — is core's `SessionHost`.
 *
 * A run: authenticate, read and validate `RunAgentInput`, open the thread's connection
 * (`host.open` with an id derived from the principal and `threadId`), attach the run's sink for
 * the run's duration (`host.connect` from the `a2uiSeq` the client's state carries — what it
 * says it holds, acknowledged then — so what it missed of a cut run and what the agent sent
 * between runs come first), deliver tool results, user input and the client message with
 * `awaitTurn`, then `RUN_FINISHED` once — or one `RUN_ERROR`.
 *
 * This file is the facade: the options (`agui-server-options.ts`), the endpoint that queues and
 * starts runs (`agui-endpoint.ts`), one run (`run.ts`) and the answers (`run-response.ts`).
 */
import { createBindingSessionHost } from '@a2ui-ts/core/host';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { AgUiEndpoint } from './agui-endpoint.js';
import {
  AGUI_SERVER_DEFAULTS,
  type AgUiServer,
  type AgUiServerOptions,
  type AgUiServerStats,
} from './agui-server-options.js';
import type { AgUiOutputMode } from './surface-emitter.js';

export type {
  AgUiCorsOptions,
  AgUiServer,
  AgUiServerOptions,
  AgUiServerStats,
} from './agui-server-options.js';
export { AGUI_SERVER_DEFAULTS } from './agui-server-options.js';

/**
 * Creates the AG-UI server: a Hono app answering `POST {basePath}` with a run, mountable in any
 * Hono app and servable by any Web-standard runtime (`app.fetch(request)`).
 *
 * Refusals before the stream starts are HTTP errors with a JSON body `{"error": {code, message,
 * path?, issues?}}` (`docs/errors.md`): 400 `VALIDATION_FAILED` / `INVALID_JSON` (not a
 * `RunAgentInput`, an invalid action, an action on an unknown surface), 401/403, 413
 * (`MESSAGE_TOO_LARGE`: the body, or the action above `maxClientMessageBytes`), 415, 408, 503
 * (`LIMIT_EXCEEDED` with `Retry-After`, or shutting down). Once streaming, a failure is one
 * `RUN_ERROR {code, message}`.
 *
 * @param options - the agent, the output mode, limits and hooks; see {@link AgUiServerOptions}
 * @returns the app, with `host`, `stats()` and `close()`
 *
 * @example
 * ```ts
 * const agui = createAgUiServer({ agent, mode: 'activity' });
 * const app = new Hono().route('/agent', agui); // POST /agent: an AG-UI HttpAgent's url
 * ```
 */
export function createAgUiServer(options: AgUiServerOptions): AgUiServer {
  const defaults = AGUI_SERVER_DEFAULTS;
  const mode: AgUiOutputMode = options.mode ?? defaults.mode;
  const host = createBindingSessionHost({
    ...options,
    reconnectGraceMs: options.reconnectGraceMs ?? defaults.reconnectGraceMs,
    // A thread's state carries its own snapshot (`STATE_SNAPSHOT`): a run that finds the log no
    // longer holding what its client missed sends that, so the host's a2uiSnapshot entry is off.
    snapshots: false,
  });
  const endpoint = new AgUiEndpoint(options, host, mode);

  const app =
    (options.basePath ?? defaults.basePath) ? new Hono().basePath(options.basePath!) : new Hono();
  if (options.cors) app.use('*', cors(options.cors));
  app.post('/', (c) => endpoint.post(c));

  app.all('/', (c) =>
    c.json({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Use POST.' } }, 405, { Allow: 'POST' }),
  );

  return Object.assign(app, {
    host,
    mode,
    stats: (): AgUiServerStats => endpoint.stats(),
    close: (): Promise<void> => endpoint.close(),
  });
}
