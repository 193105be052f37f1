/**
 * Version negotiation on the wire (issue 20, "Negotiation on the wire"): a client offers the A2UI
 * versions it speaks, the server answers with the one both speak. Every binding offers and answers
 * in its own way (WebSocket subprotocols, a query parameter or header, A2A extension URIs, AG-UI
 * `forwardedProps`; see `docs/wire-formats.md`) and decides with the one rule here, so no two
 * bindings can pick differently.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { defaultProtocolVersions } from './protocol-versions.js';

/**
 * The versions a server speaks unless told otherwise (`a2uiVersions` of every binding's server),
 * newest first: the order is the server's preference.
 */
export const DEFAULT_A2UI_VERSIONS: readonly string[] = Object.freeze([
  'v1.0',
  'v0.9.1',
  'v0.9',
  'v0.8',
]);

/**
 * A version token, strictly: `v`, then `MAJOR.MINOR` and an optional `.PATCH`, each a decimal
 * number without leading zeros and at most 6 digits (`v1.0`, `v0.9.1`, `v1.10.0`). Nothing else —
 * no `1.0`, no `V1.0`, no spaces — so two bindings never read one token two ways.
 */
const WIRE_VERSION_PATTERN = /^v(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})(?:\.(0|[1-9]\d{0,5}))?$/;

/** Most tokens one offer may hold; a longer list is refused rather than scanned. */
export const MAX_OFFERED_VERSIONS = 32;

/** A parsed version token: `v1.10` is `{major: 1, minor: 10, patch: 0}`. */
export interface WireVersion {
  readonly major: number;
  readonly minor: number;
  /** @default 0 when the token has no patch (`v0.8` equals `v0.8.0`) */
  readonly patch: number;
}

/**
 * Parses one version token ({@link WIRE_VERSION_PATTERN}).
 *
 * @param token - e.g. `"v0.9.1"`
 * @returns its numbers
 * @throws A2uiError `VALIDATION_FAILED` (HTTP 400) for anything that is not `vMAJOR.MINOR[.PATCH]`
 *
 * @example
 * ```ts
 * parseWireVersion('v1.10.0'); // { major: 1, minor: 10, patch: 0 }
 * ```
 */
export function parseWireVersion(token: string): WireVersion {
  const match = typeof token === 'string' ? WIRE_VERSION_PATTERN.exec(token) : null;
  if (!match) {
    const shown = typeof token === 'string' ? JSON.stringify(token.slice(0, 32)) : typeof token;
    throw new A2uiError(
      'VALIDATION_FAILED',
      `A2UI version ${shown} is not a version token (vMAJOR.MINOR or vMAJOR.MINOR.PATCH, e.g. "v0.9").`,
      { data: { field: 'a2uiVersions' } },
    );
  }
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? 0) };
}

/**
 * Orders two version tokens numerically (`v1.10` after `v1.2`): negative when `a` is older.
 * @throws A2uiError `VALIDATION_FAILED` as {@link parseWireVersion}
 */
export function compareWireVersions(a: string, b: string): number {
  const left = parseWireVersion(a);
  const right = parseWireVersion(b);
  return left.major - right.major || left.minor - right.minor || left.patch - right.patch;
}

/**
 * Reads the comma-separated list of a query parameter or header (`v1.0,v0.9` or `v1.0, v0.9`),
 * in the client's order, each token parsed strictly.
 *
 * @throws A2uiError `VALIDATION_FAILED` for an empty list, an empty entry, a malformed token, or
 *   more than {@link MAX_OFFERED_VERSIONS} tokens
 *
 * @example
 * ```ts
 * parseWireVersionList('v1.0, v0.9'); // ['v1.0', 'v0.9']
 * ```
 */
export function parseWireVersionList(list: string): string[] {
  const tokens = list.split(',').map((token) => token.trim());
  if (tokens.length > MAX_OFFERED_VERSIONS)
    throw new A2uiError(
      'VALIDATION_FAILED',
      `At most ${MAX_OFFERED_VERSIONS} A2UI versions may be offered.`,
      { data: { field: 'a2uiVersions' } },
    );
  for (const token of tokens) parseWireVersion(token);
  return tokens;
}

/** What {@link negotiateWireVersions} decided. */
export interface WireNegotiation {
  /** The version both speak that the server prefers most: the one the agent emits. */
  readonly version: string;
  /** Every version both speak, in the server's preference order (`version` first). */
  readonly versions: readonly string[];
}

