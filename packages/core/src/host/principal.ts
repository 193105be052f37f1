/**
 * Authentication as every server binding applies it (ARCHITECTURE §3 item 6): the binding's
 * `authenticate(request)` hook returns a principal, a new connection is bound to it, and every
 * later request on the connection must come from the same principal.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/** A binding's authentication hook: the principal of `request`, or a refusal. */
export type Authenticate = (request: Request) => unknown | Promise<unknown>;

/** Outcome of {@link runAuthenticate}. */
export type AuthenticationResult =
  | { readonly ok: true; readonly principal: unknown }
  | { readonly ok: false; readonly error: A2uiError };

/**
 * The default `isSamePrincipal`: `Object.is`, or, for two objects, equal `JSON.stringify` output
 * (so `{ user: 'ada' }` from two requests matches).
 *
 * @param bound - the principal the connection was created with
 * @param current - the principal of the request at hand
 * @returns whether `current` owns the connection
 *
 * @example
 * ```ts
 * defaultIsSamePrincipal({ user: 'ada' }, { user: 'ada' }); // true
 * defaultIsSamePrincipal('ada', 'bob'); // false
 * ```
 */
export function defaultIsSamePrincipal(bound: unknown, current: unknown): boolean {
  if (Object.is(bound, current)) return true;
  if (
    typeof bound !== 'object' ||
    typeof current !== 'object' ||
    bound === null ||
    current === null
  )
    return false;
  try {
    return JSON.stringify(bound) === JSON.stringify(current);
  } catch {
    return false;
  }
}

/**
 * The default `principalKey`, consistent with {@link defaultIsSamePrincipal}: the principal itself
 * for primitives, `json:` and its JSON for objects (the object itself when JSON cannot encode it).
 * A string that starts with `json:` or `str:` gets `str:` before it, so no string principal has
 * an object's key.
 *
 * @param principal - what `authenticate` returned
 * @returns the key connections are counted under for `maxSessionsPerPrincipal`
 *
 * @example
 * ```ts
 * defaultPrincipalKey({ user: 'ada' }) === defaultPrincipalKey({ user: 'ada' }); // true
 * ```
 */
export function defaultPrincipalKey(principal: unknown): unknown {
  if (typeof principal === 'string')
    return /^(json|str):/.test(principal) ? `str:${principal}` : principal;
  if (typeof principal !== 'object' || principal === null) return principal;
  try {
    return `json:${JSON.stringify(principal)}`;
  } catch {
    return principal;
  }
}

/**
 * Runs `authenticate` on `request`. `undefined`, `null` or `false`, or a thrown
 * `A2uiError('UNAUTHORIZED')`, refuse with `UNAUTHORIZED` (HTTP 401); a thrown
 * `A2uiError('FORBIDDEN')` with `FORBIDDEN` (403); anything else thrown is logged and refuses with
 * `INTERNAL_ERROR` (500). Without a hook every request is accepted with principal `undefined`.
 *
 * @example
 * ```ts
 * const result = await runAuthenticate(options.authenticate, request);
 * if (!result.ok) return errorResponse(result.error);
 * ```
 */
export async function runAuthenticate(
  authenticate: Authenticate | undefined,
  request: Request,
): Promise<AuthenticationResult> {
  if (!authenticate) return { ok: true, principal: undefined };
  try {
    const principal = await authenticate(request);
    if (principal === undefined || principal === null || principal === false) {
      return { ok: false, error: new A2uiError('UNAUTHORIZED', 'Authentication is required.') };
    }
    return { ok: true, principal };
  } catch (error) {
    if (
      A2uiError.isInstance(error) &&
      (error.code === 'UNAUTHORIZED' || error.code === 'FORBIDDEN')
    ) {
      return { ok: false, error };
    }
    console.error('[a2ui] authenticate() failed:', error);
    return {
      ok: false,
      error: new A2uiError('INTERNAL_ERROR', 'Authentication failed with an internal error.', {
        cause: error,
      }),
    };
  }
}
