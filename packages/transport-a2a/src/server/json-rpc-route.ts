/**
 * The A2A JSON-RPC endpoint as a Web-standard handler (`a2a-mcp-lavs.md` §1.8): what the SDK's
 * Express `jsonRpcHandler` does, without Express. It authenticates with the session host, reads
 * the body within a size and a deadline, routes v0.3 method names (`message/send`, …) to the
 * SDK's compat handler and v1.0 ones to its v1.0 handler, checks `A2A-Version` against the card,
 * builds the call context (extensions, user, headers, the principal), echoes the activated
 * extensions, and streams SSE: it waits for the first event before committing to a stream (so an
 * early refusal is a plain JSON-RPC error), writes `: ping` comments while a stream is idle,
 * writes `event: error` on a failure mid-stream, and ends the generator when the client leaves.
 */

import {
  A2A_VERSION_HEADER,
  Extensions,
  formatSSEErrorEvent,
  formatSSEEvent,
  HTTP_EXTENSION_HEADER,
} from '@a2a-js/sdk';
import { isLegacyJsonRpcMethod, LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { A2A_ERROR_CODE, A2AError } from '@a2a-js/sdk/errors';
import {
  type A2ARequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
} from '@a2a-js/sdk/server';
import { A2uiError, isRecord } from '@a2ui-ts/core';
import {
  type AuthenticationResult,
  checkRequestDepth,
  type InboundLimits,
  readJsonRequest,
  toHttpError,
} from '@a2ui-ts/core/host';
import type { Context } from 'hono';
import {
  A2A_CODE_OF_REFUSAL,
  a2aErrorRowOf,
  INTERNAL_ERROR_TEXT,
  toA2aError,
} from '../protocol/a2a-errors.js';
import { STATE_KEYS } from './a2a-binding.js';
import { checkRpcRequest } from './check-rpc-request.js';

/** Options of {@link createJsonRpcRoute}. */
export interface JsonRpcRouteOptions {
  /** The SDK request handler (an `A2uiRequestHandler`, or any other). */
  readonly handler: A2ARequestHandler;
  /** Authenticates a request (the session host's `authenticate`). */
  readonly authenticate: (request: Request) => Promise<AuthenticationResult>;
  readonly maxRequestBytes: number;
  readonly bodyTimeoutMs: number;
  readonly keepAliveIntervalMs: number;
  /** Whether requests are authenticated (the SDK's user is then `isAuthenticated`). */
  readonly authenticated: boolean;
  /** The SDK user name of a principal (its task store and event buses are scoped by it). */
  readonly userName: (principal: unknown) => string;
  /** `maxRequestDepth` (and `maxMetadataDepth`, its default's base). @default core's defaults */
  readonly limits?: InboundLimits;
}

/** Response headers of an event stream. */
const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  // Streams at once on Node (the adapter otherwise probes the body for a Content-Length first).
  'Transfer-Encoding': 'chunked',
};

type JsonRpcAnswer = { jsonrpc: '2.0'; id: unknown; error?: unknown; result?: unknown };
type Mapper = (error: unknown) => unknown;

/**
 * Creates the `POST` handler of the A2A endpoint.
 *
 * @example
 * ```ts
 * app.post('/', createJsonRpcRoute({ handler, authenticate: (request) => host.authenticate(request), maxRequestBytes: 1_048_576, bodyTimeoutMs: 10_000, keepAliveIntervalMs: 15_000, authenticated: false, userName: String }));
 * ```
 */
