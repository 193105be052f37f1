/**
 * Principal scoping of ids that clients choose (an AG-UI `threadId`, an A2A `contextId`): such
 * ids are not secrets, so each principal has ids of its own — another principal's `threadId`
 * names a different session, never theirs. Keys are typed: the principal `1` and the principal
 * `"1"` (or a client key `1` and `"1"`) never share a scope, and no characters of a principal
 * or an id can make two pairs meet.
 */

const encoder = new TextEncoder();
/** Identities of principal keys JSON cannot encode (a cycle, a function, a symbol), per process. */
const identities = new WeakMap<object, string>();
const symbols = new Map<symbol, string>();
let nextIdentity = 0;

function identityOf(value: object | symbol): string {
  const known = typeof value === 'symbol' ? symbols.get(value) : identities.get(value);
  if (known !== undefined) return known;
  const identity = String(nextIdentity++);
  if (typeof value === 'symbol') symbols.set(value, identity);
  else identities.set(value, identity);
  return identity;
}

/**
 * An unambiguous text of `value` with its type: JSON of `[type, text]`, so that `1`, `"1"`, `1n`
 * and `{}` differ and the text of a pair is the JSON of its two parts (no separator to forge).
 * Objects are their JSON (as `defaultIsSamePrincipal` compares them), or their identity when
 * JSON cannot encode them.
 *
 * @param value - a principal key or a client-chosen id
 * @returns the typed text
 *
 * @example
 * ```ts
 * typedKeyText(1) !== typedKeyText('1'); // true
 * ```
 */
export function typedKeyText(value: unknown): string {
  return JSON.stringify(typedParts(value));
}

function typedParts(value: unknown): [string, string] {
  switch (typeof value) {
    case 'string':
      return ['string', value];
    case 'number':
      return ['number', Object.is(value, -0) ? '-0' : String(value)];
    case 'bigint':
    case 'boolean':
    case 'undefined':
      return [typeof value, String(value)];
    case 'symbol': {
      const registered = Symbol.keyFor(value);
      return registered === undefined ? ['identity', identityOf(value)] : ['symbol', registered];
    }
    default: {
      if (value === null) return ['null', ''];
      try {
        const json = JSON.stringify(value);
        if (json !== undefined) return ['json', json];
      } catch {
        // A cycle or a bigint inside: the object is its identity.
      }
      return ['identity', identityOf(value as object)];
    }
  }
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Length of {@link principalScope}'s answer, in characters. */
export const PRINCIPAL_SCOPE_LENGTH = 22;

const scopes = new Map<string, string>();

/**
 * A principal's scope: 22 base64url characters (128 bits of SHA-256 of its typed key), stable
 * across processes for keys JSON can encode; one-way, so a scope does not reveal its principal.
 *
 * @param principalKey - the host's `principalKey(principal)`
 * @returns the scope, 22 characters of `[A-Za-z0-9_-]`
 *
 * @example
 * ```ts
 * const sessionId = `${await principalScope(principalKey(principal))}.${contextId}`;
 * ```
 */
export async function principalScope(principalKey: unknown): Promise<string> {
  const text = typedKeyText(principalKey);
  const known = scopes.get(text);
  if (known) return known;
  const scope = base64url((await sha256(text)).subarray(0, 16));
  // A small memo: principals repeat across a client's requests.
  if (scopes.size >= 1_000) scopes.clear();
  scopes.set(text, scope);
  return scope;
}

/**
 * The session id of a client-chosen key for a principal, of a fixed length whatever the client
 * sent: `prefix` + base64url(SHA-256(typed principal key, typed client key)), 43 characters after
 * the prefix.
 *
 * @param principalKey - the host's `principalKey(principal)` (`undefined` without authentication)
 * @param clientKey - the id the client chose (a string or a number, told apart)
 * @param prefix - what the id starts with (e.g. `agui-`)
 * @returns the session id
 *
 * @example
 * ```ts
 * const id = await scopedClientKey('user:ada', input.threadId, 'agui-'); // 'agui-…', 48 characters
 * ```
 */
export async function scopedClientKey(
  principalKey: unknown,
  clientKey: string | number,
  prefix = '',
): Promise<string> {
  const text = JSON.stringify([typedParts(principalKey), typedParts(clientKey)]);
  return `${prefix}${base64url(await sha256(text))}`;
}
