/**
 * What happens to a WebSocket handshake before the upgrade: the checks that refuse it with an
 * HTTP status (bad handshake, Origin, authentication, resume parameters), the Web `Request` the
 * `authenticate` hook sees, and the refusal itself, written on the raw socket as a JSON body.
 */

import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { isConnectionId } from '@a2ui-ts/core';
import { HttpRefusal } from '@a2ui-ts/core/host';
import { tokenOfBearerProtocol } from '../protocol/bearer-token.js';
import { WS_QUERY } from '../protocol/wire.js';

/** Where a token may travel instead of an `Authorization` header. */
export type TokenLocation = 'subprotocol' | 'query';

/**
 * Which `Origin`s may open a socket. Browsers send cookies with cross-site WebSocket handshakes
 * and no CORS applies, so a page of any site could use a user's session otherwise.
 * - `'same-origin'`: the `Origin` must name the handshake's own `Host`;
 * - `'*'`: any;
 * - a list of origins (`https://app.example.com`), compared exactly, case-insensitively;
 * - a function deciding per request (`origin` is `undefined` without the header).
 * A handshake without `Origin` (not from a browser) is allowed by every form but a function.
 */
export type AllowedOrigins =
  | 'same-origin'
  | '*'
  | readonly string[]
  | ((origin: string | undefined, request: IncomingMessage) => boolean);

/** Sec-WebSocket-Key: 16 bytes, base64 (RFC 6455 §4.1), as `ws` checks it. */
const KEY_PATTERN = /^[+/0-9A-Za-z]{22}==$/;

const badRequest = (message: string) => new HttpRefusal(400, 'VALIDATION_FAILED', message);

/** The checks `ws` would make, made first, so that no session is opened for a broken handshake. */
export function checkHandshake(request: IncomingMessage): void {
  if (request.method !== 'GET')
    throw new HttpRefusal(405, 'VALIDATION_FAILED', 'A WebSocket handshake is a GET.', {
      Allow: 'GET',
    });
  if (request.headers.upgrade?.toLowerCase() !== 'websocket')
    throw badRequest('The Upgrade header must be "websocket".');
  if (!KEY_PATTERN.test(request.headers['sec-websocket-key'] ?? ''))
    throw badRequest('Missing or invalid Sec-WebSocket-Key header.');
  const version = request.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8')
    throw new HttpRefusal(400, 'VALIDATION_FAILED', 'Sec-WebSocket-Version must be 13.', {
      'Sec-WebSocket-Version': '13, 8',
    });
}

/** Refuses a handshake whose `Origin` is not allowed. */
export function checkOrigin(request: IncomingMessage, allowed: AllowedOrigins): void {
  const origin = request.headers.origin;
  let ok: boolean;
  if (typeof allowed === 'function') ok = allowed(origin, request);
  else if (origin === undefined || allowed === '*') ok = true;
  else if (allowed === 'same-origin') ok = hostOf(origin) === request.headers.host?.toLowerCase();
  else {
    const normalized = origin.toLowerCase().replace(/\/+$/, '');
    ok = allowed.some((entry) => entry.toLowerCase().replace(/\/+$/, '') === normalized);
  }
  if (!ok)
    throw new HttpRefusal(
      403,
      'FORBIDDEN',
      `Origin ${origin === undefined ? '(none)' : JSON.stringify(origin)} is not allowed.`,
    );
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** What the handshake asks for. */
export interface ResumeRequest {
  /** The connection to resume, if any. */
  readonly connectionId: string | undefined;
  /** A2UI messages the client applied. */
  readonly lastSeq: number;
}

/** Reads `connectionId` and `lastSeq` from the handshake URL. */
export function parseResumeQuery(url: URL): ResumeRequest {
  const connectionId = url.searchParams.get(WS_QUERY.connectionId) ?? undefined;
  const lastSeq = url.searchParams.get(WS_QUERY.lastSeq) ?? undefined;
  if (connectionId !== undefined && !isConnectionId(connectionId))
    throw badRequest(`${WS_QUERY.connectionId} is not a connection id.`);
  if (lastSeq !== undefined && !/^\d{1,15}$/.test(lastSeq))
    throw badRequest(`${WS_QUERY.lastSeq} must be a non-negative integer.`);
  return { connectionId, lastSeq: lastSeq === undefined ? 0 : Number(lastSeq) };
}

/** The URL of a handshake (`http:` or `https:`, as the `Request` of `authenticate` has it). */
export function handshakeUrl(request: IncomingMessage): URL {
  const secure = (request.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  try {
    return new URL(
      request.url ?? '/',
      `${secure ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`,
    );
  } catch {
    throw badRequest('The handshake URL or Host header is malformed.');
  }
}

/**
 * The Web `Request` the `authenticate` hook sees: the handshake's URL and headers. A token in the
 * subprotocol (`a2ui.bearer.<base64url>`) or, when accepted, in the `access_token` query
 * parameter becomes `Authorization: Bearer <token>` unless the handshake has that header, so the
 * same hook serves every transport.
 */
export function toAuthenticationRequest(
  request: IncomingMessage,
  url: URL,
  acceptTokenIn: readonly TokenLocation[],
): Request {
  const headers = new Headers();
  try {
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
  } catch {
    throw badRequest('A handshake header is malformed.');
  }
  if (!headers.has('authorization')) {
    const token = tokenOf(request, url, acceptTokenIn);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  }
  return new Request(url, { method: 'GET', headers });
}

function tokenOf(
  request: IncomingMessage,
  url: URL,
  acceptTokenIn: readonly TokenLocation[],
): string | undefined {
  if (acceptTokenIn.includes('subprotocol')) {
    for (const protocol of (request.headers['sec-websocket-protocol'] ?? '').split(',')) {
      const token = tokenOfBearerProtocol(protocol.trim());
      if (token !== undefined) return token;
    }
  }
  if (acceptTokenIn.includes('query')) {
    const token = url.searchParams.get(WS_QUERY.accessToken);
    if (token) return token;
  }
  return undefined;
}

/**
 * Answers a handshake with an HTTP error and a JSON body `{"error": {"code", "message"}}`, then
 * closes the socket.
 */
export function writeRefusal(socket: Duplex, refusal: HttpRefusal): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({
    error: { code: refusal.code, message: refusal.message, ...refusal.details },
  });
  const headers: Record<string, string | number> = {
    Connection: 'close',
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    ...refusal.headers,
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\n${head}\r\n\r\n${body}`,
  );
}