/**
 * Picks the version of a connection: the first version of `supported` (the server's list, in its
 * preference order — newest first by default) that `offered` holds too. Tokens are compared by
 * their numbers (`v0.8` is `v0.8.0`) and answered in the server's spelling; offered versions the
 * server does not know are ignored. Pure: it reads nothing else.
 *
 * @param offered - the client's versions, in any order (see each binding for how it offers them)
 * @param supported - the server's versions, most preferred first (`a2uiVersions`)
 * @returns the chosen version and every shared one
 * @throws A2uiError `NOT_SUPPORTED` (`data.httpStatus` 406, `data.offered`, `data.supported`) when
 *   no version is shared; `VALIDATION_FAILED` for a malformed token on either side
 *
 * @example
 * ```ts
 * negotiateWireVersions(['v0.9', 'v1.0'], ['v1.0', 'v0.9.1', 'v0.9', 'v0.8']);
 * // { version: 'v1.0', versions: ['v1.0', 'v0.9'] }
 * ```
 */
export function negotiateWireVersions(
  offered: readonly string[],
  supported: readonly string[],
): WireNegotiation {
  if (offered.length > MAX_OFFERED_VERSIONS) parseWireVersionList(offered.join(','));
  const offeredKeys = new Set(offered.map((token) => versionKey(parseWireVersion(token))));
  const versions = supported.filter((token) =>
    offeredKeys.has(versionKey(parseWireVersion(token))),
  );
  const version = versions[0];
  if (version === undefined) throw versionsNotShared(offered, supported);
  return { version, versions };
}

/**
 * The refusal when client and server share no version: `NOT_SUPPORTED`, HTTP 406, with the
 * server's list so the client can tell its user what to upgrade.
 */
export function versionsNotShared(
  offered: readonly string[],
  supported: readonly string[],
): A2uiError {
  const shown = offered.slice(0, 8).join(', ') || '(none)';
  return new A2uiError(
    'NOT_SUPPORTED',
    `No A2UI version in common: the client offers ${shown}; this server speaks ${supported.join(', ')}.`,
    {
      data: {
        httpStatus: 406,
        offered: offered.slice(0, MAX_OFFERED_VERSIONS),
        supported: [...supported],
      },
    },
  );
}

/**
 * Checks a server's `a2uiVersions` option: a non-empty list of distinct versions this engine
 * speaks (registered `ProtocolVersion` names: `v0.8`, `v0.9`, `v0.9.1`, `v1.0`).
 *
 * @returns the list, frozen; {@link DEFAULT_A2UI_VERSIONS} when `versions` is undefined
 * @throws A2uiError `VALIDATION_FAILED` (`data.field: 'a2uiVersions'`) for an empty list, a
 *   duplicate, a malformed token or a version core does not speak
 */
export function resolveA2uiVersions(versions: readonly string[] | undefined): readonly string[] {
  if (versions === undefined) return DEFAULT_A2UI_VERSIONS;
  const invalid = (message: string) =>
    new A2uiError('VALIDATION_FAILED', `a2uiVersions: ${message}`, {
      data: { field: 'a2uiVersions' },
    });
  if (!Array.isArray(versions) || versions.length === 0)
    throw invalid('list at least one version.');
  const seen = new Set<string>();
  for (const token of versions) {
    const key = versionKey(parseWireVersion(token));
    if (seen.has(key)) throw invalid(`${token} is listed twice.`);
    seen.add(key);
    if (!defaultProtocolVersions.names.includes(token))
      throw invalid(
        `this engine does not speak ${token} (it speaks ${DEFAULT_A2UI_VERSIONS.join(', ')}).`,
      );
  }
  return Object.freeze([...versions]);
}

/**
 * Checks a client's `offeredVersions` option (every binding's client connector).
 *
 * @returns the list as given; {@link DEFAULT_A2UI_VERSIONS} when `offered` is undefined
 * @throws A2uiError `VALIDATION_FAILED` (`data.field: 'offeredVersions'`) for an empty list, more
 *   than {@link MAX_OFFERED_VERSIONS} entries or a malformed token
 */
export function resolveOfferedVersions(offered: readonly string[] | undefined): readonly string[] {
  if (offered === undefined) return DEFAULT_A2UI_VERSIONS;
  if (!Array.isArray(offered) || offered.length === 0 || offered.length > MAX_OFFERED_VERSIONS)
    throw new A2uiError(
      'VALIDATION_FAILED',
      `offeredVersions: offer 1 to ${MAX_OFFERED_VERSIONS} A2UI versions.`,
      { data: { field: 'offeredVersions' } },
    );
  for (const version of offered) parseWireVersion(version);
  return Object.freeze([...offered]);
}

function versionKey(version: WireVersion): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}