export function createJsonRpcRoute(
  options: JsonRpcRouteOptions,
): (c: Context) => Promise<Response> {
  const { handler } = options;
  const v1 = new JsonRpcTransportHandler(handler);
  const v03 = new LegacyJsonRpcTransportHandler(handler);
  const mapV1: Mapper = (error) => JsonRpcTransportHandler.mapToJSONRPCError(error);
  const mapV03: Mapper = (error) => LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error);
  const bodyLimits = {
    maxBytes: options.maxRequestBytes,
    timeoutMs: options.bodyTimeoutMs,
    host: { authenticate: options.authenticate },
  };

  return async (c) => {
    const request = c.req.raw;
    const versionHeader = c.req.header(A2A_VERSION_HEADER);
    let map = versionHeader === undefined || versionHeader === '0.3' ? mapV03 : mapV1;
    const refuse = (error: A2uiError, id: unknown = null) => {
      const row = a2aErrorRowOf(error);
      const headers = toHttpError(error).headers;
      return c.json(
        { jsonrpc: '2.0', id, error: withA2uiDetail(map(toA2aError(error)), error) },
        row.httpStatus as 200,
        headers,
      );
    };
    /** A JSON-RPC error answered before the request has an id (HTTP 200, A2A's convention). */
    const rpcError = (code: number, message: string, status = 200) =>
      c.json({ jsonrpc: '2.0', id: null, error: { code, message } }, status as 200);

    const read = await readJsonRequest(request, { ...bodyLimits, signal: request.signal });
    if (!read.ok) {
      // Core's table gives the status and message; the JSON-RPC code is A2A's own.
      const { refusal } = read;
      const code = A2A_CODE_OF_REFUSAL[refusal.code];
      if (code !== undefined || !refusal.error)
        return rpcError(code ?? A2A_ERROR_CODE.INVALID_REQUEST, refusal.message, refusal.status);
      return refuse(refusal.error);
    }
    const { payload, principal } = read;
    // Before the SDK walks it: its conversions recurse, and so does writing the answer's `id`.
    const tooDeep = checkRequestDepth(payload, options.limits);
    if (tooDeep) {
      // As the binding's other paths, relative to `params` (`/message/parts/0/data/…`).
      const path = tooDeep.path.replace(/^\/params(?=\/|$)/, '');
      return refuse(new A2uiError('VALIDATION_FAILED', tooDeep.message, { path }));
    }
    const problem = checkRpcRequest(payload);
    if (problem?.code === -32600) return rpcError(problem.code, problem.message);
    const method = isRecord(payload) ? payload.method : undefined;
    const id = isRecord(payload) && 'id' in payload ? payload.id : null;
    const legacy = isLegacyJsonRpcMethod(method);
    map = legacy ? mapV03 : mapV1;
    if (problem)
      return refuse(
        new A2uiError('VALIDATION_FAILED', problem.message, { path: problem.path }),
        id,
      );

    const abort = new AbortController();
    request.signal.addEventListener('abort', () => abort.abort(), { once: true });
    const extensionsHeader = legacy
      ? (c.req.header(LEGACY_HTTP_EXTENSION_HEADER) ?? c.req.header(HTTP_EXTENSION_HEADER))
      : (c.req.header(HTTP_EXTENSION_HEADER) ?? c.req.header(LEGACY_HTTP_EXTENSION_HEADER));
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const context = new ServerCallContext({
      requestedExtensions: Extensions.parseServiceParameter(extensionsHeader),
      user: {
        isAuthenticated: options.authenticated,
        userName: options.authenticated ? options.userName(principal) : '',
      },
      requestedVersion: versionHeader,
      state: new Map<string, unknown>([
        [STATE_KEYS.headers, headers],
        [STATE_KEYS.principal, principal],
        [STATE_KEYS.signal, abort.signal],
      ]),
    });
    try {
      validateVersion(context.requestedVersion, await handler.getAgentCard(), 'JSONRPC');
    } catch (error) {
      return c.json({ jsonrpc: '2.0', id, error: map(error) });
    }

    const answer = await (legacy ? v03 : v1).handle(payload as Record<string, unknown>, context);
    /** What the handler refused the request with, if it did (see `STATE_KEYS.refusal`). */
    const refusal = () => context.state.get(STATE_KEYS.refusal) as A2uiError | undefined;
    /** Headers read once the handler ran (for a stream: once its first event came). */
    const headersOf = (failed: boolean): Record<string, string> => {
      const result: Record<string, string> = {};
      if (context.activatedExtensions?.length) {
        result[legacy ? LEGACY_HTTP_EXTENSION_HEADER : HTTP_EXTENSION_HEADER] =
          Extensions.toServiceParameter(context.activatedExtensions);
      }
      const refused = failed ? refusal() : undefined;
      return refused ? { ...result, ...toHttpError(refused).headers } : result;
    };
    const statusOf = (failed: boolean): number => {
      const refused = failed ? refusal() : undefined;
      return refused ? a2aErrorRowOf(refused).httpStatus : 200;
    };

    if (!isAsyncIterable(answer)) {
      const single = answer as JsonRpcAnswer;
      const failed = single.error !== undefined;
      if (failed)
        single.error = withA2uiDetail(withoutInternalText(single.error, refusal()), refusal());
      return c.json(single, statusOf(failed) as 200, headersOf(failed));
    }
    const iterator = answer[Symbol.asyncIterator]();
    let first: IteratorResult<unknown>;
    try {
      first = await iterator.next();
    } catch (error) {
      abort.abort();
      return c.json(
        {
          jsonrpc: '2.0',
          id,
          error: withA2uiDetail(map(publicError(error)), refusal()),
        },
        statusOf(true) as 200,
        headersOf(true),
      );
    }
    return new Response(
      eventStream(iterator, first, {
        id,
        map,
        keepAliveIntervalMs: options.keepAliveIntervalMs,
        abort,
      }),
      { status: 200, headers: { ...SSE_HEADERS, ...headersOf(false) } },
    );
  };
}

