/**
 * Other names of the v0.9 catalogs that peers use. `@copilotkit/a2ui-renderer` 1.74 registers the
 * basic catalog as `https://a2ui.org/specification/v0_9/basic_catalog.json` and the minimal one
 * as `…/catalogs/minimal/minimal_catalog.json` (not the spec's `…/catalogs/basic/catalog.json`),
 * so it draws nothing from a `createSurface` that names the spec id, and lists its own id in its
 * capabilities. One table, read wherever a catalog id is compared or looked up.
 */
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';

/** Spec catalog id → CopilotKit's id for it (what a binding emits for CopilotKit hosts). */
export const COPILOTKIT_CATALOG_IDS: Readonly<Record<string, string>> = Object.freeze({
  [BASIC_CATALOG_ID]: 'https://a2ui.org/specification/v0_9/basic_catalog.json',
  [MINIMAL_CATALOG_ID]: 'https://a2ui.org/specification/v0_9/catalogs/minimal/minimal_catalog.json',
});

/** Alias → spec catalog id. */
const SPEC_IDS: ReadonlyMap<string, string> = new Map(
  Object.entries(COPILOTKIT_CATALOG_IDS).map(([spec, alias]) => [alias, spec]),
);

/**
 * The spec's id of catalog `catalogId`: itself, unless it is a known alias.
 *
 * @example
 * ```ts
 * toSpecCatalogId('https://a2ui.org/specification/v0_9/basic_catalog.json'); // BASIC_CATALOG_ID
 * ```
 */
export function toSpecCatalogId(catalogId: string): string {
  return SPEC_IDS.get(catalogId) ?? catalogId;
}

/**
 * True when `supportedCatalogIds` (a client's capabilities) name catalog `catalogId`, under the
 * spec's id or an alias of it.
 *
 * @example
 * ```ts
 * supportsCatalogId(['https://a2ui.org/specification/v0_9/basic_catalog.json'], BASIC_CATALOG_ID); // true
 * ```
 */
export function supportsCatalogId(
  supportedCatalogIds: readonly string[],
  catalogId: string,
): boolean {
  const wanted = toSpecCatalogId(catalogId);
  return supportedCatalogIds.some((id) => toSpecCatalogId(id) === wanted);
}
