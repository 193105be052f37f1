/** Unguessable connection ids (ARCHITECTURE §3 item 6). */

/** Bytes of randomness in a connection id: 16 bytes = 128 bits. */
export const CONNECTION_ID_BYTES = 16;

/**
 * A new connection id: 128 bits from `crypto.getRandomValues`, base64url (22 characters).
 * Works in Node 20+, browsers and edge runtimes.
 */
export function createConnectionId(): string {
  const bytes = new Uint8Array(CONNECTION_ID_BYTES);
  crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** True for a string shaped like {@link createConnectionId}'s output. */
export function isConnectionId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);
}