/**
 * Adds the A2UI detail of `refusal` to a JSON-RPC error the SDK wrote without one (it writes
 * `google.rpc.ErrorInfo` only for A2A's own errors): a v1.0 `ErrorInfo` with domain `a2ui.org`.
 */
function withA2uiDetail(error: unknown, refusal: A2uiError | undefined): unknown {
  if (!refusal || !isRecord(error) || error.data !== undefined) return error;
  const metadata: Record<string, string> = { a2uiCode: refusal.code };
  if (refusal.path !== undefined) metadata.path = refusal.path;
  const retryAfterMs = refusal.data?.retryAfterMs;
  if (typeof retryAfterMs === 'number') metadata.retryAfterMs = String(retryAfterMs);
  return {
    ...error,
    data: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: refusal.code,
        domain: 'a2ui.org',
        metadata,
      },
    ],
  };
}

/** What a client reads for an unexpected failure: never the exception's own text. */
export const INTERNAL_ERROR_MESSAGE = INTERNAL_ERROR_TEXT;

/**
 * What the SDK may write for `error`: an A2A error as it is, an `A2uiError` as its A2A error (code
 * and detail of `A2UI_TO_A2A_ERRORS`), anything else as a generic internal error.
 */
function publicError(error: unknown): unknown {
  return error instanceof A2AError ? error : toA2aError(error);
}

/**
 * `error` with a generic message when it is the SDK's answer to an unexpected exception: −32603
 * without `data` (every refusal of the SDK or of this binding carries an `ErrorInfo` or the A2UI
 * detail, or is a `refusal` of the handler), whose message is the exception's text (`taskId.trim is not a function`, a stack-ish
 * `Cannot read properties…`), which says nothing useful to a client and something to an attacker.
 */
function withoutInternalText(error: unknown, refusal: A2uiError | undefined): unknown {
  if (refusal || !isRecord(error) || error.code !== -32603 || error.data !== undefined)
    return error;
  return { ...error, message: INTERNAL_ERROR_MESSAGE };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof (value as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] === 'function'
  );
}

/**
 * The SSE body of a streaming answer: one `data:` event per JSON-RPC response, pulled from the
 * SDK's generator only as fast as the client reads (so a slow client holds nothing here), `: ping`
 * while it waits, `event: error` if it fails.
 */
function eventStream(
  iterator: AsyncIterator<unknown>,
  first: IteratorResult<unknown>,
  options: { id: unknown; map: Mapper; keepAliveIntervalMs: number; abort: AbortController },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next: Promise<IteratorResult<unknown>> | undefined = Promise.resolve(first);
  let finished = false;
  const finish = () => {
    finished = true;
    options.abort.abort();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        next ??= iterator.next();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const tick = new Promise<'tick'>((resolve) => {
          timer = setTimeout(() => resolve('tick'), options.keepAliveIntervalMs);
        });
        try {
          const result = await Promise.race([next, tick]);
          if (result === 'tick') {
            controller.enqueue(encoder.encode(': ping\n\n'));
            return;
          }
          next = undefined;
          if (result.done) {
            finish();
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(formatSSEEvent(result.value)));
        } catch (error) {
          next = undefined;
          const envelope = {
            jsonrpc: '2.0',
            id: options.id,
            error: options.map(publicError(error)),
          };
          controller.enqueue(encoder.encode(formatSSEErrorEvent(envelope)));
          finish();
          controller.close();
        } finally {
          clearTimeout(timer);
        }
      },
      async cancel() {
        if (finished) return;
        finish();
        // The generators watch the request's signal, so a pending `next` settles and this returns.
        await iterator.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
