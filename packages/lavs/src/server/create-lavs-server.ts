/**
 * `lavs/call` over HTTP (spec §5.1): `POST /` with a JSON-RPC 2.0 request (or batch), read
 * within `maxRequestBytes` and `bodyTimeoutMs` by core's `readJsonRequest`, answered with HTTP
 * 200 — but for refusals of the request as a whole (too large 413, not JSON 400, wrong media
 * type 415, unauthenticated 401/403), which carry a JSON-RPC error all the same. `GET /manifest`
 * serves `lavs.json`. The app is Web-standard (Hono); `serveLavs` puts it on Node.
 */
import { type Authenticate, readJsonRequest, runAuthenticate } from '@a2ui-ts/core/host';
import { Hono } from 'hono';
import { LavsError, toLavsErrorObject } from '../errors/lavs-error.js';
import { dispatchJsonRpc } from '../protocol/json-rpc.js';
import type { LavsRuntime } from '../runtime/lavs-runtime.js';

/** Options of {@link createLavsServer}. */
export interface LavsServerOptions {
  /** Who calls: a principal for the audit log, or a refusal. @default everyone, principal `null` */
  authenticate?: Authenticate;
  /** Largest request body, in UTF-8 bytes. @default 1048576 */
  maxRequestBytes?: number;
  /** Deadline for a request body, in milliseconds. @default 10000 */
  bodyTimeoutMs?: number;
  /** Most requests in one JSON-RPC batch. @default 16 */
  maxBatchSize?: number;
}

/** Defaults of {@link LavsServerOptions}, in one place. */
export const LAVS_SERVER_DEFAULTS = {
  maxRequestBytes: 1_048_576,
  bodyTimeoutMs: 10_000,
  maxBatchSize: 16,
} as const;

/** HTTP status of a refused request, by core's failure. */
const REFUSAL = {
  'unsupported-media-type': 'INVALID_REQUEST',
  'too-large': 'INVALID_REQUEST',
  timeout: 'INVALID_REQUEST',
  aborted: 'INVALID_REQUEST',
  'invalid-utf8': 'PARSE_ERROR',
  'empty-body': 'PARSE_ERROR',
  'invalid-json': 'PARSE_ERROR',
  auth: 'PERMISSION_DENIED',
} as const;

/**
 * The HTTP app of a LAVS runtime.
 *
 * @param runtime - from `createLavsRuntime`
 * @param options - `authenticate`, `maxRequestBytes`, `bodyTimeoutMs`, `maxBatchSize`
 * @returns a Hono app: `POST /` (JSON-RPC), `GET /manifest`
 *
 * @example
 * ```ts
 * const app = createLavsServer(runtime, { maxRequestBytes: 65_536 });
 * const response = await app.request('/', { method: 'POST', headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'lavs/call', params: { endpoint: 'listTodos' } }) });
 * ```
 */
export function createLavsServer(runtime: LavsRuntime, options: LavsServerOptions = {}): Hono {
  const maxBytes = options.maxRequestBytes ?? LAVS_SERVER_DEFAULTS.maxRequestBytes;
  const authenticate = options.authenticate;
  const host = { authenticate: (request: Request) => runAuthenticate(authenticate, request) };
  const app = new Hono();
  app.get('/manifest', (c) => c.json(runtime.manifest));
  app.post('/', async (c) => {
    const read = await readJsonRequest(c.req.raw, {
      maxBytes,
      timeoutMs: options.bodyTimeoutMs ?? LAVS_SERVER_DEFAULTS.bodyTimeoutMs,
      host,
    });
    if (!read.ok) {
      const { refusal } = read;
      const error = new LavsError(REFUSAL[refusal.failure], refusal.message, {
        data: refusal.failure === 'too-large' ? { maxRequestBytes: maxBytes } : undefined,
      });
      return c.json(
        { jsonrpc: '2.0', id: null, error: toLavsErrorObject(error) },
        refusal.status as 400,
        refusal.headers,
      );
    }
    const answer = await dispatchJsonRpc(read.payload, {
      runtime,
      principal: read.principal ?? null,
      maxBatchSize: options.maxBatchSize ?? LAVS_SERVER_DEFAULTS.maxBatchSize,
    });
    // Notifications only: JSON-RPC 2.0 answers nothing.
    if (answer === undefined) return c.body(null, 204);
    return c.json(answer);
  });
  return app;
}
