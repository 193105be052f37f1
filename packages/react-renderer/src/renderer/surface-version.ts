/**
 * Which protocol version a surface speaks, for the few components whose catalog changed in v1.0
 * (`Text` lost `h1`–`h5`, `TextField` lost `validationRegexp`).
 */
import type { Surface } from '@a2ui-ts/core';

/** True when `surface` was created in a version of the v1.0 family (the version it remembers). */
export function isV1Surface(surface: Surface): boolean {
  return surface.protocolVersion.family === 'v1.0';
}
