/**
 * Which protocol version a surface speaks, for the few components whose catalog changed in v1.0
 * (`Text` lost `h1`–`h5`, `TextField` lost `validationRegexp`).
 */
import type { Surface } from '@a2ui-ts/core';

/** The v1.0 basic catalog (`v1_0/catalogs/basic/catalog.json`), rendered by the built-ins. */
export const BASIC_CATALOG_V1_ID =
  'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

/** A version name (`v1.0`, `1.0`) or a version module (`{name, family}`) of the v1 family. */
function isV1Name(version: unknown): boolean {
  if (typeof version === 'string') return /^v?1\./.test(version);
  if (typeof version === 'object' && version !== null) {
    const { family, name } = version as { family?: unknown; name?: unknown };
    return isV1Name(family ?? name);
  }
  return false;
}

/**
 * True when `surface` was created by a v1.0 message (the version it remembers), or — for a
 * surface that does not say — when its catalog is the v1.0 basic catalog.
 */
export function isV1Surface(surface: Surface): boolean {
  const remembered = surface as unknown as { protocolVersion?: unknown; version?: unknown };
  const version = remembered.protocolVersion ?? remembered.version;
  if (version !== undefined) return isV1Name(version);
  return surface.catalogId === BASIC_CATALOG_V1_ID;
}
