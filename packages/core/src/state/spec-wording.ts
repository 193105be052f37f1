/**
 * The sentences of our errors that tools match on: each begins with the official wording the
 * conformance suite expects (`core/message_processor.yaml`), then says what to do, so that both a
 * person and a tool matching spec wording understand it. One place, so that the v0.9 and v1.0
 * appliers say the same thing.
 */

/** `createSurface` for a surface that exists (`SURFACE_EXISTS`). */
export const surfaceExistsMessage = (surfaceId: string): string =>
  `Surface ${surfaceId} already exists; send deleteSurface before creating it again.`;

/** A message for a surface that does not exist (`SURFACE_NOT_FOUND`). */
export const surfaceNotFoundMessage = (surfaceId: string, kind: string): string =>
  `Surface not found for message: ${surfaceId} (${kind} names a surface that does not exist; send createSurface first).`;

/** A component without an `id`. */
export const missingIdMessage = (index: number): string =>
  `Component ${index} is missing an 'id': every component needs a string "id".`;

/** A component without a `component` type. */
export const missingTypeMessage = (id: unknown): string =>
  `Cannot create component ${String(id)} without a type: every component needs a string "component".`;

/** A component its catalog's schema rejects; `detail` is the finding. */
export const componentValidationMessage = (type: string, id: unknown, detail: string): string =>
  `Validation failed for component '${type}' (id ${JSON.stringify(id)}): ${detail}`;

/** A `createSurface.theme` the catalog's theme schema rejects; `detail` is the finding. */
export const themeValidationMessage = (surfaceId: string, detail: string): string =>
  `Validation failed for theme on surface '${surfaceId}': ${detail}`;

/** A required string field that is absent or not a string (`field` as `kind.name`). */
export function requiredStringMessage(field: string, value: unknown): string {
  if (value === undefined) return `Missing "${field}": it is required and must be a string.`;
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return `"${field}" must be a string, got ${got}.`;
}
