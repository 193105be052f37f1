/**
 * A bearer token carried in a `Sec-WebSocket-Protocol` value, for browsers, whose `WebSocket`
 * cannot set an `Authorization` header. Subprotocol values must be HTTP tokens, so the token's
 * UTF-8 is base64url-encoded (no padding) behind {@link WS_BEARER_PROTOCOL_PREFIX}.
 */
import { WS_BEARER_PROTOCOL_PREFIX } from './wire.js';

/**
 * The subprotocol value carrying `token`.
 *
 * @example
 * ```ts
 * bearerProtocol('abc'); // 'a2ui.bearer.YWJj'
 * ```
 */
export function bearerProtocol(token: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(token)) binary += String.fromCharCode(byte);
  const base64url = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${WS_BEARER_PROTOCOL_PREFIX}${base64url}`;
}

/**
 * The token of a {@link bearerProtocol} value, or `undefined` when `protocol` is not one (or is
 * not valid base64url of UTF-8).
 */
export function tokenOfBearerProtocol(protocol: string): string | undefined {
  if (!protocol.startsWith(WS_BEARER_PROTOCOL_PREFIX)) return undefined;
  const encoded = protocol.slice(WS_BEARER_PROTOCOL_PREFIX.length);
  if (encoded.length === 0 || !/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
