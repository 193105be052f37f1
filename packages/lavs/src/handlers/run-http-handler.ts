/**
 * The `http` handler (spec §4.3): the input goes to `url` as a JSON body (as the query string
 * for GET and DELETE), within `timeoutMs`, only to hosts `networkAccess` allows — each redirect
 * is checked again before it is followed. The response must be JSON within `maxOutputBytes`.
 */
import { readRequestBody } from '@a2ui-ts/core/host';
import { LavsError } from '../errors/lavs-error.js';
import type { HttpHandler } from '../manifest/manifest-types.js';
import { checkNetworkAccess } from '../permissions/network-access-policy.js';
import type { HandlerRun } from './handler-run.js';

/** Most redirects followed. */
const MAX_REDIRECTS = 5;

/**
 * Runs an http handler.
 *
 * @returns the parsed response body (`null` for an empty one)
 * @throws `LavsError` `PERMISSION_DENIED` (`networkAccess`), `TIMEOUT`, `HANDLER_ERROR` (a
 *   non-2xx status, an unreachable host, a body too large or not JSON)
 */
export async function runHttpHandler(handler: HttpHandler, run: HandlerRun): Promise<unknown> {
  const timeout = AbortSignal.timeout(run.timeoutMs);
  const signal = AbortSignal.any([timeout, run.signal]);
  const bodied = handler.method !== 'GET' && handler.method !== 'DELETE';
  let url = new URL(handler.url);
  if (!bodied) appendQuery(url, run.input);
  let method: string = handler.method;
  let body = bodied ? JSON.stringify(run.input ?? null) : undefined;
  for (let hop = 0; ; hop++) {
    checkNetworkAccess(run.permissions.networkAccess, url);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...handler.headers,
        },
        body,
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      if (timeout.aborted)
        throw new LavsError(
          'TIMEOUT',
          `${run.endpointId} got no answer within ${run.timeoutMs} ms`,
          {
            data: { permission: 'maxExecutionTime', timeoutMs: run.timeoutMs },
          },
        );
      throw new LavsError('HANDLER_ERROR', 'the HTTP endpoint could not be reached', {
        cause: error,
      });
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new LavsError('HANDLER_ERROR', 'too many redirects');
      url = new URL(location, url);
      // 303 (and, as browsers do, 301/302 after a POST) turn into a GET without a body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }
    return readJsonResponse(response, run);
  }
}

/** The response's JSON, bounded. */
async function readJsonResponse(response: Response, run: HandlerRun): Promise<unknown> {
  const read = await readRequestBody(response, {
    maxBytes: run.maxOutputBytes,
    timeoutMs: run.timeoutMs,
  });
  if (!response.ok)
    throw new LavsError('HANDLER_ERROR', `the HTTP endpoint answered ${response.status}`, {
      data: { status: response.status },
    });
  if (!read.ok)
    throw new LavsError(
      read.reason === 'timeout' ? 'TIMEOUT' : 'HANDLER_ERROR',
      read.reason === 'too-large'
        ? `the response is larger than ${run.maxOutputBytes} bytes`
        : `the response could not be read (${read.reason})`,
    );
  if (read.text.trim() === '') return null;
  try {
    return JSON.parse(read.text);
  } catch (error) {
    throw new LavsError('HANDLER_ERROR', 'the HTTP endpoint did not answer JSON', { cause: error });
  }
}

/** Adds an object input's scalar fields to the query string. */
function appendQuery(url: URL, input: unknown): void {
  if (typeof input !== 'object' || input === null) return;
  for (const [key, value] of Object.entries(input))
    if (value !== undefined && value !== null)
      url.searchParams.append(key, typeof value === 'string' ? value : JSON.stringify(value));
}
